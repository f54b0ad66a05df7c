import {
  GatewayError,
  IntegerString,
  type OAuth2Settings,
  type QueryValue,
  Type,
  type UpstreamFailure,
  type UpstreamRequest,
  type UpstreamResponse,
  upstreamInspector,
} from '@portico/core/plugin';

// ---- hosts and the company -------------------------------------------------------------------------------------------

export const PRODUCTION_HOST = 'https://quickbooks.api.intuit.com';
export const SANDBOX_HOST = 'https://sandbox-quickbooks.api.intuit.com';
export const ENVIRONMENTS = ['production', 'sandbox'] as const;
/** Intuit's OpenID Connect userinfo endpoint, for production companies and for Intuit's development (sandbox) ones. */
export const USERINFO_URL = 'https://accounts.platform.intuit.com/v1/openid_connect/userinfo';
export const SANDBOX_USERINFO_URL = 'https://sandbox-accounts.platform.intuit.com/v1/openid_connect/userinfo';
/** The hosts besides the company host the plugin sends to: Intuit's userinfo, with the connection's token. */
export const USERINFO_HOSTS = [new URL(USERINFO_URL).hostname, new URL(SANDBOX_USERINFO_URL).hostname];

/**
 * The company host of a connection: the fact `environment` (`production`, the default, or `sandbox`, for Intuit's
 * development companies). An operator may also point the integration elsewhere with the base URL override
 * (`PORTICO_QUICKBOOKS_BASE_URL`); the upstream paths always start with `/v3/company/<realm id>`.
 */
export function baseUrlFor(connection: Readonly<Record<string, unknown>>): string {
  return connection.environment === 'sandbox' ? SANDBOX_HOST : PRODUCTION_HOST;
}

/** QuickBooks realm (company) ids are decimal numbers. */
const REALM_ID = /^[0-9]{1,32}$/;

/**
 * `/v3/company/<realm id>` of the connection. The realm id is a connection fact (`realmId`, from Intuit's OAuth
 * redirect, or given with a pasted token: `portico connect quickbooks --token - --meta realmId=<id>`). Without one no
 * request can be addressed: a 424 `not_connected` that says how to fix it, before any upstream call.
 */
export function companyPath(connection: Readonly<Record<string, unknown>>): string {
  const environment = connection.environment;
  if (environment !== undefined && !ENVIRONMENTS.includes(environment as never)) {
    throw new GatewayError(
      'not_connected',
      `The QuickBooks connection has environment "${String(environment)}"; it must be production or sandbox: connect again with --meta environment=production (or sandbox)`,
    );
  }
  const raw = connection.realmId ?? connection.realm_id;
  const realm = typeof raw === 'number' ? String(raw) : raw;
  if (typeof realm !== 'string' || realm === '') {
    throw new GatewayError(
      'not_connected',
      'The QuickBooks connection has no company (realm) id: connect with OAuth (portico connect quickbooks --oauth), which keeps the realmId QuickBooks sends back, or give it with a pasted token (portico connect quickbooks --token - --meta realmId=<company id>)',
    );
  }
  if (!REALM_ID.test(realm)) {
    throw new GatewayError(
      'not_connected',
      `The QuickBooks connection's realm id "${realm.slice(0, 40)}" is not a QuickBooks company id (digits only): connect again with the right one`,
    );
  }
  return `/v3/company/${realm}`;
}

// ---- settings -----------------------------------------------------------------------------------------------------------

export const DEFAULT_MINOR_VERSION = '75';
export const DEFAULT_FETCH_ALL_MAX_ROWS = '10000';
export const DEFAULT_FETCH_ALL_BUDGET_SECONDS = '60';
export const PAGE_SIZE = 1000;

export const settingsSchema = Type.Object({
  minor_version: IntegerString({
    minimum: 1,
    maximum: 999,
    default: DEFAULT_MINOR_VERSION,
    description:
      'QuickBooks API minor version sent as minorversion with every request. Default 75, the version this plugin is written for; Intuit retired the older ones in 2025.',
    examples: ['75'],
  }),
  fetch_all_max_rows: IntegerString({
    minimum: PAGE_SIZE,
    maximum: 100_000,
    default: DEFAULT_FETCH_ALL_MAX_ROWS,
    description:
      'Most rows one find_* call with fetchAll=true may return (default 10000). A search that matches more is refused with a message asking for a narrower where, rather than cut short.',
    examples: ['10000'],
  }),
  fetch_all_budget_seconds: IntegerString({
    minimum: 1,
    maximum: 600,
    default: DEFAULT_FETCH_ALL_BUDGET_SECONDS,
    description:
      'Longest time one find_* call with fetchAll=true may spend reading pages (default 60 seconds). A search still paging then is refused with a message asking for a narrower where, rather than answered with part of the records; each page also has the gateway’s upstream timeout.',
    examples: ['60'],
  }),
});

function setting(settings: Readonly<Record<string, unknown>>, name: string, fallback: string): string {
  const value = settings[name];
  return typeof value === 'string' && value !== '' ? value : fallback;
}

export const minorVersion = (settings: Readonly<Record<string, unknown>>) => setting(settings, 'minor_version', DEFAULT_MINOR_VERSION);
export const fetchAllMaxRows = (settings: Readonly<Record<string, unknown>>) =>
  Number(setting(settings, 'fetch_all_max_rows', DEFAULT_FETCH_ALL_MAX_ROWS));
export const fetchAllBudgetMs = (settings: Readonly<Record<string, unknown>>) =>
  Number(setting(settings, 'fetch_all_budget_seconds', DEFAULT_FETCH_ALL_BUDGET_SECONDS)) * 1000;

