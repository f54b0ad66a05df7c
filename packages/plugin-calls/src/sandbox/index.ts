import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  bytesReply,
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  firmPerson,
  InvalidJsonError,
  jsonReply,
  startEmulator,
  WebhookSender,
} from '@portico/core/testing/emulator';
import type { SandboxData } from './records.js';
import { HttpError } from './request.js';
import { ROUTES } from './routes/index.js';
import { seed } from './seed/index.js';
import type { Origin } from './views.js';
import { emit, SANDBOX_SIGNING_KEY } from './webhooks.js';

/** The API key the sandbox accepts, sent as `Authorization: Token token="sandbox-callrail-key"`. */
export const SANDBOX_TOKEN = 'sandbox-callrail-key';
const EXPECTED_AUTHORIZATION = `Token token="${SANDBOX_TOKEN}"`;

const DEFAULT_FAILURE_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'HTTP Token: Access denied.',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too many requests: the account exceeded its hourly API limit',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

interface State {
  data: SandboxData;
  origin: Origin;
}

/** CallRail's error answer: the status and `{ "error": "..." }`. */
const errorReply = (error: HttpError): EmulatorReply => jsonReply(error.status, { error: error.message }, error.headers);

/** An injected failure in CallRail's shape; CallRail has no error codes, so the message (or code) is the text. */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  return errorReply(new HttpError(status, fault.message ?? fault.code ?? DEFAULT_FAILURE_MESSAGES[status] ?? 'Error'));
};

/**
 * A CallRail v3 look-alike on node:http: the same paths (`/v3/a/{account_id}/….json`), the `Token token="…"` header
 * check, the paged wrapper and `{ "error": "..." }` failures, over seeded data that write operations change.
 * The emulator kit of `@portico/core/testing` serves `POST /__sandbox/fail-next` (`{ "status": 429, "retry_after": 1,
 * "message": "…" }` makes the next request fail) and `POST /__sandbox/reset` (restores the seeded data); and
 * `POST /__sandbox/emit` sends a call webhook signed with the companies' signing key (./webhooks.ts).
 */
export function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const sender = new WebhookSender(SANDBOX_SIGNING_KEY);
  const server = startEmulator<State>({
    ...options,
    token: SANDBOX_TOKEN,
    basePath: '/v3',
    seed: ({ origin, url }) => ({ data: seed(), origin: { origin, base: url } }),
    handle: (request, state) => {
      if (request.path === '/__sandbox/emit' && request.method === 'POST') return emit(request, state.data, state.origin, sender);
      try {
        return answer(request, state);
      } catch (error) {
        if (error instanceof HttpError) return errorReply(error);
        throw error;
      }
    },
    writeFault,
    onError: () => errorReply(new HttpError(500, 'Internal Server Error')),
  });
  // The key is the intake coordinator's, the account's admin: CallRail's API cannot say so, the connection's facts do.
  return server.then((started) => ({
    ...started,
    connection: { user_email: firmPerson('intake').email },
    webhooks: { secret: sender.secret, deliverTo: (url: string) => sender.deliverTo(url) },
  }));
}

function answer(request: EmulatorRequest, { data, origin }: State): EmulatorReply {
  const { method, path } = request;
  if (path.startsWith('/__sandbox/recordings/') && method === 'GET') {
    // Recording links are pre-signed (access_key), so, as on CallRail, they need no API key.
    return bytesReply(200, Buffer.from([0xff, 0xfb, 0x90, 0x00]), 'audio/mpeg');
  }
  if (!path.startsWith('/v3/')) throw new HttpError(404, 'Not Found');
  if (request.headers.authorization !== EXPECTED_AUTHORIZATION) {
    throw new HttpError(401, 'HTTP Token: Access denied.', { 'www-authenticate': 'Token realm="Application"' });
  }

  const resource = path.slice(3);
  for (const route of ROUTES) {
    const match = route.pattern.exec(resource);
    if (!match || route.method !== method) continue;
    const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
    const body = method === 'PUT' ? jsonBody(request) : undefined;
    return jsonReply(200, route.handle({ data, params, query: request.query, body, origin }));
  }
  throw new HttpError(404, 'Not Found');
}

function jsonBody(request: EmulatorRequest): unknown {
  try {
    return request.json() ?? {};
  } catch (error) {
    if (error instanceof InvalidJsonError) throw new HttpError(400, 'Request body is not valid JSON');
    throw error;
  }
}
