import {
  assertKeyWithin,
  assertMayChangeService,
  buildOpenApiDocument,
  compileParams,
  type Engine,
  GatewayError,
  Params,
  type Principal,
  problemList,
  type Static,
  scopesWithin,
  type TObject,
  Type,
  toGatewayError,
  widerThan,
} from '@portico/core';
import type { Context } from 'koa';
import { activityPage, buckets, type Range } from './activity.js';
import type { Html } from './html.js';
import type { Notice, Section } from './layout.js';
import { describeOperation, exampleValues, formParams, operationPage, operationsPage, type TryResult } from './operations.js';
import { configurePage, type IntegrationView, integrationsPage, keysPage, oauthHandOff } from './pages.js';
import type { DashboardSession, SessionStore } from './session.js';

/** A signed-in request as a page's handler gets it: the session, its key, the form (POST) and the path's parameters. */
export interface PageRequest {
  ctx: Context;
  session: DashboardSession;
  principal: Principal;
  keyName: string;
  form: Record<string, string>;
  /** The path's parameters by name (`:service` → `params.service`), each within [a-z0-9_.-]{1,100}. */
  params: Record<string, string>;
}

export type Handler = (request: PageRequest) => Promise<void>;

/**
 * Who may open a page, declared with its route: the guard runs as part of the route the path matched, so what a
 * member may open is exactly the pages declared so (index.ts). Without `members`, a page is for admins only.
 */
export interface RouteOptions {
  /** A member who is not an admin may open it too: their own accounts and connected clients, consent, sign-out. */
  members?: boolean;
  /** Where a member who is not an admin is sent by a GET, instead of the refusal. */
  membersGoTo?: string;
  /** A signed-out browser's GET is sent to the sign-in and comes back here after it (an OAuth authorization request). */
  resumeAfterSignIn?: boolean;
}

/** What the pages need from the middleware (index.ts). */
export interface PageKit {
  engine: Engine;
  sessions: SessionStore;
  publicUrl: string | undefined;
  route(method: 'GET' | 'POST', path: string, handler: Handler, access?: RouteOptions): void;
  show(r: PageRequest, section: Section, title: string, content: Html, notice?: Notice): void;
  flash(r: PageRequest, kind: 'ok' | 'error', message: string): void;
  redirect(ctx: Context, to: string): void;
}

const Toggle = Params({
  protocol: Type.Union([Type.Literal('mcp'), Type.Literal('rest')]),
  enabled: Type.Union([Type.Literal('on'), Type.Literal('off')]),
});
const CreateKey = Params({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  access: Type.Union([Type.Literal('read_only'), Type.Literal('full'), Type.Literal('admin')]),
  expires: Type.Union([Type.Literal('never'), Type.String({ pattern: '^(7|30|90|365)$' })]),
});
const Token = Params({ token: Type.String({ minLength: 1, maxLength: 8192 }), meta: Type.Optional(Type.String({ maxLength: 4000 })) });
const BaseUrl = Params({ base_url: Type.String({ maxLength: 2000 }) });
const Policy = Params({
  policy: Type.Union([Type.Literal('shared'), Type.Literal('personal'), Type.Literal('personal_else_shared')]),
});
const POLICY_NAMES = {
  shared: 'the shared connection',
  personal: 'their own accounts only',
  personal_else_shared: 'their own accounts where connected, else the shared connection',
} as const;

/** A form's fields checked against a TypeBox schema (as the admin API checks its bodies): 400 with every problem. */
export function validator<T extends TObject>(schema: T) {
  const compiled = compileParams(schema);
  return (form: Record<string, string>): Static<T> => {
    const value: Record<string, string> = {};
    for (const name of Object.keys(schema.properties)) if (form[name] !== undefined) value[name] = form[name] as string;
    if (!compiled.check(value)) {
      throw new GatewayError(
        'bad_request',
        `Invalid form: ${problemList(compiled.problems(value).map((l) => l.replace(/^params\b/, 'form')))}`,
      );
    }
    return value as Static<T>;
  };
}
const toggleForm = validator(Toggle);
const createKeyForm = validator(CreateKey);
const tokenForm = validator(Token);
const baseUrlForm = validator(BaseUrl);
const policyForm = validator(Policy);

/**
 * The pages: integrations and Configure, API keys, operations with try-it, activity. Each reads what it lists from the
 * registry and the store, and changes things only through the engine, as the admin API and the CLI do.
 */
