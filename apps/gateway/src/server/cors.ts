import type { Context } from 'koa';

/**
 * Cross-origin access to the two doors for the origins the operator lists (PORTICO_CORS_ORIGINS), so that a web page
 * there (a browser-based MCP client, a web app calling the REST door) can call the gateway with a bearer token. Exact
 * origins only, no wildcard, no credentials mode: the doors take no cookie, so the browser has nothing ambient to add.
 * The admin API and the dashboard get none; the OAuth endpoints and metadata answer any origin already
 * (routes/authorization.ts).
 */

const DOORS = {
  mcp: {
    methods: 'POST, GET, DELETE, OPTIONS',
    headers: 'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
    expose: 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
  },
  rest: {
    methods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    headers: 'authorization, content-type, idempotency-key',
    expose: 'WWW-Authenticate, Retry-After',
  },
} as const;

/** How long a browser may keep a preflight's answer, seconds. */
const MAX_AGE = '600';

/** The door a path belongs to, if any. */
export function corsDoor(path: string): keyof typeof DOORS | undefined {
  if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return 'mcp';
  if (path.startsWith('/api/v1/')) return 'rest';
  return undefined;
}

/** PORTICO_CORS_ORIGINS: comma-separated `scheme://host[:port]`, each exactly as a browser sends it in `Origin`. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(
        `"${origin}" is not an origin: write it as the browser sends it, https://app.example.com (no path, no slash at the end, no *)`,
      );
    }
  }
  return origins;
}

/**
 * Sets the CORS headers of a door's answer for a listed origin (`Vary: Origin` on every door answer once any origin is
 * listed, since the answer then depends on it). Answers whether the request is a preflight to answer with 204.
 * Synchronous, called by the app's front middleware.
 */
export function doorCors(origins: readonly string[]): (ctx: Context) => boolean {
  const listed = new Set(origins);
  return (ctx) => {
    if (listed.size === 0) return false;
    const door = corsDoor(ctx.path);
    if (!door) return false;
    ctx.vary('origin');
    const origin = ctx.get('origin');
    if (!listed.has(origin)) return false;
    const policy = DOORS[door];
    ctx.set('access-control-allow-origin', origin);
    if (ctx.method !== 'OPTIONS') {
      ctx.set('access-control-expose-headers', policy.expose);
      return false;
    }
    ctx.set('access-control-allow-methods', policy.methods);
    ctx.set('access-control-allow-headers', policy.headers);
    ctx.set('access-control-max-age', MAX_AGE);
    return true;
  };
}

/** Whether a request comes from a listed origin to a door: the Host check then lets its foreign `Origin` through. */
export function listedDoorOrigin(origins: readonly string[]): (ctx: Context) => boolean {
  const listed = new Set(origins);
  return (ctx) => listed.size > 0 && corsDoor(ctx.path) !== undefined && listed.has(ctx.get('origin'));
}
