import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  isJsonObject,
  jsonReply,
  startEmulator,
  WebhookSender,
} from '@portico/core/testing/emulator';
import { runCdc } from './cdc.js';
import { type EntityName, type Json, SANDBOX_REALM_ID } from './company.js';
import {
  authenticationFailed,
  type FaultType,
  faultBody,
  objectNotFound,
  QboFault,
  qboTime,
  resourceNotFound,
  systemFault,
  throttled,
  unsupportedOperation,
} from './errors.js';
import {
  authorize as authorizeEndpoint,
  checkAccessToken,
  expireTokens,
  type OAuthState,
  oauthState,
  revoke,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  token,
  userinfo,
} from './oauth.js';
import { entityName, runQuery } from './query.js';
import { runReport } from './reports.js';
import { type Company, seedCompany } from './seed.js';
import { emit, SANDBOX_VERIFIER_TOKEN } from './webhooks.js';
import { createCustomer, RequestIds } from './writes.js';

export { SANDBOX_REALM_ID } from './company.js';
export { AUTHORED_TODAY } from './dates.js';
export { ACCOUNTING_SCOPE, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from './oauth.js';
export { REPORT_NAMES } from './reports.js';

/** The fixed bearer token the sandbox accepts for {@link SANDBOX_REALM_ID} (never expires). */
export const SANDBOX_TOKEN = 'sandbox-quickbooks-access-token';
/** QuickBooks' limit of requests in flight at once per realm (and app). */
export const MAX_CONCURRENT_REQUESTS = 10;

export interface QuickBooksSandboxOptions extends SandboxOptions {
  /** Seconds an OAuth access token lives (`expires_in`), default 3600; 0 makes every issued token expire at once. */
  accessTokenTtlSeconds?: number;
  /** Time each API request takes, default 2 ms, so parallel requests overlap and the concurrency limit can bite. */
  latencyMs?: number;
  /** Requests in flight per realm above which the sandbox answers 429, default 10. */
  maxConcurrent?: number;
  /**
   * More records of some entities than the seed has, e.g. `{ Customer: 2500 }` for paging over thousands (see
   * {@link EXTRA_RECORD_ENTITIES}); they are there again after a reset. `POST /__sandbox/settings` sets them until reset.
   */
  extraRecords?: Partial<Record<ExtraRecordEntity, number>>;
}

/**
 * The entities the sandbox can add records of: names and timesheets, which post nothing, so the books and every report
 * stay as seeded. The extra records copy seeded ones in turn with new ids and numbered names (`… #2`), no balance.
 */
export const EXTRA_RECORD_ENTITIES = ['Customer', 'Vendor', 'Employee', 'Item', 'TimeActivity', 'Attachable'] as const;
export type ExtraRecordEntity = (typeof EXTRA_RECORD_ENTITIES)[number];
/** The most extra records of one entity. */
export const MAX_EXTRA_RECORDS = 50_000;

interface Settings {
  latencyMs: number;
  maxConcurrent: number;
}

interface RealmStats {
  requests: number;
  throttled: number;
  peakInFlight: number;
}

interface State {
  company: Company;
  oauth: OAuthState;
  settings: Settings;
  stats: Map<string, RealmStats>;
  requestIds: RequestIds;
}

const FAULT_TYPES: Record<number, FaultType> = {
  401: 'AuthenticationFault',
  403: 'AuthorizationFault',
  429: 'ThrottlingFault',
  500: 'SystemFault',
  503: 'SystemFault',
};
const FAULT_MESSAGES: Record<number, [string, string]> = {
  400: ['Request has invalid or unsupported property', '2010'],
  401: ['message=AuthenticationFailed; errorCode=003200; statusCode=401', '3200'],
  403: ['message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403', '3100'],
  404: ['Resource Not Found', '404'],
  429: ['message=ThrottleExceeded; errorCode=003001; statusCode=429', '3001'],
  500: ['An application error has occurred while processing your request', '10000'],
  503: ['Service Unavailable', '10000'],
};

/** An injected failure in QuickBooks' Fault format (`code` and `message` override the defaults of the status). */
const writeFault: FaultWriter = (fault) => {
  const status = fault.status ?? 500;
  const [message, code] = FAULT_MESSAGES[status] ?? ['Injected failure', String(status)];
  const type = FAULT_TYPES[status] ?? (status >= 500 ? 'SystemFault' : 'ValidationFault');
  const headers: Record<string, string> = status === 429 && fault.headers['retry-after'] === undefined ? { 'retry-after': '60' } : {};
  return faultBody(
    status,
    type,
    [{ Message: fault.message ?? message, Detail: fault.message ?? message, code: fault.code ?? code }],
    headers,
  );
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A QuickBooks Online Accounting API v3 look-alike over a seeded company (a small law firm's books, realm
 * {@link SANDBOX_REALM_ID}): `url` is the host base under which the plugin puts `/v3/company/{realmId}/…`. It serves
 * the query endpoint, single reads, company info, preferences, reports and change data capture, creates customers
 * (`POST …/customer`), answers a request repeated with the same `requestid` as the first time without doing it again
 * (QuickBooks' idempotency key; 2xx answers are kept), checks bearer tokens (the fixed
 * {@link SANDBOX_TOKEN} or one from its OAuth endpoints, where a person of the firm signs in; Intuit's userinfo at
 * `/v1/openid_connect/userinfo` names them), answers 429 above 10 requests in flight per realm, and adds
 * to the kit's `/__sandbox/fail-next` and `/__sandbox/reset`:
 *
 * - `POST /__sandbox/expire-tokens` `{ "access_token"?: "…" }`: issued access tokens (or that one) expire now;
 * - `POST /__sandbox/settings` `{ "latency_ms"?, "max_concurrent"?, "access_token_ttl"?, "extra_records"? }`: changes
 *   them until reset; `extra_records` (`{ "Customer": 2500 }`) gives an entity that many records beyond the seeded ones;
 * - `GET /__sandbox/stats`: per realm, requests, throttled requests and the peak of requests in flight; the settings
 *   and the record counts of the entities that can have extra records;
 * - `POST /__sandbox/emit`: a webhook about an entity, signed with the app's verifier token (./webhooks.ts).
 */
export function startSandbox(options: QuickBooksSandboxOptions = {}): Promise<SandboxServer> {
  const { accessTokenTtlSeconds, latencyMs, maxConcurrent, extraRecords, ...listen } = options;
  const problem = extraRecordsProblem(extraRecords ?? {});
  if (problem) return Promise.reject(new Error(`startSandbox: ${problem}`));
  const inFlight = new Map<string, number>();
  const sender = new WebhookSender(SANDBOX_VERIFIER_TOKEN);
  const server = startEmulator<State>({
    ...listen,
    token: SANDBOX_TOKEN,
    seed: () => ({
      company: withExtraRecords(seedCompany(SANDBOX_REALM_ID), extraRecords ?? {}),
      oauth: oauthState(accessTokenTtlSeconds ?? 3600),
      settings: { latencyMs: latencyMs ?? 2, maxConcurrent: maxConcurrent ?? MAX_CONCURRENT_REQUESTS },
      stats: new Map(),
      requestIds: new RequestIds(),
    }),
    handle: async (request, state) => {
      if (request.path === '/__sandbox/emit' && request.method === 'POST') return emit(request, state.company, sender);
      try {
        return await answer(request, state, inFlight);
      } catch (error) {
        if (error instanceof QboFault) return error.reply();
        throw error;
      }
    },
    writeFault,
    onError: () => systemFault().reply(),
  });
  // The gateway stores these facts with the sandbox connection: the plugin addresses the seeded company by its realm id.
  // In sandbox mode the gateway keeps to the sandbox's limit of requests in flight, as it keeps to QuickBooks'.
  const limits = { concurrency: maxConcurrent ?? MAX_CONCURRENT_REQUESTS };
  // Its Intuit OAuth endpoints: in sandbox mode people connect their own QuickBooks through them.
  return server.then((started) => ({
    ...started,
    connection: { realmId: SANDBOX_REALM_ID },
    limits,
    webhooks: { secret: sender.secret, deliverTo: (url: string) => sender.deliverTo(url) },
    oauth: {
      clientId: SANDBOX_CLIENT_ID,
      clientSecret: SANDBOX_CLIENT_SECRET,
      authorizeUrl: `${started.origin}/oauth2/authorize`,
      tokenUrl: `${started.origin}/oauth2/v1/tokens/bearer`,
      revokeUrl: `${started.origin}/v2/oauth2/tokens/revoke`,
    },
  }));
}

async function answer(request: EmulatorRequest, state: State, inFlight: Map<string, number>): Promise<EmulatorReply> {
  const { method, path } = request;
  if (path === '/oauth2/authorize' && method === 'GET') return authorizeEndpoint(request, state.oauth);
  if (path === '/oauth2/v1/tokens/bearer') return token(request, state.oauth);
  if (path === '/v2/oauth2/tokens/revoke' && method === 'POST') return revoke(request, state.oauth);
  if (path === '/v1/openid_connect/userinfo' && method === 'GET') return userinfo(request, state.oauth, SANDBOX_TOKEN);
  if (path.startsWith('/__sandbox/')) return control(request, state);

  const match = /^\/v3\/company\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!match) throw resourceNotFound(path);
  const realmId = decodeURIComponent(match[1] as string);
  authenticate(request, state, realmId);
  // QuickBooks' requestid: a request repeated with one is answered as the first was, and does nothing more
  const requestId = RequestIds.of(request.query);
  const replayed = requestId === undefined ? undefined : state.requestIds.replay(realmId, requestId);
  if (replayed) return replayed;

  const stats = state.stats.get(realmId) ?? { requests: 0, throttled: 0, peakInFlight: 0 };
  state.stats.set(realmId, stats);
  stats.requests++;
  const running = (inFlight.get(realmId) ?? 0) + 1;
  if (running > state.settings.maxConcurrent) {
    stats.throttled++;
    throw throttled(`More than ${state.settings.maxConcurrent} requests in flight for realm ${realmId}`);
  }
  inFlight.set(realmId, running);
  stats.peakInFlight = Math.max(stats.peakInFlight, running);
  try {
    if (state.settings.latencyMs > 0) await delay(state.settings.latencyMs);
    const reply = route(request, state.company, match[2] ?? '');
    if (requestId !== undefined && reply.status < 300) state.requestIds.keep(realmId, requestId, reply);
    return reply;
  } finally {
    inFlight.set(realmId, (inFlight.get(realmId) ?? 1) - 1);
  }
}

/** `Authorization: Bearer …` for this realm: the fixed sandbox token or an OAuth access token that is still good. */
function authenticate(request: EmulatorRequest, state: State, realmId: string): void {
  const header = String(request.headers.authorization ?? '');
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!bearer) throw authenticationFailed('Authorization header missing or not a Bearer token');
  const checked = bearer === SANDBOX_TOKEN ? { realmId: SANDBOX_REALM_ID } : checkAccessToken(state.oauth, bearer);
  if ('problem' in checked) throw authenticationFailed(`${checked.problem}: ${bearer.slice(0, 12)}…`);
  if (checked.realmId !== realmId) throw authenticationFailed(`The token is not valid for realm ${realmId}`);
}

