import { assertKeyWithin, GatewayError, Params, scopesWithin, TOOL_SET_ID, Type } from '@portico/core';
import { publicKey } from '../../records/keys.js';
import { validator, type WorkspaceRoutes } from './guards.js';

const CreateKey = Params({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  admin: Type.Optional(Type.Boolean()),
  operator: Type.Optional(Type.Boolean()),
  services: Type.Optional(Type.Union([Type.Literal('*'), Type.Array(Type.String({ pattern: '^[a-z][a-z0-9]{1,31}$' }))])),
  read_only: Type.Optional(Type.Boolean()),
  tool_set: Type.Optional(Type.Union([Type.String({ pattern: TOOL_SET_ID.source }), Type.Null()])),
  expires_at: Type.Optional(Type.String({ format: 'date-time' })),
});

const createKeyBody = validator(CreateKey);

/** `…/keys`: list, show, create (the key is shown once) and revoke a workspace's API keys. */
export function mountKeyRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
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
    // Nothing wider than the creating key (access/powers.ts): what the body leaves out is inherited from it.
    const scopes = scopesWithin(ctx.state.principal, {
      ...(input.admin === undefined ? {} : { admin: input.admin }),
      ...(input.operator === undefined ? {} : { operator: input.operator }),
      ...(input.services === undefined ? {} : { services: input.services }),
      ...(input.read_only === undefined ? {} : { readOnly: input.read_only }),
      ...(input.tool_set === undefined ? {} : { toolSet: input.tool_set }),
    });
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
    if (record) assertKeyWithin(ctx.state.principal, record.scopes, 'revoke');
    const revoked = record ? await engine.store.revokeApiKey(workspaceId, id, new Date().toISOString()) : false;
    if (!revoked) throw new GatewayError('not_found', `No active key ${id}`);
    ctx.status = 204;
  });
}
