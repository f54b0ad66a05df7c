import Router, { type RouterContext } from '@koa/router';
import {
  compilerReady,
  type Engine,
  GatewayError,
  type Logger,
  memberPrincipal,
  Params,
  type Principal,
  Type,
  toGatewayError,
} from '@portico/core';
import Cookies from 'cookies';
import type { Context, Next } from 'koa';
import { readBody } from '../../http/body.js';
import type { GatewayState } from '../../http/state.js';
import type { DashboardAssets } from './assets.js';
import { mountConnections } from './connections.js';
import { mountConsent } from './consent.js';
import { DASHBOARD_CSP } from './csp.js';
import { mountEvents } from './events.js';
import { mountGrants } from './grants.js';
import { backTo, type Handler, mountPages, type PageRequest, type RouteOptions, validator } from './handlers.js';
import type { Html } from './html.js';
import { errorPage, type Notice, page, type Section, type SignInChoices, signInPage } from './layout.js';
import { type MemberSignIn, SignInRefused } from './member-sign-in.js';
import { mountMembers } from './members.js';
import { AttemptLimiter, csrfMatches, SessionStore } from './session.js';
import { mountSubscriptions } from './subscriptions.js';

export const DASHBOARD_PREFIX = '/dashboard';
const COOKIE = 'portico_session';
/** The browser-bound half of a sign-in with the identity provider in progress (member-sign-in.ts). */
const SIGN_IN_COOKIE = 'portico_sign_in';
/** A path parameter of a page (a service, key, member, grant or operation name); any other value is no page (404). */
const PARAM = /^[a-z0-9_.-]{1,100}$/i;
/** What the dashboard's own cookies hold (a session id; the sign-in cookie's base64url): any other value is no cookie. */
const COOKIE_VALUE = /^[A-Za-z0-9_-]{1,4096}$/;
const FORM_LIMIT_BYTES = 64 * 1024;

export { DASHBOARD_CSP } from './csp.js';

export interface DashboardOptions {
  engine: Engine;
  logger: Logger;
  assets: DashboardAssets;
  /** Host names accepted in Host/Origin (as for /api); '*' accepts any. */
  hostAllowed: (host: string) => boolean;
  publicUrl?: string | undefined;
  sessions?: SessionStore;
  signInLimiter?: AttemptLimiter;
  /** Members sign in with the firm's identity provider (PORTICO_OIDC_*); absent: admin keys only. */
  memberSignIn?: MemberSignIn | undefined;
}

const SignIn = Params({ key: Type.String({ minLength: 1, maxLength: 400 }) });
const signInForm = validator(SignIn);

/**
 * The dashboard: server-rendered pages under /dashboard, plain forms (POST → redirect → GET), one session cookie.
 * Mounted as one middleware that returns at once for any other path, so that /api requests pay a look at one
 * character. Everything it changes goes through the engine and the store, as the admin API and the CLI do.
 *
 * Its pages are routes of one @koa/router router, each declaring who may open it (`route(…, { members: true })`):
 * the guard runs as part of the route the path matched, so the page and its guard are one match. The router keeps
 * its defaults, case-insensitive with an optional trailing slash (the dashboard's paths have always been
 * case-insensitive): every spelling of a page (`/DASHBOARD/KEYS`, `/dashboard/keys/`) reaches that page's route and
 * guard, and a path no route matches is refused as an admin page is (docs/dashboard.md, "Pages and guards").
 */