function route(request: EmulatorRequest, company: Company, rest: string): EmulatorReply {
  const segments = rest.split('/').map(decodeURIComponent);
  const [head = '', id, extra] = segments;
  if (head === 'query') {
    if (request.method === 'GET') return jsonReply(200, runQuery(company, request.query.get('query')));
    if (request.method === 'POST') return jsonReply(200, runQuery(company, request.text()));
  }
  if (head === 'customer' && id === undefined && request.method === 'POST') return createCustomer(company, jsonBody(request));
  if (request.method !== 'GET') throw unsupportedOperation(`${request.method} ${head} (the sandbox writes customers only)`);
  if (head === 'reports' && id && extra === undefined) return jsonReply(200, runReport(company, id, request.query));
  if (head === 'cdc' && id === undefined) return jsonReply(200, runCdc(company, request.query));
  if (head === 'preferences' && id === undefined) return single('Preferences', company.entities.Preferences[0] as Json);
  if (head === 'companyinfo' && id !== undefined && extra === undefined) {
    if (id !== company.realmId && id !== '1') throw objectNotFound('CompanyInfo', id);
    return single('CompanyInfo', company.entities.CompanyInfo[0] as Json);
  }
  const entity = entityName(head);
  if (entity && id !== undefined && extra === undefined) {
    const record = company.entities[entity].find((r) => r.Id === id);
    if (!record) throw objectNotFound(entity, id);
    return single(entity, record);
  }
  throw resourceNotFound(`/v3/company/${company.realmId}/${rest}`);
}

