import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  jsonReply,
  startEmulator,
  WebhookSender,
} from '@portico/core/testing/emulator';
import { ClioError, type Db, lookup, notFound, parentOf, records, route } from './model.js';
import { answerOAuth, newOAuthState, type OAuthState, SANDBOX_OAUTH_CLIENT, userOfToken } from './oauth.js';
import { page, parseFields, render, select } from './query.js';
import { create, readData, update } from './records.js';
import { reportRecords } from './reports.js';
import { seed } from './seed.js';
import { checkWebhook, createdInStory, emit, SANDBOX_WEBHOOK_SECRET } from './webhooks.js';

export { SANDBOX_COLLECTIONS } from './model.js';
export { SEED_EPOCH } from './seed.js';

/** The access token the sandbox accepts, sent as `Authorization: Bearer sandbox-clio-token`. */
export const SANDBOX_TOKEN = 'sandbox-clio-token';
export const API_BASE = '/api/v4';
/** Requests per access token and minute before a 429 (Clio's default is 50 at peak; the sandbox is generous). */
export const RATE_LIMIT = 1000;

interface State {
  /** Where the sandbox listens (`http://127.0.0.1:<port>`): downloads redirect to its file addresses. */
  origin: string;
  db: Db;
  oauth: OAuthState;
  /** access token → [window start (ms), requests in it] */
  usage: Map<string, [number, number]>;
}

const FAILURES: Record<number, [string, string]> = {
  400: ['BadRequest', 'The request could not be understood'],
  401: ['Unauthorized', 'The access token is invalid'],
  403: ['Forbidden', 'You are not allowed to perform this action'],
  404: ['RecordNotFound', 'The requested resource was not found'],
  410: ['Gone', 'This API version is not supported'],
  422: ['UnprocessableEntity', 'The request has invalid parameters'],
  429: ['RateLimited', 'Rate limit exceeded. Retry after the number of seconds in Retry-After'],
  500: ['InternalServerError', 'Something went wrong'],
  503: ['ServiceUnavailable', 'The service is temporarily unavailable'],
};

const errorReply = (error: ClioError): EmulatorReply =>
  jsonReply(error.status, { error: { type: error.type, message: error.message } }, error.headers);

/** An injected failure in Clio's error shape (`code` is the type); a 429 says `Retry-After: 1` unless told. */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  const [type, message] = FAILURES[status] ?? ['Error', `Request failed with status ${status}`];
  return errorReply(new ClioError(status, fault.code ?? type, fault.message ?? message, status === 429 ? { 'retry-after': '1' } : {}));
};

/**
 * A Clio Manage API v4 look-alike on node:http, driven by the collection table generated from Clio's document
 * (`table.ts`): every collection answers `GET /api/v4/<collection>.json` (list), `GET|PATCH|DELETE …/{id}.json` and
 * `POST <collection>.json` as the document offers them, nested ones under their parent record, with Clio's
 * conventions (`fields`, `limit`/`page_token`, `ids[]`, id filters with `null`, `order`, `created_since`,
 * `updated_since`, `query`), its error body, ETags, `X-API-VERSION`, a per-token rate limit and its OAuth endpoints.
 * The emulator kit serves `POST /__sandbox/fail-next` and `POST /__sandbox/reset` (also under `/api/v4`);
 * `POST /__sandbox/emit` sends a webhook signed with the webhook secret, and a matter, activity, contact or task
 * created through the API sends its `created` webhook to the gateway (./webhooks.ts).
 */
