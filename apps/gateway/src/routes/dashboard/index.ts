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
import type { Context, Next } from 'koa';
import { readBody } from '../../http/body.js';
import type { GatewayState } from '../../http/state.js';
import type { DashboardAssets } from './assets.js';
import { mountConnections } from './connections.js';
import { mountConsent } from './consent.js';
import { DASHBOARD_CSP } from './csp.js';
import { mountGrants } from './grants.js';
import { backTo, type Handler, mountPages, type PageRequest, validator } from './handlers.js';
import type { Html } from './html.js';
import { errorPage, type Notice, page, type Section, type SignInChoices, signInPage } from './layout.js';
import { type MemberSignIn, SignInRefused } from './member-sign-in.js';
import { mountMembers } from './members.js';
import { AttemptLimiter, csrfMatches, SessionStore } from './session.js';

export const DASHBOARD_PREFIX = '/dashboard';
const COOKIE = 'portico_session';
/** The browser-bound half of a sign-in with the identity provider in progress (member-sign-in.ts). */
const SIGN_IN_COOKIE = 'portico_sign_in';
/** Pages a member who is not an admin may open: their own accounts and connected clients, consent, sign-out. */
const MEMBER_PATHS =
  /^\/dashboard\/(authorize|grants(\/[a-z0-9_.-]{1,100}\/revoke)?|connections(\/[a-z0-9_.-]{1,100}\/(oauth|token|disconnect))?|sign-out)$/i;
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
 * Mounted as one middleware that returns at once for any other path, so that /api requests pay one string
 * comparison. Everything it changes goes through the engine and the store, as the admin API and the CLI do.
 */