/** The request's JSON body; undefined when it is not JSON (the write refuses it). */
function jsonBody(request: EmulatorRequest): unknown {
  try {
    return request.json();
  } catch {
    return undefined;
  }
}

const single = (entity: string, record: Json) => jsonReply(200, { [entity]: structuredClone(record), time: qboTime() });

function control(request: EmulatorRequest, state: State): EmulatorReply {
  const { method, path } = request;
  if (path === '/__sandbox/expire-tokens' && method === 'POST') return expireTokens(request, state.oauth);
  if (path === '/__sandbox/stats' && method === 'GET') {
    const realms = Object.fromEntries(
      [...state.stats].map(([realm, s]) => [realm, { requests: s.requests, throttled: s.throttled, peak_in_flight: s.peakInFlight }]),
    );
    return jsonReply(200, { ok: true, realms, settings: settingsView(state), records: recordCounts(state) });
  }
  if (path === '/__sandbox/settings' && method === 'POST') {
    let body: unknown;
    try {
      body = request.json();
    } catch {
      body = undefined;
    }
    if (!isJsonObject(body)) return jsonReply(400, { ok: false, error: 'settings takes a JSON object' });
    const numbers: Array<[string, (n: number) => void, number]> = [
      ['latency_ms', (n) => (state.settings.latencyMs = n), 0],
      ['max_concurrent', (n) => (state.settings.maxConcurrent = n), 1],
      ['access_token_ttl', (n) => (state.oauth.accessTokenTtl = n), 0],
    ];
    for (const [name, value, min] of numbers.map(([n, , m]) => [n, body[n], m] as const)) {
      if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min)) {
        return jsonReply(400, { ok: false, error: `${name} must be a whole number, ${min} or more` });
      }
    }
    const extra = body.extra_records;
    if (extra !== undefined) {
      const problem = isJsonObject(extra) ? extraRecordsProblem(extra) : 'extra_records takes an object of entity: count';
      if (problem) return jsonReply(400, { ok: false, error: problem });
    }
    for (const [name, set] of numbers) if (body[name] !== undefined) set(body[name] as number);
    if (isJsonObject(extra)) withExtraRecords(state.company, extra as Partial<Record<ExtraRecordEntity, number>>);
    return jsonReply(200, { ok: true, settings: settingsView(state), records: recordCounts(state) });
  }
  return jsonReply(404, { ok: false, error: `no sandbox control ${method} ${path}` });
}