export function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const sender = new WebhookSender(SANDBOX_WEBHOOK_SECRET);
  const started = startEmulator<State>({
    ...options,
    token: SANDBOX_TOKEN,
    basePath: API_BASE,
    seed: (address) => ({ origin: address.origin, db: seed(), oauth: newOAuthState(), usage: new Map() }),
    handle: (request, state) => {
      if (request.path === '/__sandbox/emit' && request.method === 'POST') return emit(request, state.db, sender);
      try {
        return answer(request, state, sender);
      } catch (error) {
        if (error instanceof ClioError) return errorReply(error);
        throw error;
      }
    },
    writeFault,
    onError: () => errorReply(new ClioError(500, 'InternalServerError', 'Something went wrong')),
  });
  // In sandbox mode the gateway paces requests to the sandbox's (generous) limit rather than Clio's 50 a minute.
  return started.then((server) => {
    const origin = new URL(server.url).origin;
    const oauth = {
      ...SANDBOX_OAUTH_CLIENT,
      authorizeUrl: `${origin}/oauth/authorize`,
      tokenUrl: `${origin}/oauth/token`,
      revokeUrl: `${origin}/oauth/deauthorize`,
    };
    const webhooks = { secret: sender.secret, deliverTo: (url: string) => sender.deliverTo(url) };
    return { ...server, limits: { perMinute: RATE_LIMIT }, oauth, webhooks };
  });
}

function answer(request: EmulatorRequest, state: State, sender: WebhookSender): EmulatorReply {
  const oauth = answerOAuth(request, state.oauth);
  if (oauth) return oauth;
  if (request.path.startsWith(FILES_PATH)) return storedFile(request);
  if (!request.path.startsWith(`${API_BASE}/`)) throw notFound('No route matches this path');
  const token = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? '').trim())?.[1];
  if (token === undefined || (token !== SANDBOX_TOKEN && !state.oauth.tokens.has(token))) {
    throw new ClioError(401, 'Unauthorized', 'The access token is missing, invalid, expired or revoked', {
      'www-authenticate': 'Bearer realm="Clio", error="invalid_token"',
    });
  }
  const version = request.headers['x-api-version'];
  if (version !== undefined && !/^4\.0\.\d{1,3}$/.test(String(version))) {
    throw new ClioError(410, 'Gone', `API version ${String(version).slice(0, 20)} is not supported; use 4.0.x`);
  }
  const limits = rateLimit(state, token);
  try {
    const path = request.path.slice(API_BASE.length);
    // the Clio user the token acts as: whoever authorized it, or the firm's account holder for the sandbox's own token
    const me = userOfToken(state.oauth, token) ?? ACCOUNT_USER;
    const reply = download(request, state, path) ?? resource(request, state.db, path, me, sender);
    return { ...reply, headers: { ...reply.headers, ...limits } };
  } catch (error) {
    if (error instanceof ClioError) return { ...errorReply(error), headers: { ...error.headers, ...limits } };
    throw error;
  }
}

/** Counts the request against the token's minute; past {@link RATE_LIMIT} a 429 with `Retry-After`. */
function rateLimit(state: State, token: string): Record<string, string> {
  const now = Date.now();
  let usage = state.usage.get(token);
  if (!usage || now - usage[0] >= 60_000) usage = [now, 0];
  usage[1] += 1;
  state.usage.set(token, usage);
  const reset = Math.ceil((usage[0] + 60_000) / 1000);
  const headers = {
    'x-ratelimit-limit': String(RATE_LIMIT),
    'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - usage[1])),
    'x-ratelimit-reset': String(reset),
  };
  if (usage[1] > RATE_LIMIT) {
    const retry = String(Math.max(1, reset - Math.floor(now / 1000)));
    throw new ClioError(429, 'RateLimited', 'Rate limit exceeded', { ...headers, 'retry-after': retry });
  }
  return headers;
}

// ---- downloads ----------------------------------------------------------------------------------------------------

/** Clio's download endpoints: 303 See Other to a short-lived, pre-signed address of the file in its storage. */
const DOWNLOAD = /^\/(documents|document_archives|document_templates|reports)\/([0-9]+)\/download\.json$/;
/** Where the sandbox serves those files (no credentials, like a pre-signed storage address). */
const FILES_PATH = '/sandbox-files/';
const SIGNATURE = 'sandbox-signature';

function download(request: EmulatorRequest, state: State, path: string): EmulatorReply | undefined {
  const match = DOWNLOAD.exec(path);
  if (!match || request.method !== 'GET') return undefined;
  const [, kind, id] = match as unknown as [string, string, string];
  if (!lookup(state.db, `/${kind}`, Number(id))) throw notFound();
  const version = request.query.get('document_version_id');
  const file = `${kind}/${id}${version ? `-v${version}` : ''}`;
  const location = `${state.origin}${FILES_PATH}${file}?expires=300&signature=${SIGNATURE}`;
  return { status: 303, body: '', contentType: 'text/plain; charset=utf-8', headers: { location } };
}