export function dashboardMiddleware(options: DashboardOptions): (ctx: Context, next: Next) => Promise<void> {
  const { engine, assets } = options;
  const sessions = options.sessions ?? new SessionStore(engine.store.sessions);
  const limiter = options.signInLimiter ?? new AttemptLimiter(engine.attempts);
  const router = new Router<GatewayState>();
  type Ctx = RouterContext<GatewayState>;

  /**
   * Is the browser's connection https? The request's own protocol, or an https public URL: behind a proxy that
   * terminates TLS the gateway sees plain HTTP (it trusts no X-Forwarded-Proto, app.proxy is off), yet the browser
   * is on https. `cookies` refuses a `secure: true` cookie on a connection it does not take for secure, so the
   * dashboard's `ctx.cookies` is made with this answer as its `secure` option (the one `cookies` documents for this).
   */
  const secure = (ctx: Context) => ctx.secure || Boolean(options.publicUrl?.startsWith('https:'));
  // SameSite=Lax: a signed-in person arriving from claude.ai or chatgpt.com (a top-level GET) reaches the consent page;
  // cross-site POSTs carry no cookie, and every POST is checked for its origin and CSRF token besides (docs/dashboard.md).
  const setCookie = (ctx: Context, name: string, value: string, maxAgeSeconds?: number) =>
    ctx.cookies.set(name, value || null, {
      path: DASHBOARD_PREFIX,
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(ctx),
      ...(maxAgeSeconds ? { maxAge: maxAgeSeconds * 1000 } : {}), // no value: expired at once
    });
  const cookie = (ctx: Context, value: string, maxAgeSeconds?: number) => setCookie(ctx, COOKIE, value, maxAgeSeconds);
  const cookieValue = (ctx: Context, name: string) => {
    const value = ctx.cookies.get(name);
    return value && COOKIE_VALUE.test(value) ? value : undefined;
  };
  const sessionId = (ctx: Context) => cookieValue(ctx, COOKIE);
  const memberSignIn = options.memberSignIn;
  /** Where a sign-in lands: an admin on the integrations, a member on their own connected clients. */
  const home = (principal: Principal) => (principal.scopes.admin ? '/dashboard/integrations' : '/dashboard/grants');
  /** The client an authorization request waiting for a sign-in names: its claimed name, or its document's host. */
  const waitingClient = async (next: string | undefined): Promise<string | undefined> => {
    if (!next) return undefined;
    const clientId = new URLSearchParams(next.slice(next.indexOf('?') + 1)).get('client_id');
    if (!clientId || clientId.length > 2000) return undefined;
    if (/^https:\/\//.test(clientId)) {
      try {
        return `the client published by ${new URL(clientId).host}`;
      } catch {
        return undefined;
      }
    }
    return (await engine.authorization.clients.find(clientId))?.name;
  };
  const signInChoices = async (next: string | undefined): Promise<SignInChoices> => ({
    provider: memberSignIn?.options.name,
    waiting: await waitingClient(next),
  });
  const redirectUri = (ctx: Context) =>
    `${(options.publicUrl ?? engine.publicUrl ?? `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '')}/dashboard/sign-in/callback`;
  const send = (ctx: Context, status: number, body: string) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  };
  const notFound = (ctx: Context) => send(ctx, 404, errorPage(assets, 404, 'Not found', 'There is no dashboard page here.'));
  /** 303 See Other: the browser follows with a GET (POST → redirect → GET). `to` is always a path of the dashboard. */
  const redirect = (ctx: Context, to: string) => {
    ctx.redirect(to);
    ctx.status = 303;
  };
  const show = (r: PageRequest, section: Section, title: string, content: Html, notice?: Notice) =>
    send(
      r.ctx,
      200,
      page(
        {
          assets,
          session: r.session,
          keyName: r.keyName,
          section,
          notice: notice ?? sessions.takeFlash(r.session),
          admin: r.principal.scopes.admin,
          member: Boolean(r.principal.memberId),
        },
        title,
        content,
      ),
    );
  const flash = (r: PageRequest, kind: 'ok' | 'error', message: string) => sessions.flash(r.session, { kind, message });

  /** Is this POST from a page of this gateway? The Origin (or Sec-Fetch-Site) must say so when the browser sends it. */
  const sameOrigin = (ctx: Context) => {
    const origin = ctx.get('origin');
    if (origin) {
      const own = [`${ctx.protocol}://${ctx.host}`.toLowerCase(), options.publicUrl ? new URL(options.publicUrl).origin.toLowerCase() : ''];
      return own.includes(origin.toLowerCase());
    }
    const site = ctx.get('sec-fetch-site');
    return !site || site === 'same-origin' || site === 'none';
  };

  const readForm = async (ctx: Context): Promise<Record<string, string>> => {
    const type = ctx.get('content-type');
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      throw new GatewayError('bad_request', 'Send the form as application/x-www-form-urlencoded');
    const raw = await readBody(ctx.req, FORM_LIMIT_BYTES);
    // a map without a prototype: a field named __proto__ or constructor is only a field
    const form: Record<string, string> = Object.create(null);
    let fields = 0;
    for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) {
      if (Object.hasOwn(form, name) || ++fields > 200)
        throw new GatewayError('bad_request', 'Each form field may be given once, 200 at most');
      form[name] = value;
    }
    return form;
  };
  const nextOf = (value: unknown) =>
    typeof value === 'string' && value.startsWith('/dashboard/authorize?') && value.length <= 8192 ? value : undefined;

  /** What runs before every page but the assets: no caching, and the Host check. False: refused, answered. */
  const before = (ctx: Context): boolean => {
    ctx.set('cache-control', 'no-store');
    if (options.hostAllowed(ctx.get('host'))) return true;
    send(
      ctx,
      403,
      errorPage(assets, 403, 'Host not allowed', 'This gateway does not answer under this host name (see PORTICO_ALLOWED_HOSTS).'),
    );
    return false;
  };

  /**
   * The guard of a signed-in page, as its route declares it: the session, the key or member read again, whether a
   * member may open it, and for a POST the form's origin and CSRF token. Answers (and returns undefined) when refused.
   * `canonical` is the route's own path, which a signed-out browser's authorization request comes back to.
   */
  const guard = async (ctx: Context, access: RouteOptions, canonical?: string): Promise<Omit<PageRequest, 'params'> | undefined> => {
    const id = sessionId(ctx);
    const session = await sessions.get(id);
    if (!session) {
      if (access.resumeAfterSignIn && canonical && ctx.method === 'GET')
        redirect(ctx, `/dashboard/sign-in?next=${encodeURIComponent(canonical + ctx.search)}`);
      else redirect(ctx, id ? '/dashboard/sign-in?expired' : '/dashboard/sign-in');
      return undefined;
    }
    // The key or member is read again on every request: a revoked, expired or demoted key, or a removed member,
    // ends the session at once.
    const signedIn = await signedInAs(engine, session.workspaceId, session.keyId);
    if (!signedIn) {
      await sessions.destroy(id);
      cookie(ctx, '');
      redirect(ctx, '/dashboard/sign-in?expired');
      return undefined;
    }
    const { principal, name: keyName } = signedIn;
    (ctx.state as GatewayState).principal = principal;
    if (!principal.scopes.admin && !access.members) {
      if (access.membersGoTo && ctx.method === 'GET') redirect(ctx, access.membersGoTo);
      else send(ctx, 403, errorPage(assets, 403, 'Refused', 'This page is for the workspace’s admins.'));
      return undefined;
    }
    let form: Record<string, string> = {};
    if (ctx.method === 'POST') {
      form = await readForm(ctx);
      if (!sameOrigin(ctx) || !csrfMatches(session, form._csrf)) {
        const text = 'This form is out of date or came from another site. Go back, reload the page and try again.';
        send(ctx, 403, errorPage(assets, 403, 'Refused', text));
        return undefined;
      }
    }
    return { ctx, session, principal, keyName, form };
  };

  /** A page of the signed-in dashboard: before, its guard, its parameters checked, then its handler. */
  const route = (method: 'GET' | 'POST', path: string, handler: Handler, access: RouteOptions = {}) => {
    router.register(path, [method], async (ctx: Ctx) => {
      if (!before(ctx)) return;
      const request = await guard(ctx, access, ctx.routerPath);
      if (!request) return;
      const params: Record<string, string> = { ...ctx.params };
      if (!Object.values(params).every((value) => PARAM.test(value))) return notFound(ctx);
      const service = params.service;
      if (service && engine.registry.get(service)) (ctx.state as GatewayState).service = service;
      try {
        await handler({ ...request, params });
      } catch (error) {
        const failure = toGatewayError(error);
        if (failure.code === 'internal_error')
          options.logger.error({ requestId: ctx.state.requestId, err: error }, 'dashboard request failed');
        // A refused form goes back to its page with the reason; a page that cannot be shown gets an error page.
        if (ctx.method === 'POST' && failure.status < 500 && failure.code !== 'not_found') {
          sessions.flash(request.session, { kind: 'error', message: failure.message });
          return redirect(ctx, backTo(ctx, '/dashboard/integrations'));
        }
        return send(ctx, failure.status, errorPage(assets, failure.status, titleOf(failure.status), failure.message));
      }
    });
  };

  /**
   * Counts a sign-in against its client address (behind a trusted proxy: the client's), before anything is checked.
   * Answers it instead, and gives undefined, when the address is over the limit (429) or when the count cannot be asked
   * (503: a worker cut off from its primary refuses rather than counts alone, docs/adr/0037-limits-per-instance.md).
   */
  const reserveSignIn = async (ctx: Ctx): Promise<(() => void) | undefined> => {
    const address = ctx.state.clientAddress ?? ctx.req.socket.remoteAddress ?? 'unknown';
    let reserved: { wait: number; succeeded: () => void };
    try {
      reserved = await limiter.reserve(address);
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === 'internal_error') options.logger.error({ err: error }, 'the sign-in limit could not be counted');
      ctx.set('retry-after', String(failure.retryAfter ?? 1));
      send(ctx, 503, signInPage(assets, { kind: 'error', text: 'Sign-in is unavailable for a moment; try again in a few seconds.' }));
      return undefined;
    }
    if (reserved.wait > 0) {
      ctx.set('retry-after', String(reserved.wait));
      const text = `Too many sign-in attempts; try again in ${reserved.wait} seconds.`;
      send(ctx, 429, signInPage(assets, { kind: 'error', text }));
      return undefined;
    }
    return reserved.succeeded;
  };

  // ---- the routes before a session: assets, the dashboard's root, the sign-in paths ------------------------------

  router.all('/dashboard/assets/:name', (ctx: Ctx) => {
    const asset = assets.byName.get(ctx.params.name as string);
    if (!asset || (ctx.method !== 'GET' && ctx.method !== 'HEAD'))
      return send(ctx, 404, errorPage(assets, 404, 'Not found', 'No such file.'));
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.set('etag', `"${asset.name}"`);
    ctx.set('vary', 'accept-encoding');
    ctx.type = asset.type;
    if (ctx.get('if-none-match') === `"${asset.name}"`) {
      ctx.status = 304;
      return;
    }
    const gzip = /\bgzip\b/.test(ctx.get('accept-encoding'));
    if (gzip) ctx.set('content-encoding', 'gzip');
    ctx.body = gzip ? asset.gzip : asset.body;
  });

  router.all(DASHBOARD_PREFIX, (ctx: Ctx) => {
    if (before(ctx)) redirect(ctx, '/dashboard/integrations');
  });

  router.all('/dashboard/sign-in/provider', async (ctx: Ctx) => {
    if (!before(ctx)) return;
    if (ctx.method !== 'GET' || !memberSignIn) return notFound(ctx);
    const next = nextOf(ctx.query.next);
    let start: Awaited<ReturnType<MemberSignIn['begin']>>;
    try {
      start = await memberSignIn.begin(redirectUri(ctx), next);
    } catch (error) {
      options.logger.error({ err: error }, 'the identity provider could not be reached for a sign-in');
      const text = `${memberSignIn.options.name} cannot be reached right now; try again in a minute.`;
      return send(ctx, 502, signInPage(assets, { kind: 'error', text }, next, await signInChoices(next)));
    }
    setCookie(ctx, SIGN_IN_COOKIE, start.cookie, 600);
    ctx.redirect(start.url);
    ctx.status = 303;
  });

  router.all('/dashboard/sign-in/callback', async (ctx: Ctx) => {
    if (!before(ctx)) return;
    if (ctx.method !== 'GET' || !memberSignIn) return notFound(ctx);
    const succeeded = await reserveSignIn(ctx);
    if (!succeeded) return;
    const pending = cookieValue(ctx, SIGN_IN_COOKIE);
    setCookie(ctx, SIGN_IN_COOKIE, ''); // used once, whatever the outcome
    let signedIn: Awaited<ReturnType<MemberSignIn['complete']>>;
    try {
      signedIn = await memberSignIn.complete(new URL(redirectUri(ctx) + ctx.search), pending);
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      return send(ctx, 403, signInPage(assets, { kind: 'error', text: error.message }, undefined, await signInChoices(undefined)));
    }
    succeeded();
    await sessions.destroy(sessionId(ctx));
    const created = await sessions.create(signedIn.member.id, signedIn.member.workspaceId);
    ctx.state.principal = signedIn.principal;
    cookie(ctx, created.id);
    options.logger.info({ memberId: signedIn.member.id, workspaceId: signedIn.member.workspaceId }, 'member signed in');
    return redirect(ctx, signedIn.next ?? home(signedIn.principal));
  });

  router.all('/dashboard/sign-in', async (ctx: Ctx) => {
    if (!before(ctx)) return;
    // An OAuth client's authorization request that met a signed-out browser resumes after the sign-in.
    if (ctx.method === 'GET') {
      const live = await sessions.get(sessionId(ctx));
      if (live)
        return redirect(ctx, nextOf(ctx.query.next) ?? (live.keyId.startsWith('mem_') ? '/dashboard/grants' : '/dashboard/integrations'));
      const signedOut = ctx.query.signed_out !== undefined;
      const expired = ctx.query.expired !== undefined;
      return send(
        ctx,
        200,
        signInPage(
          assets,
          signedOut
            ? { kind: 'ok', text: 'You are signed out.' }
            : expired
              ? { kind: 'error', text: 'Your session ended; sign in again.' }
              : undefined,
          nextOf(ctx.query.next),
          await signInChoices(nextOf(ctx.query.next)),
        ),
      );
    }
    if (ctx.method !== 'POST') return send(ctx, 405, errorPage(assets, 405, 'Method not allowed', 'Use the sign-in form.'));
    if (!sameOrigin(ctx)) return send(ctx, 403, errorPage(assets, 403, 'Refused', 'The sign-in form was sent from another site.'));
    // reserved before the key is checked: sign-ins sent at once are counted as they arrive, not after
    const succeeded = await reserveSignIn(ctx);
    if (!succeeded) return;
    let principal: Principal | undefined;
    let next: string | undefined;
    try {
      const submitted = await readForm(ctx);
      next = nextOf(submitted.next);
      const { key } = signInForm(submitted);
      principal = await engine.authenticate(key.trim());
    } catch (error) {
      if (toGatewayError(error).code !== 'unauthorized' && toGatewayError(error).code !== 'bad_request') throw error;
    }
    if (!principal?.keyId) {
      return send(ctx, 401, signInPage(assets, { kind: 'error', text: 'This key is not valid.' }, next, await signInChoices(next)));
    }
    if (!principal.scopes.admin) {
      const text = memberSignIn
        ? `This key is not an admin key. Members sign in with ${memberSignIn.options.name}.`
        : 'This key is not an admin key.';
      return send(ctx, 403, signInPage(assets, { kind: 'error', text }, next, await signInChoices(next)));
    }
    succeeded();
    await sessions.destroy(sessionId(ctx));
    const created = await sessions.create(principal.keyId, principal.workspaceId);
    ctx.state.principal = principal;
    cookie(ctx, created.id);
    return redirect(ctx, next ?? '/dashboard/integrations');
  });

  // ---- the signed-in pages ----------------------------------------------------------------------------------------

  route(
    'POST',
    '/dashboard/sign-out',
    async (r) => {
      await sessions.destroy(sessionId(r.ctx));
      cookie(r.ctx, '');
      redirect(r.ctx, '/dashboard/sign-in?signed_out');
    },
    { members: true },
  );
  // The pages (handlers.ts) register their routes here.
  const kit = { engine, sessions, publicUrl: options.publicUrl, route, show, flash, redirect };
  mountPages(kit);
  // The authorize endpoint of the built-in OAuth server: a consent page of the dashboard (consent.ts).
  mountConsent(kit);
  mountGrants(kit);
  mountMembers(kit, memberSignIn?.options.name);
  mountConnections(kit);
  mountEvents(kit);
  mountSubscriptions(kit);

  /** A path under /dashboard that no route matches: guarded as an admin page, then no page (404). */
  const noRoute = async (ctx: Context) => {
    if (!before(ctx)) return;
    if (await guard(ctx, {})) notFound(ctx);
  };
  const dispatch = router.routes();

  // ---- the middleware -------------------------------------------------------------------------------------------

  return async (ctx: Context, next: Next) => {
    if (!underDashboard(ctx.path)) return next();
    // The forms are checked by typebox validators, synchronously: the first page loads typebox's compiler.
    const compiling = compilerReady();
    if (compiling) await compiling;
    ctx.set('content-security-policy', DASHBOARD_CSP);
    ctx.set('x-content-type-options', 'nosniff');
    ctx.set('x-frame-options', 'DENY');
    ctx.set('referrer-policy', 'same-origin');
    ctx.set('cross-origin-opener-policy', 'same-origin');
    ctx.set('cross-origin-resource-policy', 'same-origin');
    // Unsigned (the session id is a random secret, only its hash is stored), and `secure` decided as above.
    ctx.cookies = new Cookies(ctx.req, ctx.res, { secure: secure(ctx) });
    try {
      await dispatch(ctx as Ctx, () => noRoute(ctx));
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === 'internal_error')
        options.logger.error({ requestId: (ctx.state as GatewayState).requestId, err: error }, 'dashboard request failed');
      return send(ctx, failure.status, errorPage(assets, failure.status, titleOf(failure.status), failure.message));
    }
  };
}

