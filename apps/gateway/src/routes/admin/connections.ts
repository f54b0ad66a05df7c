import { assertMayChangeService, GatewayError, Params, Type } from '@portico/core';
import { publicConnection } from '../../records/connections.js';
import { validator, type WorkspaceRoutes } from './guards.js';

const ConnectToken = Params({
  token: Type.String({ minLength: 1, maxLength: 8192 }),
  meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

const connectBody = validator(ConnectToken);

/** `…/connections`: a workspace's stored upstream credentials: list, show, store a token, start OAuth, disconnect. */
export function mountConnectionRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
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
    assertMayChangeService(ctx.state.principal, engine.requireIntegration(ctx.params.service as string).service);
    const record = await engine.connectToken(workspaceId, ctx.params.service as string, input.token, input.meta ?? {});
    ctx.body = publicConnection(record);
  });

  // Starts an OAuth connection: open the returned URL in a browser; the provider sends it back to the callback.
  router.post(`${prefix}/connections/:service/authorize`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMayChangeService(ctx.state.principal, engine.requireIntegration(ctx.params.service as string).service);
    const started = await engine.beginOAuth(workspaceId, ctx.params.service as string, ctx.state.principal.keyId);
    ctx.body = { authorize_url: started.authorizeUrl, expires_at: started.expiresAt };
  });

  router.delete(`${prefix}/connections/:service`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMayChangeService(ctx.state.principal, engine.requireIntegration(ctx.params.service as string).service);
    const result = await engine.disconnect(workspaceId, ctx.params.service as string);
    if (!result.deleted) throw new GatewayError('not_found', `${ctx.params.service} is not connected`);
    ctx.body = {
      service: ctx.params.service,
      deleted: true,
      revoked: result.revoked,
      ...(result.revokeError ? { revoke_error: result.revokeError } : {}),
    };
  });
}