/** A GET below the connection's company, with `minorversion` last. */
export function companyGet(
  connection: Readonly<Record<string, unknown>>,
  settings: Readonly<Record<string, unknown>>,
  path: string,
  query: Record<string, QueryValue | undefined> = {},
): UpstreamRequest {
  return { method: 'GET', path: `${companyPath(connection)}${path}`, query: { ...query, minorversion: minorVersion(settings) } };
}

// ---- OAuth ---------------------------------------------------------------------------------------------------------------

/**
 * Intuit OAuth 2.0 (authorization code). The redirect carries `realmId`, the company the user picked; it is kept as a
 * connection fact and addresses every request. Access tokens last an hour and refresh tokens rotate: core refreshes
 * five minutes before expiry and stores the newest refresh token before using the new access token.
 */
export const oauth2: OAuth2Settings = {
  authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
  tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
  revokeUrl: 'https://developer.api.intuit.com/v2/oauth2/tokens/revoke',
  // openid, email and profile: Intuit's userinfo names the person who connected (identify.ts)
  scopes: ['com.intuit.quickbooks.accounting', 'openid', 'email', 'profile'],
  clientAuth: 'basic',
  connectionFacts: (callback) => {
    const realm = callback.realmId;
    return realm && REALM_ID.test(realm) ? { realmId: realm } : {};
  },
};

// ---- faults ----------------------------------------------------------------------------------------------------------

interface FaultError {
  message?: string;
  detail?: string;
  code?: string;
}

interface Fault {
  type: string;
  errors: FaultError[];
}

/**
 * QuickBooks' error body: `{"Fault":{"Error":[{"Message","Detail","code"}],"type":"ValidationFault"},"time":…}`; some
 * answers (the authentication layer's) write the same in lower case: `{"fault":{"error":[{"message","detail","code"}],
 * "type":"AUTHENTICATION"}}`.
 */
export function readFault(body: unknown): Fault | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const fault = (b.Fault ?? b.fault) as Record<string, unknown> | undefined;
  if (typeof fault !== 'object' || fault === null) return undefined;
  const list = fault.Error ?? fault.error;
  const errors = (Array.isArray(list) ? list : list ? [list] : []).map((item) => {
    const e = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const text = (key: string) => {
      const value = e[key] ?? e[key.toLowerCase()];
      return typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim() : undefined;
    };
    const code = e.code ?? e.Code;
    return {
      message: text('Message'),
      detail: text('Detail'),
      code: typeof code === 'string' || typeof code === 'number' ? String(code) : undefined,
    };
  });
  const type = fault.type ?? fault.Type;
  return { type: typeof type === 'string' ? type : '', errors };
}

/** "Object Not Found" — QuickBooks answers it with HTTP 400 and a ValidationFault. */
const OBJECT_NOT_FOUND = '610';
/** Intuit asks callers to wait a minute after a 429 when it sends no Retry-After. */
export const THROTTLE_WAIT_SECONDS = 60;

function faultStatus(response: UpstreamResponse): number {
  const fault = readFault(response.body);
  if (!fault) return response.status;
  if (fault.errors.some((e) => e.code === OBJECT_NOT_FOUND)) return 404;
  const type = fault.type.toLowerCase();
  if (type.startsWith('authentication')) return 401;
  if (type.startsWith('authorization')) return 403;
  if (response.status >= 200 && response.status < 300) {
    if (type.startsWith('validation')) return 400;
    if (type.startsWith('throttl')) return 429;
    return 500;
  }
  return response.status;
}

function faultMessage(body: unknown): string | undefined {
  const fault = readFault(body);
  if (!fault || fault.errors.length === 0) return undefined;
  const parts = fault.errors.map((e) => {
    const head = e.message ?? e.detail ?? '';
    const detail = e.detail && e.detail !== e.message ? `: ${e.detail}` : '';
    const code = e.code ? ` (code ${e.code})` : '';
    return `${e.message ? head + detail : head}${code}`.trim();
  });
  const text = parts.filter(Boolean).join('; ');
  return text ? `${fault.type ? `${fault.type}: ` : ''}${text}` : undefined;
}

/** Access tokens (JWTs, eyJ…) and refresh tokens (AB11…) never appear in an error text, even if echoed back. */
function redact(text: string): string {
  return text.replace(/\beyJ[A-Za-z0-9._-]{10,}/g, '[redacted]').replace(/\bAB11[A-Za-z0-9._-]{16,}/g, '[redacted]');
}

const read = upstreamInspector({
  message: (body) => faultMessage(body),
  redact,
  // A Fault inside a 2xx answer is a failure too.
  failed: (response) => response.status < 200 || response.status >= 300 || readFault(response.body) !== undefined,
  status: faultStatus,
  defaultMessages: {
    401: 'the access token was not accepted',
    403: 'this connection may not use that company or feature',
    404: 'not found',
    429: 'too many requests for this company (QuickBooks allows 500 a minute and 10 at a time)',
  },
});

/**
 * Reads a QuickBooks answer for core's error table: ValidationFault → 400 (bad_request) with QuickBooks' message and
 * detail; object not found (code 610) → 404; authentication and authorization faults → 401/403 (upstream_unauthorized);
 * 429 → rate_limited with Retry-After (Intuit's one minute when it sends none); 5xx → upstream_error.
 */
export function inspect(response: UpstreamResponse): UpstreamFailure | undefined {
  const failure = read(response);
  if (failure?.status === 429 && failure.retryAfter === undefined) return { ...failure, retryAfter: THROTTLE_WAIT_SECONDS };
  return failure;
}
