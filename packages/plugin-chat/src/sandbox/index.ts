import { Buffer } from 'node:buffer';
import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  bytesReply,
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  isJsonObject,
  jsonReply,
  startEmulator,
  textReply,
  WebhookSender,
} from '@portico/core/testing/emulator';
import { BOT_USER_ID, type SandboxState, seedState } from './data.js';
import { METHODS } from './methods/index.js';
import { access, authorize } from './oauth.js';
import { type Args, type MethodContext, SlackError } from './web-api.js';
import { emit, eventCallback, messageEvent, SANDBOX_SIGNING_SECRET, slackSignatureHeaders } from './webhooks.js';

/** The bot token the sandbox accepts. */
export const SANDBOX_TOKEN = 'xoxb-sandbox-token';

/**
 * An injected failure as Slack fails: without a status, HTTP 200 `{ ok: false, error: code }` (a `ratelimited` code
 * is a 429); a 429 carries `Retry-After` (1 s unless the fault sets `retry_after`).
 */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? (fault.code === 'ratelimited' ? 429 : 200);
  if (status === 429) return jsonReply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
  return jsonReply(status, { ok: false, error: fault.code ?? (status >= 500 ? 'internal_error' : 'invalid_arguments') });
};

/**
 * A local stand-in for the Slack Web API (https://api.slack.com/web): `<url>/<method>` with Slack's auth check,
 * argument merging, cursor paging and `{ ok: false, error }` answers, plus the external upload round trip.
 *
 * Control endpoints (not Slack), from the emulator kit of `@portico/core/testing`: `POST /__sandbox/fail-next`
 * (`{ status?, code?, retry_after?, match? }`; `"match": "/upload/"` fails only the next upload) and
 * `POST /__sandbox/reset`; and this sandbox's own `GET /__sandbox/files/<file_id>`, which returns uploaded bytes, and
 * `POST /__sandbox/emit`, which sends a signed Events API webhook (./webhooks.ts). Once given a URL (`webhooks.deliverTo`),
 * a message posted through the API is also sent there as its `message` event, signed as Slack signs.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const sender = new WebhookSender(SANDBOX_SIGNING_SECRET);
  const server = await startEmulator<SandboxState>({
    ...options,
    token: SANDBOX_TOKEN,
    basePath: '/api',
    seed: () => seedState(),
    handle: (request, state) =>
      request.path === '/__sandbox/emit' && request.method === 'POST' ? emit(request, state, sender) : route(request, state, sender),
    writeFault,
    onError: () => jsonReply(500, { ok: false, error: 'internal_error' }),
  });
  const oauth = {
    clientId: 'portico-sandbox',
    clientSecret: 'portico-sandbox-secret',
    authorizeUrl: `${new URL(server.url).origin}/oauth/v2/authorize`,
    tokenUrl: `${server.url}/oauth.v2.access`,
    revokeUrl: `${server.url}/auth.revoke`,
  };
  return { ...server, oauth, webhooks: { secret: sender.secret, deliverTo: (url) => sender.deliverTo(url) } };
}

function route(request: EmulatorRequest, state: SandboxState, sender: WebhookSender): EmulatorReply {
  const { method, path } = request;
  const file = /^\/__sandbox\/files\/([^/]+)$/.exec(path);
  if (file) {
    const stored = method === 'GET' ? state.files.get(decodeURIComponent(file[1] ?? '')) : undefined;
    return stored?.bytes ? bytesReply(200, stored.bytes) : textReply(404, 'Not Found');
  }
  if (path.startsWith('/upload/')) return upload(request, state, path.slice('/upload/'.length));
  if (path === '/oauth/v2/authorize' && method === 'GET') return authorize(request, state, state.oauth);
  if (path.startsWith('/api/')) return api(request, state, sender);
  return textReply(404, 'Not Found');
}

/** The upload URL handed out by files.getUploadURLExternal: unauthenticated, takes the raw bytes. */
function upload(request: EmulatorRequest, state: SandboxState, id: string): EmulatorReply {
  const file = state.files.get(decodeURIComponent(id));
  if (request.method !== 'POST' || !file) return textReply(404, 'Not Found');
  file.bytes = Buffer.from(request.body);
  return textReply(200, `OK - ${request.body.length}`);
}

function api(request: EmulatorRequest, state: SandboxState, sender: WebhookSender): EmulatorReply {
  const name = decodeURIComponent(request.path.slice('/api/'.length));
  // the app's token exchange: authenticated by its client id and secret, not a token
  if (name === 'oauth.v2.access') return jsonReply(200, access(collectArgs(request, false), SANDBOX_TOKEN, state.oauth));
  const spec = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
  if (!spec) return jsonReply(404, { ok: false, error: 'unknown_method', req_method: name });
  const args = collectArgs(request, spec.json);

  const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]?.trim();
  const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
  if (!token) return jsonReply(200, { ok: false, error: 'not_authed' });
  const person = state.oauth.userTokens.get(token);
  if (token !== SANDBOX_TOKEN && person === undefined) return jsonReply(200, { ok: false, error: 'invalid_auth' });
  state.actor = person ?? BOT_USER_ID;

  const ctx: MethodContext = { state, token, origin: request.origin };
  try {
    const result = spec.handle(args, ctx);
    if (name === 'chat.postMessage' && sender.configured) {
      // the app hears its own post as Slack tells it: a message event, signed, sent to the request URL
      const body = eventCallback(
        messageEvent(String(result.channel), result.message as Record<string, unknown>),
        Math.floor(Date.now() / 1000),
      );
      sender.sendInBackground(slackSignatureHeaders(sender.secret, Math.floor(Date.now() / 1000), body), body);
    }
    return jsonReply(200, result);
  } catch (error) {
    if (error instanceof SlackError) return jsonReply(200, { ok: false, error: error.code, ...error.extra });
    throw error;
  }
}

/** Slack takes arguments from the query string and from a form body, and from a JSON body where the method allows it. */
function collectArgs(request: EmulatorRequest, acceptsJson: boolean): Args {
  const args: Args = Object.fromEntries(request.query);
  if (request.body.length === 0) return args;
  const type = String(request.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    Object.assign(args, request.form());
  } else if (type.includes('application/json') && acceptsJson) {
    Object.assign(args, jsonObject(request));
  }
  return args;
}

/** Slack ignores a JSON body that is malformed or not an object. */
function jsonObject(request: EmulatorRequest): Record<string, unknown> {
  try {
    const value = request.json();
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}