export function dashboardMiddleware(options: DashboardOptions): (ctx: Context, next: Next) => Promise<void> {
  const { engine, assets } = options;
  const sessions = options.sessions ?? new SessionStore(engine.store.sessions);
  const limiter = options.signInLimiter ?? new AttemptLimiter();
  const routes: Array<{ method: 'GET' | 'POST'; pattern: RegExp; handler: Handler }> = [];
  const route = (method: 'GET' | 'POST', path: string, handler: Handler) =>
    routes.push({ method, pattern: new RegExp(`^${path.replace(/:\w+/g, '([a-z0-9_.-]{1,100})')}$`, 'i'), handler });

  const secure = (ctx: Context) => ctx.secure || Boolean(options.publicUrl?.startsWith('https:'));
  // SameSite=Lax: a signed-in person arriving from claude.ai or chatgpt.com (a top-level GET) reaches the consent page;
  // cross-site POSTs carry no cookie, and every POST is checked for its origin and CSRF token besides (docs/dashboard.md).
  const setCookie = (ctx: Context, name: string, value: string, maxAge?: number) =>
    ctx.append(
      'set-cookie',
      `${name}=${value}; Path=${DASHBOARD_PREFIX}; HttpOnly; SameSite=Lax${secure(ctx) ? '; Secure' : ''}${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`,
    );
  const cookie = (ctx: Context, value: string, maxAge?: number) => setCookie(ctx, COOKIE, value, maxAge);
  const cookieValue = (ctx: Context, name: string) => {
    const header = ctx.get('cookie');
    const match = new RegExp(`(?:^|;\\s*)${name}=([A-Za-z0-9_-]+)`).exec(header);
    return match?.[1];
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

  // The pages (handlers.ts) register their routes here.
  const kit = { engine, sessions, publicUrl: options.publicUrl, route, show, flash, redirect };
  mountPages(kit);
  // The authorize endpoint of the built-in OAuth server: a consent page of the dashboard (consent.ts).
  mountConsent(kit);
  mountGrants(kit);
  mountMembers(kit, memberSignIn?.options.name);
  mountConnections(kit);

  // ---- the middleware -------------------------------------------------------------------------------------------

  return async (ctx: Context, next: Next) => {
    const path = ctx.path;
    if (path !== DASHBOARD_PREFIX && !path.startsWith('/dashboard/')) return next();
    // The forms are checked by typebox validators, synchronously: the first page loads typebox's compiler.
    const compiling = compilerReady();
    if (compiling) await compiling;
    const state = ctx.state as GatewayState;
    ctx.set('content-security-policy', DASHBOARD_CSP);
    ctx.set('x-content-type-options', 'nosniff');
    ctx.set('x-frame-options', 'DENY');
    ctx.set('referrer-policy', 'same-origin');
    ctx.set('cross-origin-opener-policy', 'same-origin');
    ctx.set('cross-origin-resource-policy', 'same-origin');

    if (path.startsWith('/dashboard/assets/')) {
      const asset = assets.byName.get(path.slice('/dashboard/assets/'.length));
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
      return;
    }

    ctx.set('cache-control', 'no-store');
    try {
      if (!options.hostAllowed(ctx.get('host'))) {
        return send(
          ctx,
          403,
          errorPage(assets, 403, 'Host not allowed', 'This gateway does not answer under this host name (see PORTICO_ALLOWED_HOSTS).'),
        );
      }
      if (path === DASHBOARD_PREFIX || path === '/dashboard/') return redirect(ctx, '/dashboard/integrations');
      const nextOf = (value: unknown) =>
        typeof value === 'string' && value.startsWith('/dashboard/authorize?') && value.length <= 8192 ? value : undefined;

      if (path === '/dashboard/sign-in/provider' || path === '/dashboard/sign-in/callback') {
        if (ctx.method !== 'GET' || !memberSignIn)
          return send(ctx, 404, errorPage(assets, 404, 'Not found', 'There is no dashboard page here.'));
        if (path === '/dashboard/sign-in/provider') {
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
          return;
        }
        const address = ctx.state.clientAddress ?? ctx.req.socket.remoteAddress ?? 'unknown';
        const { wait, succeeded } = limiter.reserve(address);
        if (wait > 0) {
          ctx.set('retry-after', String(wait));
          return send(ctx, 429, signInPage(assets, { kind: 'error', text: `Too many sign-in attempts; try again in ${wait} seconds.` }));
        }
        setCookie(ctx, SIGN_IN_COOKIE, '', 0); // used once, whatever the outcome
        let signedIn: Awaited<ReturnType<MemberSignIn['complete']>>;
        try {
          signedIn = await memberSignIn.complete(new URL(redirectUri(ctx) + ctx.search), cookieValue(ctx, SIGN_IN_COOKIE));
        } catch (error) {
          if (!(error instanceof SignInRefused)) throw error;
          return send(ctx, 403, signInPage(assets, { kind: 'error', text: error.message }, undefined, await signInChoices(undefined)));
        }
        succeeded();
        await sessions.destroy(sessionId(ctx));
        const created = await sessions.create(signedIn.member.id, signedIn.member.workspaceId);
        state.principal = signedIn.principal;
        cookie(ctx, created.id);
        options.logger.info({ memberId: signedIn.member.id, workspaceId: signedIn.member.workspaceId }, 'member signed in');
        return redirect(ctx, signedIn.next ?? home(signedIn.principal));
      }

      if (path === '/dashboard/sign-in') {
        // An OAuth client's authorization request that met a signed-out browser resumes after the sign-in.
        if (ctx.method === 'GET') {
          const live = await sessions.get(sessionId(ctx));
          if (live)
            return redirect(
              ctx,
              nextOf(ctx.query.next) ?? (live.keyId.startsWith('mem_') ? '/dashboard/grants' : '/dashboard/integrations'),
            );
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
        const address = ctx.state.clientAddress ?? ctx.req.socket.remoteAddress ?? 'unknown'; // behind a trusted proxy: the client's
        // reserved before the key is checked: sign-ins sent at once are counted as they arrive, not after
        const { wait, succeeded } = limiter.reserve(address);
        if (wait > 0) {
          ctx.set('retry-after', String(wait));
          return send(ctx, 429, signInPage(assets, { kind: 'error', text: `Too many sign-in attempts; try again in ${wait} seconds.` }));
        }
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
        state.principal = principal;
        cookie(ctx, created.id);
        return redirect(ctx, next ?? '/dashboard/integrations');
      }

      const id = sessionId(ctx);
      const session = await sessions.get(id);
      if (!session) {
        if (path === '/dashboard/authorize' && ctx.method === 'GET') {
          return redirect(ctx, `/dashboard/sign-in?next=${encodeURIComponent(ctx.url)}`);
        }
        return redirect(ctx, id ? '/dashboard/sign-in?expired' : '/dashboard/sign-in');
      }
      // The key or member is read again on every request: a revoked, expired or demoted key, or a removed member,
      // ends the session at once.
      const signedIn = await signedInAs(engine, session.workspaceId, session.keyId);
      if (!signedIn) {
        await sessions.destroy(id);
        cookie(ctx, '', 0);
        return redirect(ctx, '/dashboard/sign-in?expired');
      }
      const { principal, name: keyName } = signedIn;
      state.principal = principal;
      if (!principal.scopes.admin && !MEMBER_PATHS.test(path)) {
        if (path === '/dashboard/integrations' && ctx.method === 'GET') return redirect(ctx, '/dashboard/grants');
        return send(ctx, 403, errorPage(assets, 403, 'Refused', 'This page is for the workspace’s admins.'));
      }

      let form: Record<string, string> = {};
      if (ctx.method === 'POST') {
        form = await readForm(ctx);
        if (!sameOrigin(ctx) || !csrfMatches(session, form._csrf)) {
          return send(
            ctx,
            403,
            errorPage(
              assets,
              403,
              'Refused',
              'This form is out of date or came from another site. Go back, reload the page and try again.',
            ),
          );
        }
        if (path === '/dashboard/sign-out') {
          await sessions.destroy(id);
          cookie(ctx, '', 0);
          return redirect(ctx, '/dashboard/sign-in?signed_out');
        }
      }

      for (const candidate of routes) {
        const match = candidate.pattern.exec(path);
        if (!match || candidate.method !== ctx.method) continue;
        const params = match.slice(1);
        if (params[0] && engine.registry.get(params[0])) state.service = params[0];
        try {
          await candidate.handler({ ctx, session, principal, keyName, form, params });
        } catch (error) {
          const failure = toGatewayError(error);
          if (failure.code === 'internal_error')
            options.logger.error({ requestId: state.requestId, err: error }, 'dashboard request failed');
          // A refused form goes back to its page with the reason; a page that cannot be shown gets an error page.
          if (ctx.method === 'POST' && failure.status < 500 && failure.code !== 'not_found') {
            sessions.flash(session, { kind: 'error', message: failure.message });
            return redirect(ctx, backTo(ctx, '/dashboard/integrations'));
          }
          return send(ctx, failure.status, errorPage(assets, failure.status, titleOf(failure.status), failure.message));
        }
        return;
      }
      return send(ctx, 404, errorPage(assets, 404, 'Not found', 'There is no dashboard page here.'));
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === 'internal_error') options.logger.error({ requestId: state.requestId, err: error }, 'dashboard request failed');
      return send(ctx, failure.status, errorPage(assets, failure.status, titleOf(failure.status), failure.message));
    }
  };
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