/**
 * Is this path the dashboard's, in any letter case (the router's is case-insensitive, so is the question whose path
 * it is)? An /api path is told apart by its second character, without a copy of the path.
 */
function underDashboard(path: string): boolean {
  if ((path.charCodeAt(1) | 0x20) !== 0x64) return false; // neither 'd' nor 'D'
  const head = path.slice(0, DASHBOARD_PREFIX.length + 1).toLowerCase();
  return head === DASHBOARD_PREFIX || head === `${DASHBOARD_PREFIX}/`;
}

/** Who a session is signed in as, read again: an admin key still valid, or a member still in the workspace. */
async function signedInAs(engine: Engine, workspaceId: string, id: string): Promise<{ principal: Principal; name: string } | undefined> {
  if (id.startsWith('mem_')) {
    const member = await engine.store.members.get(workspaceId, id);
    return member ? { principal: memberPrincipal(member), name: member.name ?? member.email } : undefined;
  }
  const record = await engine.store.getApiKey(workspaceId, id);
  if (!record || record.revokedAt || (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) || !record.scopes.admin) {
    return undefined;
  }
  return { principal: { keyId: record.id, workspaceId: record.workspaceId, scopes: record.scopes, via: 'key' }, name: record.name };
}

const titleOf = (status: number) =>
  status === 404
    ? 'Not found'
    : status === 403
      ? 'Refused'
      : status === 400
        ? 'Not valid'
        : status >= 500
          ? 'Something went wrong'
          : 'Not possible';
