import type Router from '@koa/router';
import {
  AUTHORIZATION_PATHS,
  AuthorizationError,
  AuthorizationServer,
  type Engine,
  GatewayError,
  type ResourcePath,
  supportedScopes,
} from '@portico/core';
import type { Context, Next } from 'koa';
import { readBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';

const FORM_LIMIT_BYTES = 16 * 1024;

/** The gateway's public URL: the issuer of the built-in authorization server and the base of its resources. */
const gatewayUrl = (engine: Engine, ctx: Context) => (engine.publicUrl ?? ctx.origin).replace(/\/+$/, '');

/** Which door a path belongs to, for its protected-resource metadata. */
function doorOf(path: string): ResourcePath {
  if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return '/api/mcp';
  if (path.startsWith('/api/v1/')) return '/api/v1';
  return '';
}

/**
 * What a 401 or 403 of the doors says in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1): where the protected-resource
 * metadata is, so that an OAuth client can discover the authorization server from the refusal alone; `invalid_token`
 * when a token was sent and refused; `insufficient_scope` when a known principal asked for more than it may. Synchronous
 * (called by the app's front middleware): sets `ctx.state.challenge` on a path of the doors.
 */
export function bearerChallenge(engine: Engine): (ctx: Context) => void {
  return (ctx) => {
    // not on webhook deliveries: they lack an application's signature, which no OAuth token stands for (routes/events.ts)
    if (ctx.path.startsWith('/api/') && !ctx.path.startsWith('/api/events/')) {
      (ctx.state as GatewayState).challenge = (code, scope) => {
        const metadata = AuthorizationServer.resourceMetadataUrl(gatewayUrl(engine, ctx), doorOf(ctx.path));
        if (code === 'unauthorized') {
          const invalid = ctx.get('authorization') ? ', error="invalid_token"' : '';
          // The scope a new authorization starts from: reading every service (a client asks for the supported scopes,
          // every write included, when the challenge names none); writing is a step-up, asked for when it is needed.
          const reads = supportedScopes(engine.authorization.services()).filter((s) => s.endsWith(':read'));
          return `Bearer realm="portico", resource_metadata="${metadata}", scope="${reads.join(' ')}"${invalid}`;
        }
        if (code === 'forbidden' && (ctx.state as Partial<GatewayState>).principal) {
          // with the scopes that would let the call through, for an OAuth token: the client can step up (RFC 6750 §3.1)
          const wanted = scope ? `, scope="${scope}"` : '';
          return `Bearer realm="portico", resource_metadata="${metadata}", error="insufficient_scope"${wanted}`;
        }
        return undefined;
      };
    }
  };
}

async function readForm(ctx: Context): Promise<Record<string, string>> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(ctx.get('content-type'))) {
    throw new AuthorizationError('invalid_request', 'Send the form as application/x-www-form-urlencoded');
  }
  const raw = await readBody(ctx.req, FORM_LIMIT_BYTES);
  const form: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) {
    if (Object.hasOwn(form, name)) throw new AuthorizationError('invalid_request', `${name} is repeated`);
    form[name] = value;
  }
  return form;
}

/**
 * The client id of HTTP Basic client credentials (RFC 6749 §2.3.1), put in the form: a client registered as public may
 * still authenticate as a confidential one would (hosted connectors do). The secret part is ignored, since no public
 * client has one; the id must agree with the form's when both are sent. Other schemes are ignored, as before.
 */
function withBasicClientId(ctx: Context, form: Record<string, string>): Record<string, string> {
  const match = /^Basic\s+(\S*)\s*$/i.exec(ctx.get('authorization'));
  if (!match) return form;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // each part is form-urlencoded before it is joined and encoded (RFC 6749 §2.3.1)
  const clientId = colon > 0 ? new URLSearchParams(`id=${decoded.slice(0, colon)}`).get('id') : null;
  if (!clientId) throw new AuthorizationError('invalid_client', 'The Authorization header holds no client id', 401);
  if (form.client_id !== undefined && form.client_id !== clientId) {
    throw new AuthorizationError('invalid_client', 'The client_id of the form differs from the Authorization header’s', 401);
  }
  form.client_id = clientId;
  return form;
}

