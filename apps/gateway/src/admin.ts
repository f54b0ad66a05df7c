import type Router from '@koa/router';
import {
  type ApiKeyRecord,
  type ConnectionRecord,
  type Engine,
  GatewayError,
  type IntegrationState,
  type KeyScopes,
  Params,
  TOOL_SET_ID,
  Type,
} from '@portico/core';
import type { Context } from 'koa';
import { requireAdmin, validator, type WorkspaceOf } from './admin-support.js';
import { mountToolSetRoutes, mountWorkspaceAdmin } from './admin-workspaces.js';
import { parseAuditQuery, publicAuditPage } from './audit-query.js';
import type { GatewayState } from './state.js';

const CreateKey = Params({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  admin: Type.Optional(Type.Boolean()),
  operator: Type.Optional(Type.Boolean()),
  services: Type.Optional(Type.Union([Type.Literal('*'), Type.Array(Type.String({ pattern: '^[a-z][a-z0-9]{1,31}$' }))])),
  read_only: Type.Optional(Type.Boolean()),
  tool_set: Type.Optional(Type.Union([Type.String({ pattern: TOOL_SET_ID.source }), Type.Null()])),
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

const createKeyBody = validator(CreateKey);
const configureBody = validator(ConfigureIntegration);
const connectBody = validator(ConnectToken);

/**
 * The admin API. Every route of a workspace (keys, integrations, connections, tool sets, audit) is served twice:
 * under `/api/admin/…`, acting on the key's own workspace, and under `/api/admin/workspaces/{id}/…`, where an operator
 * key reaches any workspace and a workspace admin key only its own: another workspace's id answers 404, as one that
 * does not exist. Creating, renaming and deleting workspaces is for operator keys (admin-workspaces.ts).
 */
export function mountAdmin(router: Router<GatewayState>, engine: Engine, body: (ctx: Context) => Promise<unknown>): void {
  const own: WorkspaceOf = async (ctx) => {
    requireAdmin(ctx.state.principal);
    return ctx.state.principal.workspaceId;
  };
  const addressed: WorkspaceOf = async (ctx) => {
    const principal = ctx.state.principal;
    requireAdmin(principal);
    const id = ctx.params.workspace as string;
    if (principal.scopes.operator) return (await engine.workspaces.require(id)).id;
    if (id !== principal.workspaceId) throw new GatewayError('not_found', `No workspace ${id}`);
    return id;
  };
  mountWorkspaceAdmin(router, engine, body);
  for (const [prefix, workspaceOf] of [
    ['', own],
    ['/workspaces/:workspace', addressed],
  ] as const) {
    mountWorkspaceRoutes(router, prefix, workspaceOf, engine, body);
    mountToolSetRoutes(router, prefix, workspaceOf, engine, body);
  }
}

function mountWorkspaceRoutes(
  router: Router<GatewayState>,
  prefix: string,
  workspaceOf: WorkspaceOf,
  engine: Engine,
  body: (ctx: Context) => Promise<unknown>,
): void {
  router.get(`${prefix}/keys`, async (ctx) => {
    ctx.body = { keys: (await engine.store.listApiKeys(await workspaceOf(ctx))).map(publicKey) };
  });

  router.get(`${prefix}/keys/:id`, async (ctx) => {
    const record = await engine.store.getApiKey(await workspaceOf(ctx), ctx.params.id as string);
    if (!record) throw new GatewayError('not_found', `No key ${ctx.params.id}`);
    ctx.body = publicKey(record);
  });

  router.post(`${prefix}/keys`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = createKeyBody(await body(ctx));
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) throw new GatewayError('bad_request', 'expires_at is in the past');
    // Powers are granted only by a key that has them: a workspace admin cannot make an operator key.
    if (input.operator && !ctx.state.principal.scopes.operator) {
      throw new GatewayError('forbidden', 'Only an operator key may create operator keys');
    }
    const scopes: KeyScopes = { admin: input.admin ?? false, services: input.services ?? '*', readOnly: input.read_only ?? false };
    if (input.operator) scopes.operator = true;
    if (input.tool_set) scopes.toolSet = input.tool_set;
    const created = await engine.createApiKey({ workspaceId, name: input.name, scopes, expiresAt: input.expires_at ?? null });
    ctx.status = 201;
    ctx.body = { ...publicKey(created.record), key: created.key };
  });

  router.delete(`${prefix}/keys/:id`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const id = ctx.params.id as string;
    const record = await engine.store.getApiKey(workspaceId, id);
    if (record?.scopes.operator && !ctx.state.principal.scopes.operator) {
      throw new GatewayError('forbidden', 'Only an operator key may revoke an operator key');
    }
    const revoked = record ? await engine.store.revokeApiKey(workspaceId, id, new Date().toISOString()) : false;
    if (!revoked) throw new GatewayError('not_found', `No active key ${id}`);
    ctx.status = 204;
  });

  router.get(`${prefix}/integrations`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
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

  router.patch(`${prefix}/integrations/:service`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = configureBody(await body(ctx));
    const service = ctx.params.service as string;
    const integration = engine.requireIntegration(service);
    const state = await engine.configureIntegration(workspaceId, service, {
      ...(input.mcp_enabled === undefined ? {} : { mcpEnabled: input.mcp_enabled }),
      ...(input.rest_enabled === undefined ? {} : { restEnabled: input.rest_enabled }),
      ...(input.base_url === undefined ? {} : { baseUrl: input.base_url }),
      ...(input.settings === undefined ? {} : { settings: input.settings }),
    });
    const connection = await engine.store.getConnection(workspaceId, service);
    ctx.body = publicIntegration(service, integration.plugin.displayName, integration.operations.size, state, connection);
  });

  router.get(`${prefix}/connections`, async (ctx) => {
    ctx.body = { connections: (await engine.store.listConnections(await workspaceOf(ctx))).map(publicConnection) };
  });

  router.get(`${prefix}/connections/:service`, async (ctx) => {
    const record = await engine.store.getConnection(await workspaceOf(ctx), ctx.params.service as string);
    if (!record) throw new GatewayError('not_found', `${ctx.params.service} is not connected`);
    ctx.body = publicConnection(record);
  });

  router.put(`${prefix}/connections/:service`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = connectBody(await body(ctx));
    const record = await engine.connectToken(workspaceId, ctx.params.service as string, input.token, input.meta ?? {});
    ctx.body = publicConnection(record);
  });

  // Starts an OAuth connection: open the returned URL in a browser; the provider sends it back to the callback.
  router.post(`${prefix}/connections/:service/authorize`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const started = await engine.beginOAuth(workspaceId, ctx.params.service as string, ctx.state.principal.keyId);
    ctx.body = { authorize_url: started.authorizeUrl, expires_at: started.expiresAt };
  });

  router.delete(`${prefix}/connections/:service`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const result = await engine.disconnect(workspaceId, ctx.params.service as string);
    if (!result.deleted) throw new GatewayError('not_found', `${ctx.params.service} is not connected`);
    ctx.body = {
      service: ctx.params.service,
      deleted: true,
      revoked: result.revoked,
      ...(result.revokeError ? { revoke_error: result.revokeError } : {}),
    };
  });

  // Filters and cursor paging (audit-query.ts): newest first, `next_cursor` to the next page.
  router.get(`${prefix}/audit`, async (ctx) => {
    const query = parseAuditQuery(await workspaceOf(ctx), ctx.query);
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
    operator: record.scopes.operator ?? false,
    services: record.scopes.services,
    read_only: record.scopes.readOnly,
    tool_set: record.scopes.toolSet ?? null,
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