export function mountPages(kit: PageKit): void {
  const { engine, sessions, route, show, flash, redirect } = kit;
  const options = { publicUrl: kit.publicUrl };

  // ---- integrations --------------------------------------------------------------------------------------------

  const integrationView = async (workspaceId: string, service: string): Promise<IntegrationView> => {
    const integration = engine.requireIntegration(service);
    return {
      service,
      name: integration.plugin.displayName,
      description: integration.plugin.description,
      operations: integration.operations.size,
      state: await engine.integrationState(workspaceId, service),
      connection: await engine.store.getConnection(workspaceId, service),
    };
  };

  route(
    'GET',
    '/dashboard/integrations',
    async (r) => {
      const views = [];
      for (const integration of engine.registry.list()) views.push(await integrationView(r.principal.workspaceId, integration.service));
      show(r, 'integrations', 'Integrations', integrationsPage(r.session, views));
    },
    { membersGoTo: '/dashboard/grants' },
  );

  route('GET', '/dashboard/integrations/:service', async (r) => {
    const service = r.params.service as string;
    const view = await integrationView(r.principal.workspaceId, service);
    const integration = engine.requireIntegration(service);
    let oauth = false;
    let oauthProblem: string | undefined;
    if (integration.plugin.auth.oauth2) {
      try {
        engine.oauthClient(integration);
        oauth = true;
      } catch (error) {
        oauthProblem = toGatewayError(error).message;
      }
    }
    const events = async (operation: string) =>
      (await engine.store.queryAudit({ workspaceId: r.principal.workspaceId, service, operation, limit: 20 })).records;
    await engine.flushAudit();
    const refreshes = await events('oauth_refresh');
    const failures = [...refreshes, ...(await events('oauth_connect'))]
      .filter((e) => e.status >= 400)
      .sort((a, b) => (a.at < b.at ? 1 : -1));
    const base = integration.plugin.upstream.baseUrl;
    const meta = view.connection?.meta ?? {};
    const defaultBaseUrl = typeof base === 'function' ? base(meta) : base;
    // What the gateway would call without a stored base URL: the plugin's default, or the environment's override.
    const configured = engine.baseUrlFor(integration, { ...view.state, baseUrl: null }, meta);
    const failure = failures[0];
    show(
      r,
      'integrations',
      `Configure ${view.name}`,
      configurePage(r.session, {
        ...view,
        oauth,
        oauthProblem,
        tokenHelp: integration.plugin.auth.token ? integration.plugin.auth.token.description : undefined,
        defaultBaseUrl,
        baseUrlOverride: configured === defaultBaseUrl ? undefined : configured,
        lastRefresh: refreshes.find((e) => e.status < 400)?.at,
        lastError: failure ? { at: failure.at, code: failure.code, status: failure.status } : undefined,
      }),
    );
  });

  route('GET', '/dashboard/integrations/:service/openapi.json', async (r) => {
    const integration = engine.requireIntegration(r.params.service as string);
    const service = integration.service;
    // what the key may call, as the API's openapi.json: its services, its tool set, reads only for a read-only key
    const { services, readOnly } = r.principal.scopes;
    if (services !== '*' && !services.includes(service)) throw new GatewayError('forbidden', `This API key may not use ${service}`);
    const allowed = await engine.allowedOperations(r.principal);
    r.ctx.type = 'application/json';
    r.ctx.body = buildOpenApiDocument(integration, {
      baseUrl: options.publicUrl ?? engine.publicUrl ?? r.ctx.origin,
      include: (operation) => (!allowed || allowed.has(service, operation.name)) && (!readOnly || operation.access === 'read'),
    });
  });

  route('POST', '/dashboard/integrations/:service/switch', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const input = toggleForm(r.form);
    const on = input.enabled === 'on';
    await engine.configureIntegration(
      r.principal.workspaceId,
      service,
      input.protocol === 'mcp' ? { mcpEnabled: on } : { restEnabled: on },
    );
    flash(r, 'ok', `${input.protocol === 'mcp' ? 'MCP' : 'REST'} access to ${service} is ${on ? 'on' : 'off'}.`);
    redirect(r.ctx, backTo(r.ctx, `/dashboard/integrations/${service}`));
  });

  route('POST', '/dashboard/integrations/:service/token', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const input = tokenForm(r.form);
    const meta: Record<string, string> = {};
    for (const line of (input.meta ?? '').split(/\r?\n/)) {
      if (!line.trim()) continue;
      const match = /^\s*([A-Za-z][\w.-]{0,63})\s*=\s*(.{0,500}?)\s*$/.exec(line);
      if (!match) throw new GatewayError('bad_request', 'Connection facts are name=value lines');
      meta[match[1] as string] = match[2] as string;
    }
    await engine.connectToken(r.principal.workspaceId, service, input.token.trim(), meta);
    flash(r, 'ok', `${service} is connected; the token is stored encrypted.`);
    redirect(r.ctx, `/dashboard/integrations/${service}`);
  });

  route('POST', '/dashboard/integrations/:service/oauth', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const integration = engine.requireIntegration(service);
    const started = await engine.beginOAuth(r.principal.workspaceId, service, r.principal.keyId);
    // A hand-off page, not a redirect: CSP form-action 'self' would stop a form's redirect to the provider.
    show(
      r,
      'integrations',
      `Continue to ${integration.plugin.displayName}`,
      oauthHandOff(integration.plugin.displayName, started.authorizeUrl),
    );
  });

  route('POST', '/dashboard/integrations/:service/disconnect', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const result = await engine.disconnect(r.principal.workspaceId, service);
    if (!result.deleted) flash(r, 'error', `${service} was not connected.`);
    else if (result.revokeError)
      flash(r, 'ok', `${service} is disconnected; the provider did not confirm the revocation (${result.revokeError}).`);
    else flash(r, 'ok', `${service} is disconnected.`);
    redirect(r.ctx, `/dashboard/integrations/${service}`);
  });

  route('POST', '/dashboard/integrations/:service/policy', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const input = policyForm(r.form);
    await engine.configureIntegration(r.principal.workspaceId, service, { connectionPolicy: input.policy });
    flash(r, 'ok', `${service}: people's calls now use ${POLICY_NAMES[input.policy]}.`);
    redirect(r.ctx, `/dashboard/integrations/${service}`);
  });

  route('POST', '/dashboard/integrations/:service/base-url', async (r) => {
    const service = r.params.service as string;
    assertMayChangeService(r.principal, engine.requireIntegration(service).service); // access/powers.ts
    const input = baseUrlForm(r.form);
    const value = input.base_url.trim();
    await engine.configureIntegration(r.principal.workspaceId, service, { baseUrl: value === '' ? null : value });
    flash(r, 'ok', value === '' ? `${service} uses its default base URL.` : `${service} now calls ${value}.`);
    redirect(r.ctx, `/dashboard/integrations/${service}`);
  });

  // ---- API keys ------------------------------------------------------------------------------------------------

  route('GET', '/dashboard/keys', async (r) => {
    const keys = await engine.store.listApiKeys(r.principal.workspaceId);
    show(
      r,
      'keys',
      'API keys',
      keysPage(r.session, keys, r.principal.keyId ?? '', (k) => !widerThan(r.principal, k.scopes)),
    );
  });

  route('POST', '/dashboard/keys', async (r) => {
    const input = createKeyForm(r.form);
    const days = input.expires === 'never' ? undefined : Number(input.expires);
    const created = await engine.createApiKey({
      workspaceId: r.principal.workspaceId,
      name: input.name.trim() || input.name,
      // nothing wider than the signed-in key (access/powers.ts): its services and tool set are inherited
      scopes: scopesWithin(r.principal, { admin: input.access === 'admin', readOnly: input.access === 'read_only' }),
      expiresAt: days === undefined ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
    });
    // The secret is in this answer only: not in a URL, not kept anywhere for a later page (which may be served by
    // another instance). Reloading would post the form again, and the browser asks first.
    const keys = await engine.store.listApiKeys(r.principal.workspaceId);
    show(
      r,
      'keys',
      'API keys',
      keysPage(r.session, keys, r.principal.keyId ?? '', (k) => !widerThan(r.principal, k.scopes)),
      {
        kind: 'secret',
        message: `Key "${created.record.name}" created`,
        secret: created.key,
      },
    );
  });

  route('POST', '/dashboard/keys/:id/revoke', async (r) => {
    const id = r.params.id as string;
    if (id === r.principal.keyId)
      throw new GatewayError('bad_request', 'This is the key you signed in with: sign in with another admin key to revoke it');
    const record = await engine.store.getApiKey(r.principal.workspaceId, id);
    // as on the admin API: only an operator revokes an operator key, and no key revokes one wider than itself
    if (record?.scopes.operator && !r.principal.scopes.operator) {
      throw new GatewayError('forbidden', 'Only an operator key may revoke an operator key');
    }
    if (record) assertKeyWithin(r.principal, record.scopes, 'revoke');
    const revoked = await engine.store.revokeApiKey(r.principal.workspaceId, id, new Date().toISOString());
    if (!revoked || !record) throw new GatewayError('not_found', 'No active key with this id');
    await sessions.destroyKey(id);
    flash(r, 'ok', `Key "${record.name}" is revoked.`);
    redirect(r.ctx, '/dashboard/keys');
  });

  // ---- operations ----------------------------------------------------------------------------------------------

  const serviceList = () => engine.registry.list().map((i) => ({ service: i.service, name: i.plugin.displayName }));

  route('GET', '/dashboard/operations', async (r) => {
    const q = queryText(r.ctx, 'q', 500);
    const service = queryText(r.ctx, 'service', 100);
    const inScope = (s: string) => r.principal.scopes.services === '*' || r.principal.scopes.services.includes(s);
    // A key bound to a tool set sees only the set's operations, here as over MCP and REST (docs/workspaces.md).
    const allowed = await engine.allowedOperations(r.principal);
    const inSet = (s: string, method: string) => !allowed || allowed.has(s, method);
    let hits: ReturnType<Engine['operationIndex']['search']> = [];
    let listed = false;
    if (q) {
      hits = engine.operationIndex.search(q, {
        limit: 25,
        filter: (d) => inScope(d.service) && inSet(d.service, d.operation.name) && (!service || d.service === service),
      });
    } else if (service) {
      const integration = engine.registry.get(service);
      listed = true;
      hits = integration
        ? [...integration.operations.values()]
            .filter((op) => inSet(service, op.name))
            .map((op) => ({
              service,
              method: op.name,
              summary: op.definition.summary,
              access: op.access,
              score: 0,
            }))
        : [];
    }
    show(r, 'operations', 'Operations', operationsPage(q, service, serviceList(), hits, listed));
  });

  const operationOf = async (r: PageRequest) => {
    const integration = engine.requireIntegration(r.params.service as string);
    const operation = integration.operations.get(r.params.method as string);
    if (!operation) throw new GatewayError('not_found', `${integration.service} has no operation "${r.params.method}"`);
    const allowed = await engine.allowedOperations(r.principal);
    if (allowed && !allowed.has(integration.service, operation.name)) {
      throw new GatewayError(
        'forbidden',
        `This API key's tool set (${r.principal.scopes.toolSet}) does not include ${integration.service}:${operation.name}`,
      );
    }
    return { integration, operation, description: describeOperation(integration, operation) };
  };

  route('GET', '/dashboard/operations/:service/:method', async (r) => {
    const { integration, description } = await operationOf(r);
    show(r, 'operations', description.method, operationPage(r.session, integration, description, exampleValues(description), undefined));
  });

  route('POST', '/dashboard/operations/:service/:method', async (r) => {
    const { integration, description } = await operationOf(r);
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(r.form)) if (name !== '_csrf') values[name] = value;
    const { params, problem } = formParams(description.params, values);
    let result: TryResult;
    if (problem) result = { ok: false, status: 400, body: { error: true, code: 'bad_request', message: problem } };
    else {
      try {
        const answer = await engine.invoke({
          principal: r.principal,
          protocol: 'dashboard',
          service: integration.service,
          operation: description.method,
          params,
          clientAddress: r.ctx.state.clientAddress ?? null,
          trace: r.ctx.state.trace,
        });
        result = { ok: true, status: answer.body === undefined ? 204 : 200, body: answer.body };
      } catch (error) {
        const failure = toGatewayError(error);
        result = { ok: false, status: failure.status, body: { error: true, code: failure.code, message: failure.message } };
      }
    }
    show(r, 'operations', description.method, operationPage(r.session, integration, description, values, result));
  });

  // ---- activity ------------------------------------------------------------------------------------------------

  route('GET', '/dashboard/activity', async (r) => {
    const range: Range = queryText(r.ctx, 'range', 10) === 'day' ? 'day' : 'hour';
    const service = queryText(r.ctx, 'service', 100);
    const status = queryText(r.ctx, 'status', 10);
    const key = queryText(r.ctx, 'key', 100);
    const workspaceId = r.principal.workspaceId;
    await engine.flushAudit();
    const keys = await engine.store.listApiKeys(workspaceId);
    const page = await engine.store.queryAudit({
      workspaceId,
      limit: 100,
      ...(service ? { service } : {}),
      ...(['2xx', '4xx', '5xx'].includes(status) ? { status: status as '2xx' | '4xx' | '5xx' } : {}),
      ...(key ? { keyId: key } : {}),
    });
    const chart = buckets(range, Date.now());
    const points = await engine.store.auditSeries({ workspaceId, since: chart.since, bucket: range === 'hour' ? 'minute' : 'hour' });
    show(
      r,
      'activity',
      'Activity',
      activityPage({
        filters: { service, status, key, range },
        services: serviceList(),
        keys: keys.map((k) => ({ id: k.id, name: k.name })),
        records: page.records,
        keyNames: new Map(keys.map((k) => [k.id, k.name])),
        points: service ? points.filter((p) => p.service === service) : points,
        chart,
      }),
    );
  });
}

function queryText(ctx: Context, name: string, max: number): string {
  const value = ctx.query[name];
  return typeof value === 'string' && value.length <= max ? value.trim() : '';
}

/** Where a form goes back to: the page it came from (a same-origin dashboard path), else `fallback`. */
export function backTo(ctx: Context, fallback: string): string {
  const referer = ctx.get('referer');
  if (!referer) return fallback;
  try {
    const url = new URL(referer);
    if (url.host === ctx.host && url.pathname.startsWith('/dashboard/') && !url.pathname.startsWith('/dashboard/sign-'))
      return url.pathname + url.search;
  } catch {
    // not a URL
  }
  return fallback;
}