/** Answers an OAuth endpoint's failure in OAuth's form (`{ error, error_description }`), which OAuth clients parse. */
async function oauthAnswer(ctx: Context, work: () => Promise<unknown>, status = 200): Promise<void> {
  ctx.set('cache-control', 'no-store');
  try {
    const body = await work();
    ctx.status = status;
    ctx.body = body ?? {};
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    ctx.status = error.status;
    ctx.body = error.body();
    // RFC 6749 §5.2: a client that authenticated with the Authorization header is told the scheme it failed
    if (error.status === 401) ctx.set('www-authenticate', 'Basic realm="portico"');
    if (error.status === 429) ctx.set('retry-after', String(error.retryAfter ?? 60));
  }
}

/** Metadata and the OAuth endpoints are for any client, browser-based ones (MCP Inspector) too. */
async function cors(ctx: Context, next: Next): Promise<void> {
  ctx.set('access-control-allow-origin', '*');
  ctx.set('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version');
  ctx.set('access-control-allow-methods', 'GET, POST, OPTIONS');
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  await next();
}

/**
 * The built-in authorization server's HTTP face: metadata (RFC 8414, RFC 9728), token exchange and refresh,
 * Dynamic Client Registration and revocation. The authorize endpoint is a dashboard page (routes/dashboard/consent.ts).
 */
export function mountAuthorization(router: Router<GatewayState>, engine: Engine): void {
  const server = engine.authorization;
  router.all('/.well-known/oauth-authorization-server', cors, async (ctx) => {
    if (ctx.method !== 'GET') throw new GatewayError('method_not_allowed', 'Use GET');
    ctx.body = server.metadata(gatewayUrl(engine, ctx));
  });
  for (const path of ['', '/api/mcp', '/api/v1'] as const) {
    router.all(`/.well-known/oauth-protected-resource${path}`, cors, async (ctx) => {
      if (ctx.method !== 'GET') throw new GatewayError('method_not_allowed', 'Use GET');
      ctx.body = server.resourceMetadata(gatewayUrl(engine, ctx), path);
    });
  }
  router.all(AUTHORIZATION_PATHS.token, cors, async (ctx) => {
    if (ctx.method !== 'POST') throw new GatewayError('method_not_allowed', 'Use POST');
    await oauthAnswer(ctx, async () => server.tokens.exchange(withBasicClientId(ctx, await readForm(ctx)), gatewayUrl(engine, ctx)));
  });
  router.all(AUTHORIZATION_PATHS.revoke, cors, async (ctx) => {
    if (ctx.method !== 'POST') throw new GatewayError('method_not_allowed', 'Use POST');
    await oauthAnswer(ctx, async () => {
      await server.tokens.revoke(withBasicClientId(ctx, await readForm(ctx)));
      return {};
    });
  });
  router.all(AUTHORIZATION_PATHS.register, cors, async (ctx) => {
    if (ctx.method !== 'POST') throw new GatewayError('method_not_allowed', 'Use POST');
    await oauthAnswer(
      ctx,
      async () => {
        if (!/^application\/json\b/i.test(ctx.get('content-type'))) {
          throw new AuthorizationError('invalid_client_metadata', 'Send the registration as application/json');
        }
        let body: unknown;
        try {
          body = JSON.parse((await readBody(ctx.req, FORM_LIMIT_BYTES)).toString('utf8'));
        } catch {
          throw new AuthorizationError('invalid_client_metadata', 'The registration is not valid JSON');
        }
        return server.clients.register(body, ctx.state.clientAddress ?? ctx.req.socket.remoteAddress ?? 'unknown');
      },
      201,
    );
  });
}