/** A file behind a download address: its bytes without credentials while the signature is right. */
function storedFile(request: EmulatorRequest): EmulatorReply {
  if (request.method !== 'GET' || request.query.get('signature') !== SIGNATURE) {
    return { status: 403, body: 'Request has expired or the signature does not match', contentType: 'text/plain' };
  }
  return { status: 200, body: `Sandbox file ${request.path.slice(FILES_PATH.length)}\n`, contentType: 'application/octet-stream' };
}

const noContent = (): EmulatorReply => ({ status: 204, body: '', contentType: 'text/plain; charset=utf-8' });

/** Who the sandbox's own token (and any token nobody signed in for) acts as: the managing partner, Margaret Harlow. */
const ACCOUNT_USER = 1001;

/** Collections whose new records name the user who created them when the request names nobody (Clio's current user). */
const AUTHORED: Readonly<Record<string, string>> = { '/activities': 'user' };

function resource(request: EmulatorRequest, db: Db, path: string, me: number, sender: WebhookSender): EmulatorReply {
  const { method, query } = request;
  const found = route(path);
  if (!found) throw notFound('No route matches this path');
  const { collection, scope, id } = found;
  for (const [param, value] of Object.entries(scope)) {
    const parent = parentOf(collection, param);
    if (parent && records(db, parent).length > 0 && !lookup(db, parent.template, Number(value))) throw notFound();
  }
  const verb = id === undefined ? { GET: 'L', POST: 'C', DELETE: 'X' }[method] : { GET: 'G', PATCH: 'U', DELETE: 'D' }[method];
  if (!verb || !collection.verbs.has(verb as never)) throw notFound(`No route matches ${method} ${API_BASE}${path}`);
  const fields = () => parseFields(query.get('fields'));
  const inScope = (stored: { scope: Record<string, string> }) => Object.entries(scope).every(([k, v]) => stored.scope[k] === v);

  if (collection.template === '/users/who_am_i') {
    const user = lookup(db, '/users', me);
    if (!user) throw notFound();
    return jsonReply(200, { data: render(db, user.row, fields()) });
  }
  if (verb === 'L') {
    const rows = select(collection, reportRecords(db, collection.template, query) ?? records(db, collection).filter(inScope), query, db);
    const selection = fields();
    const { data, meta } = page(collection, rows, query, request.url, request.origin);
    return jsonReply(200, { data: data.map((row) => render(db, row, selection)), meta });
  }
  if (verb === 'C') {
    const selection = fields();
    const data = readData(request, db, collection, true);
    if (collection.template === '/webhooks') checkWebhook(data, true);
    const author = AUTHORED[collection.template];
    if (author && data[author] === undefined) data[author] = { id: me };
    const row = create(db, collection, data, scope);
    createdInStory(db, collection.template, row, sender);
    return jsonReply(201, { data: render(db, row, selection) });
  }
  if (verb === 'X') {
    records(db, collection).splice(0);
    return noContent();
  }
  const stored = lookup(db, collection.template, id as number, scope);
  if (!stored) throw notFound();
  const etag = { etag: stored.row.etag };
  if (verb === 'G') {
    if (request.headers['if-none-match'] === stored.row.etag) return { status: 304, body: '', contentType: 'text/plain', headers: etag };
    return jsonReply(200, { data: render(db, stored.row, fields()) }, etag);
  }
  if (verb === 'U') {
    const match = request.headers['if-match'];
    if (match !== undefined && match !== stored.row.etag) {
      throw new ClioError(412, 'PreconditionFailed', 'The record changed since the IF-MATCH etag was read');
    }
    const selection = fields();
    const changes = readData(request, db, collection, false);
    if (collection.template === '/webhooks') checkWebhook(changes, false);
    const row = update(db, stored, changes, collection.template);
    return jsonReply(200, { data: render(db, row, selection) }, { etag: row.etag });
  }
  const list = records(db, collection);
  list.splice(list.indexOf(stored), 1);
  return noContent();
}