const settingsView = (state: State) => ({
  latency_ms: state.settings.latencyMs,
  max_concurrent: state.settings.maxConcurrent,
  access_token_ttl: state.oauth.accessTokenTtl,
});

/** How many records the entities that can have extra ones hold now. */
const recordCounts = (state: State) =>
  Object.fromEntries(EXTRA_RECORD_ENTITIES.map((entity) => [entity, state.company.entities[entity].length]));

function extraRecordsProblem(extra: Readonly<Record<string, unknown>>): string | undefined {
  for (const [entity, count] of Object.entries(extra)) {
    if (!(EXTRA_RECORD_ENTITIES as readonly string[]).includes(entity)) {
      return `extra_records: ${entity} is not one of ${EXTRA_RECORD_ENTITIES.join(', ')}`;
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > MAX_EXTRA_RECORDS) {
      return `extra_records.${entity} must be a whole number from 0 to ${MAX_EXTRA_RECORDS}`;
    }
  }
  return undefined;
}

/** The records withExtraRecords added (so that a second call replaces them). */
const EXTRA = new WeakSet<Json>();
const NAME_FIELDS = ['DisplayName', 'FullyQualifiedName', 'Name', 'PrintOnCheckName', 'CompanyName', 'FileName'];

/**
 * Gives each entity named the seeded records and `count` more (replacing extra records added before): copies of the
 * seeded ones in turn, with the next ids, numbered names and a zero balance.
 */
function withExtraRecords(company: Company, extra: Partial<Record<ExtraRecordEntity, number>>): Company {
  for (const [entity, count] of Object.entries(extra) as Array<[ExtraRecordEntity, number]>) {
    const records = company.entities[entity as EntityName];
    const seeded = records.filter((record) => !EXTRA.has(record));
    const next = Math.max(...seeded.map((record) => Number(record.Id)));
    const added = Array.from({ length: count }, (_, i) => {
      const copy = structuredClone(seeded[i % seeded.length] as Json);
      const round = Math.floor(i / seeded.length) + 2;
      copy.Id = String(next + i + 1);
      for (const field of NAME_FIELDS) if (typeof copy[field] === 'string') copy[field] = `${copy[field]} #${round}`;
      for (const field of ['Balance', 'BalanceWithJobs']) if (field in copy) copy[field] = 0;
      EXTRA.add(copy);
      return copy;
    });
    company.entities[entity as EntityName] = [...seeded, ...added];
  }
  return company;
}
