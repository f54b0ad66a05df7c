import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  jsonReply,
  startEmulator,
  WebhookSender,
} from '@portico/core/testing/emulator';
import { COLLECTIONS, TOP_LEVEL } from './collections.js';
import { ApiError, type CollectionDef, type Db, notFound, type StoredRecord, type Verb } from './model.js';
import { answerOAuth, newOAuthState, type OAuthState, SANDBOX_OAUTH_CLIENT } from './oauth.js';
import { filterRecords, paged, selection, sortRecords } from './query.js';
import { createRecord, deleteRecord, findRecord, readBody, render, updateRecord } from './records.js';
import { seed } from './seed.js';
import { afterWrite, attachTags, campaignStats, download, find, linkMatter, me, submitForm } from './special.js';
import { emit, SANDBOX_SIGNING_SECRET } from './webhooks.js';

export { COLLECTIONS } from './collections.js';
export { PAGE_SIZE } from './query.js';

/** The OAuth access token the sandbox accepts, sent as `Authorization: Bearer sandbox-lawmatics-token`. */
export const SANDBOX_TOKEN = 'sandbox-lawmatics-token';

interface State {
  db: Db;
  origin: string;
  oauth: OAuthState;
}

const DEFAULT_FAILURES: Record<number, [string, string]> = {
  400: ['Bad Request', 'The request could not be understood.'],
  401: ['Unauthorized', 'The access token is invalid'],
  403: ['Forbidden', 'You are not allowed to perform this action.'],
  404: ['Not found', 'The requested resource was not found.'],
  422: ['Invalid Parameter', 'The request has invalid parameters.'],
  429: ['Too Many Requests', 'Rate limit exceeded. Please retry later.'],
  500: ['Internal Server Error', 'Something went wrong on our end.'],
  502: ['Bad Gateway', 'The upstream service is unavailable.'],
  503: ['Service Unavailable', 'The service is temporarily unavailable.'],
};

const errorReply = (error: ApiError): EmulatorReply => jsonReply(error.status, error.body(), error.headers);

/** An injected failure in Lawmatics' error shape: `code` is the error's title, `message` its detail. */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  const [title, detail] = DEFAULT_FAILURES[status] ?? ['Error', `Request failed with status ${status}.`];
  return errorReply(new ApiError(status, fault.code ?? title, fault.message ?? detail));
};

/** Doorkeeper's answer (Lawmatics' OAuth server) to a missing or unknown access token. */
const unauthorized = (): EmulatorReply =>
  jsonReply(
    401,
    { error: 'invalid_token', error_description: 'The access token is invalid' },
    { 'www-authenticate': 'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"' },
  );

/**
 * A Lawmatics API v1 look-alike on node:http, driven by the collection table: `/v1/{collection}[/{id}]` with the
 * verbs the document gives each collection, the finders, Lawmatics' list conventions (`fields`, `page`, `sort_by`,
 * `sort_order`, one `filter_by`/`filter_on`/`filter_with` filter), JSON:API records and errors, and the OAuth bearer
 * check, over a seeded law firm that writes change. The emulator kit serves `POST /__sandbox/fail-next` and
 * `POST /__sandbox/reset` (also under `/v1`).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const sender = new WebhookSender(SANDBOX_SIGNING_SECRET);
  const server = await startEmulator<State>({
    ...options,
    token: SANDBOX_TOKEN,
    basePath: '/v1',
    seed: ({ origin }) => ({ db: seed(), origin, oauth: newOAuthState() }),
    handle: (request, state) => {
      if (request.path === '/__sandbox/emit' && request.method === 'POST') return emit(request, state.db, sender);
      try {
        return answer(request, state);
      } catch (error) {
        if (error instanceof ApiError) return errorReply(error);
        throw error;
      }
    },
    writeFault,
    onError: () => errorReply(new ApiError(500, 'Internal Server Error', 'Something went wrong on our end.')),
  });
  const origin = new URL(server.url).origin;
  return {
    ...server,
    oauth: { ...SANDBOX_OAUTH_CLIENT, authorizeUrl: `${origin}/oauth/authorize`, tokenUrl: `${origin}/oauth/token` },
    webhooks: { secret: sender.secret, deliverTo: (url: string) => sender.deliverTo(url) },
  };
}

function segmentsOf(path: string): string[] {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new ApiError(400, 'Bad Request', 'The request path is not valid.');
  }
}

function answer(request: EmulatorRequest, state: State): EmulatorReply {
  const { method, query } = request;
  const { db } = state;
  const oauth = answerOAuth(request, state.oauth);
  if (oauth) return oauth;
  if (!request.path.startsWith('/v1/')) throw notFound();
  const segments = segmentsOf(request.path.slice(3));
  const [head, second, third] = segments;
  const formRoute = head === 'forms' && second !== undefined;
  // The custom form endpoints are documented as usable without a token.
  const open =
    formRoute && ((method === 'GET' && segments.length === 2) || (method === 'POST' && third === 'submit' && segments.length === 3));
  if (!open && !authorized(request, state.oauth)) return unauthorized();

  if (method === 'GET' && head === 'users' && second === 'me' && segments.length === 2)
    return me(db, query, signedInAs(request, state.oauth));
  if (method === 'GET' && head === 'email_campaign_stats' && segments.length === 2) return campaignStats(second as string, db);
  if (method === 'GET' && head === 'files' && second === 'download' && segments.length === 3) return download(third as string, db);
  if (method === 'POST' && head === 'tags' && (second === 'attach' || second === 'detach') && segments.length === 2) {
    return attachTags(second, readBody(request), db, query);
  }
  if (method === 'POST' && formRoute && third === 'submit' && segments.length === 3)
    return submitForm(second, readBody(request), db, query);

  const def = head === undefined ? undefined : TOP_LEVEL.get(head);
  if (!def) throw notFound();
  if (def.finders && second?.startsWith('find_by_') && segments.length === 3) {
    if (method !== 'GET') throw notFound();
    return find(def, second.slice('find_by_'.length), third as string, db, query);
  }
  if (segments.length >= 3) {
    const child = COLLECTIONS.find((c) => c.parent?.key === def.key && c.path === third);
    if (!child?.parent) throw notFound();
    const parent = findRecord(def, db, second as string);
    const link = child.parent.link;
    return collectionRoute(child, segments.slice(3), request, state, (r) => r.internal[link] === parent.id, { [link]: parent.id });
  }
  return collectionRoute(def, segments.slice(1), request, state);
}

/** The email of the person the request's token was issued to through the OAuth flow; undefined for the sandbox token. */
function signedInAs(request: EmulatorRequest, oauth: OAuthState): string | undefined {
  const token = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? '').trim())?.[1];
  return token === undefined ? undefined : oauth.tokens.get(token);
}

