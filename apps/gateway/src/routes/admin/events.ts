import { assertMayChangeService, Params, Type } from '@portico/core';
import { validator, type WorkspaceRoutes } from './guards.js';

const SecretBody = validator(Params({ secret: Type.String({ minLength: 1, maxLength: 512 }) }));

/**
 * `…/events`: which integrations of the workspace receive webhooks, and their signing secrets (write-only: a secret is
 * saved or removed, never shown). The application delivers to `/api/events/{workspace}/{service}`.
 */
export function mountEventRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
  router.get(`${prefix}/events`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const sources = await engine.events.configured(workspaceId);
    ctx.body = { sources: sources.map((s) => ({ ...s, delivery_path: `/api/events/${workspaceId}/${s.service}` })) };
  });

  router.put(`${prefix}/events/:service/secret`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const service = ctx.params.service as string;
    assertMayChangeService(ctx.state.principal, service);
    const { secret } = SecretBody(await body(ctx));
    await engine.events.setSecret(workspaceId, service, secret);
    ctx.body = { service, configured: true, delivery_path: `/api/events/${workspaceId}/${service}` };
  });

  router.delete(`${prefix}/events/:service/secret`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const service = ctx.params.service as string;
    assertMayChangeService(ctx.state.principal, service);
    ctx.body = { service, configured: false, removed: await engine.events.deleteSecret(workspaceId, service) };
  });
}
