import type Router from '@koa/router';
import {
  type ApiKeyRecord,
  type ConnectionRecord,
  compileParams,
  type Engine,
  GatewayError,
  type IntegrationState,
  Params,
  type Principal,
  problemList,
  type Static,
  type TObject,
  Type,
} from '@portico/core';
import type { Context } from 'koa';
import { parseAuditQuery, publicAuditPage } from './audit-query.js';
import type { GatewayState } from './state.js';

const CreateKey = Params({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  admin: Type.Optional(Type.Boolean()),
  services: Type.Optional(Type.Union([Type.Literal('*'), Type.Array(Type.String({ pattern: '^[a-z][a-z0-9]{1,31}$' }))])),
  read_only: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(Type.String({ format: 'date-time' })),
});

const ConfigureIntegration = Params({
  mcp_enabled: Type.Optional(Type.Boolean()),
  rest_enabled: Type.Optional(Type.Boolean()),
  base_url: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const ConnectToken = Params({
  token: Type.String({ minLength: 1, maxLength: 8192 }),
  meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

function validator<T extends TObject>(schema: T) {
  const compiled = compileParams(schema);
  return (value: unknown): Static<T> => {
    if (!compiled.check(value)) {
      const problems = compiled.problems(value).map((line) => line.replace(/^params\b/, 'body'));
      throw new GatewayError('bad_request', `Invalid body: ${problemList(problems)}`);
    }
    return value as Static<T>;
  };
}

const createKeyBody = validator(CreateKey);
const configureBody = validator(ConfigureIntegration);
const connectBody = validator(ConnectToken);

/** The admin API: keys, integrations (toggles, base URL, settings), connections and the audit trail. Admin keys only. */
export function mountAdmin(router: Router<GatewayState>, engine: Engine, body: (ctx: Context) => Promise<unknown>): void {
  const admin = (principal: Principal) => {
    if (!principal.scopes.admin) throw new GatewayError('forbidden', 'This API key is not an admin key');
  };

  router.get('/keys', async (ctx) => {
    admin(ctx.state.principal);
    ctx.body = { keys: (await engine.store.listApiKeys(ctx.state.principal.workspaceId)).map(publicKey) };
  });

  router.post('/keys', async (ctx) => {
    admin(ctx.state.principal);
    const input = createKeyBody(await body(ctx));
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) throw new GatewayError('bad_request', 'expires_at is in the past');
    const created = await engine.createApiKey({
      workspaceId: ctx.state.principal.workspaceId,
      name: input.name,
      scopes: { admin: input.admin ?? false, services: input.services ?? '*', readOnly: input.read_only ?? false },
      expiresAt: input.expires_at ?? null,
    });
    ctx.status = 201;
    ctx.body = { ...publicKey(created.record), key: created.key };
  });

  router.delete('/keys/:id', async (ctx) => {
    admin(ctx.state.principal);
    const revoked = await engine.store.revokeApiKey(ctx.state.principal.workspaceId, ctx.params.id as string, new Date().toISOString());
    if (!revoked) throw new GatewayError('not_found', `No active key ${ctx.params.id}`);
    ctx.status = 204;
  });

  router.get('/integrations', async (ctx) => {
    admin(ctx.state.principal);
    const workspaceId = ctx.state.principal.workspaceId;
    const connections = new Map((await engine.store.listConnections(workspaceId)).map((c) => [c.service, c]));
    const out = [];
    for (const integration of engine.registry.list()) {
      out.push(
        publicIntegration(
          integration.service,
          integration.plugin.displayName,
          integration.operations.size,
          await engine.integrationState(workspaceId, integration.service),
          connections.get(integration.service),
        ),
      );
    }
    ctx.body = { integrations: out };
  });

  router.patch('/integrations/:service', async (ctx) => {
    admin(ctx.state.principal);
    const input = configureBody(await body(ctx));
    const service = ctx.params.service as string;
    const integration = engine.requireIntegration(service);
    const state = await engine.configureIntegration(ctx.state.principal.workspaceId, service, {
      ...(input.mcp_enabled === undefined ? {} : { mcpEnabled: input.mcp_enabled }),
      ...(input.rest_enabled === undefined ? {} : { restEnabled: input.rest_enabled }),
      ...(input.base_url === undefined ? {} : { baseUrl: input.base_url }),
      ...(input.settings === undefined ? {} : { settings: input.settings }),
    });
    const connection = await engine.store.getConnection(ctx.state.principal.workspaceId, service);
    ctx.body = publicIntegration(service, integration.plugin.displayName, integration.operations.size, state, connection);
  });

  router.get('/connections', async (ctx) => {
    admin(ctx.state.principal);
    ctx.body = { connections: (await engine.store.listConnections(ctx.state.principal.workspaceId)).map(publicConnection) };
  });

  router.put('/connections/:service', async (ctx) => {
    admin(ctx.state.principal);
    const input = connectBody(await body(ctx));
    const record = await engine.connectToken(ctx.state.principal.workspaceId, ctx.params.service as string, input.token, input.meta ?? {});
    ctx.body = publicConnection(record);
  });

  // Starts an OAuth connection: open the returned URL in a browser; the provider sends it back to the callback.
  router.post('/connections/:service/authorize', async (ctx) => {
    admin(ctx.state.principal);
    const started = await engine.beginOAuth(ctx.state.principal.workspaceId, ctx.params.service as string, ctx.state.principal.keyId);
    ctx.body = { authorize_url: started.authorizeUrl, expires_at: started.expiresAt };
  });

  router.delete('/connections/:service', async (ctx) => {
    admin(ctx.state.principal);
    const result = await engine.disconnect(ctx.state.principal.workspaceId, ctx.params.service as string);
    if (!result.deleted) throw new GatewayError('not_found', `${ctx.params.service} is not connected`);
    ctx.body = {
      service: ctx.params.service,
      deleted: true,
      revoked: result.revoked,
      ...(result.revokeError ? { revoke_error: result.revokeError } : {}),
    };
  });

  // Filters and cursor paging (audit-query.ts): newest first, `next_cursor` to the next page.
  router.get('/audit', async (ctx) => {
    admin(ctx.state.principal);
    const query = parseAuditQuery(ctx.state.principal.workspaceId, ctx.query);
    await engine.flushAudit();
    ctx.body = publicAuditPage(await engine.store.queryAudit(query));
  });
}

/** A key as the API shows it: never the hash. */
export function publicKey(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    admin: record.scopes.admin,
    services: record.scopes.services,
    read_only: record.scopes.readOnly,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    expires_at: record.expiresAt,
    revoked_at: record.revokedAt,
  };
}

/** A connection as the API shows it: never the secret. */
export function publicConnection(record: ConnectionRecord) {
  return {
    service: record.service,
    kind: record.kind,
    status: record.status,
    meta: record.meta,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

function publicIntegration(
  service: string,
  name: string,
  operations: number,
  state: IntegrationState,
  connection: ConnectionRecord | undefined,
) {
  return {
    service,
    name,
    operations,
    mcp_enabled: state.mcpEnabled,
    rest_enabled: state.restEnabled,
    base_url: state.baseUrl,
    settings: state.settings,
    connection: connection ? { kind: connection.kind, status: connection.status, updated_at: connection.updatedAt } : null,
  };
}