function authorized(request: EmulatorRequest, oauth: OAuthState): boolean {
  const header = String(request.headers.authorization ?? '');
  const token = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1];
  return token === SANDBOX_TOKEN || (token !== undefined && oauth.tokens.has(token));
}

function allow(def: CollectionDef, verb: Verb): void {
  if (!def.verbs.includes(verb)) throw notFound(`No route matches this request for ${def.path}.`);
}

/** The five verbs of one collection (`rest` is what follows its path: nothing, or the record id). */
function collectionRoute(
  def: CollectionDef,
  rest: string[],
  request: EmulatorRequest,
  { db, origin }: State,
  scope: (r: StoredRecord) => boolean = () => true,
  internal: Record<string, string> = {},
): EmulatorReply {
  const { method, query } = request;
  if (rest.length === 0 && method === 'GET') {
    allow(def, 'list');
    const records = sortRecords(def, filterRecords(def, (db.records[def.key] ?? []).filter(scope), query, db), query, db);
    const shown = selection(query, def.defaults);
    if (def.dataOnly) return jsonReply(200, { data: records.map((r) => render(def, r, db, shown)) });
    const page = paged(records, query, request.url, origin);
    return jsonReply(200, { ...page, data: page.data.map((r) => render(def, r, db, shown)) });
  }
  if (rest.length === 0 && method === 'POST') {
    allow(def, 'create');
    const body = readBody(request);
    const { record, written } = createRecord(def, db, body, { ...internal });
    if (def.key === 'prospects') linkMatter(record, body, db);
    afterWrite(def, record, body, db);
    return jsonReply(def.status?.create ?? 201, { data: render(def, record, db, writtenFields(def, query, written)) });
  }
  if (rest.length !== 1) throw notFound();
  const id = rest[0] as string;
  if (method === 'GET') {
    allow(def, 'get');
    return jsonReply(200, { data: render(def, findRecord(def, db, id, scope), db, selection(query, def.defaults)) });
  }
  if (method === 'PUT' || method === 'PATCH') {
    allow(def, 'update');
    const record = findRecord(def, db, id, scope);
    const body = readBody(request);
    const { written } = updateRecord(def, db, record, body);
    afterWrite(def, record, body, db);
    return jsonReply(def.status?.update ?? 200, { data: render(def, record, db, writtenFields(def, query, written)) });
  }
  if (method === 'DELETE') {
    allow(def, 'delete');
    const record = findRecord(def, db, id, scope);
    const shown = render(def, record, db, selection(query, def.defaults));
    deleteRecord(def, db, record);
    const status = def.status?.delete ?? 200;
    return status === 204 ? { status, body: '', contentType: 'text/plain; charset=utf-8' } : jsonReply(status, { data: shown });
  }
  throw notFound();
}

/** A write answers with `fields` when given, else the default set plus the attributes the body set. */
function writtenFields(def: CollectionDef, query: URLSearchParams, written: readonly string[]) {
  return selection(query, [...def.defaults, ...written.filter((name) => !def.defaults.includes(name))]);
}
