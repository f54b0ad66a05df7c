import { GatewayError, type OAuth2Settings, Type, upstreamInspector } from '@portico/core/plugin';

// ---- regions ------------------------------------------------------------------------------------------------------------

/** Clio's regional hosts. A Clio account lives in one region, and its tokens only work on that region's host. */
export const REGION_HOSTS = {
  us: 'https://app.clio.com',
  eu: 'https://eu.app.clio.com',
  ca: 'https://ca.app.clio.com',
  au: 'https://au.app.clio.com',
} as const;
export type Region = keyof typeof REGION_HOSTS;
export const REGIONS = Object.keys(REGION_HOSTS) as Region[];

/** Every Clio Manage v4 path is below this prefix on the region's host. */
export const API_PATH = '/api/v4';

/**
 * The base URL of a connection: the connection fact `region` (`us`, the default, `eu`, `ca` or `au`) picks the host.
 * An unknown region is a 424 `not_connected` that says how to fix it, before any upstream call (a token sent to the
 * wrong region would only be refused). An operator may still point the integration elsewhere with the base URL
 * override (`PORTICO_CLIO_BASE_URL`); upstream paths are always below `/api/v4` and end in `.json`.
 */
export function baseUrlFor(connection: Readonly<Record<string, unknown>>): string {
  const region = connection.region ?? 'us';
  if (typeof region !== 'string' || !REGIONS.includes(region as Region)) {
    throw new GatewayError(
      'not_connected',
      `The Clio connection has region "${String(region).slice(0, 20)}"; it must be one of ${REGIONS.join(', ')}: connect again with --meta region=<us|eu|ca|au>`,
    );
  }
  return `${REGION_HOSTS[region as Region]}${API_PATH}`;
}

// ---- settings -----------------------------------------------------------------------------------------------------------

/**
 * The API minor version sent as `X-API-VERSION` on every request. 4.0.10 is the newest version Clio's saved document
 * lists (its default is 4.0.9); Clio answers 410 Gone to a version it does not support.
 */
export const DEFAULT_API_VERSION = '4.0.10';

export const settingsSchema = Type.Object({
  api_version: Type.String({
    pattern: '^4\\.0\\.(0|[1-9][0-9]{0,2})$',
    'x-portico-expects': 'a Clio Manage API v4 minor version such as 4.0.10',
    default: DEFAULT_API_VERSION,
    description:
      'Clio Manage API minor version, sent as X-API-VERSION with every request (4.0.<n>). Default 4.0.10, the version this plugin is written for; Clio answers 410 Gone to one it does not support.',
    examples: [DEFAULT_API_VERSION],
  }),
});

export function apiVersion(settings: Readonly<Record<string, unknown>>): string {
  const value = settings.api_version;
  return typeof value === 'string' && value !== '' ? value : DEFAULT_API_VERSION;
}

/** Headers sent with every request: the API version pin. */
export const versionHeaders = (settings: Readonly<Record<string, unknown>>) => ({ 'X-API-VERSION': apiVersion(settings) });

// ---- OAuth -------------------------------------------------------------------------------------------------------------

/**
 * Clio's OAuth 2.0 authorization code flow. Manage access tokens last 30 days (`expires_in` says so) and refresh tokens
 * do not expire and are reusable: a refresh answer normally carries no new refresh token, and core keeps the stored
 * one. Disconnecting deauthorizes the app at Clio. The authorize, token and deauthorize URLs are on the US host;
 * `region` (a connection fact, `--meta region=eu`) addresses the API of accounts in other regions.
 */
export const oauth2: OAuth2Settings = {
  authorizeUrl: 'https://app.clio.com/oauth/authorize',
  tokenUrl: 'https://app.clio.com/oauth/token',
  revokeUrl: 'https://app.clio.com/oauth/deauthorize',
  revokeStyle: 'bearer',
  clientAuth: 'body',
};

// ---- errors ------------------------------------------------------------------------------------------------------------

/**
 * Clio's error body is `{ "error": { "type": "…", "message": "…" } }`, read here as "type: message". The HTTP status
 * decides the gateway's code (400/422 → bad_request, 401/403 → upstream_unauthorized, 404/410 → not_found,
 * 409/412 → conflict, 429 → rate_limited with Clio's Retry-After passed on, 5xx → upstream_error).
 */
export const inspect = upstreamInspector({
  // Downloads answer 303 See Other with the file's address (src/operations/kit/downloads.ts): that is their success.
  failed: (response) =>
    !((response.status >= 200 && response.status < 300) || (response.status === 303 && Boolean(response.headers.location))),
  message: clioError,
  defaultMessages: {
    401: 'the Clio access token was not accepted (expired, revoked, or from another region)',
    303: 'Clio answered 303 See Other without the address of the file',
    404: 'not found',
    410: 'Clio does not support this API version (setting api_version) or the record is gone',
    429: 'Clio rate limit reached (per access token)',
  },
});

/** `{ error: { type, message } }` → "type: message" (undefined for any other body: core's generic reading follows). */
export function clioError(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, message } = error as { type?: unknown; message?: unknown };
  const t = typeof type === 'string' ? type.trim() : '';
  const m = typeof message === 'string' ? message.trim() : '';
  return t && m ? `${t}: ${m}` : m || t || undefined;
}
