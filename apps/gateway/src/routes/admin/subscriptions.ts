import { assertMaySubscribe, Params, Type } from '@portico/core';
import { validator, type WorkspaceRoutes } from './guards.js';

const SubscribeBody = validator(
  Params({
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    types: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 50 }),
  }),
);
const RedeliverBody = validator(Params({ event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) }));

/**
 * `…/events/subscriptions`: where the workspace's events are delivered (docs/events.md, "Subscriptions"). The secret
 * is in the answer to the POST only; the delivery log and dead letters are under `{id}/deliveries`.
 */
export function mountSubscriptionRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
  const outbound = engine.events.outbound;
  const base = `${prefix}/events/subscriptions`;

  router.post(base, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMaySubscribe(ctx.state.principal);
    const input = SubscribeBody(await body(ctx));
    ctx.status = 201;
    ctx.body = await outbound.subscribe(workspaceId, input);
  });

  router.get(base, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMaySubscribe(ctx.state.principal);
    ctx.body = { subscriptions: await outbound.list(workspaceId) };
  });

  router.delete(`${base}/:id`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMaySubscribe(ctx.state.principal);
    await outbound.unsubscribe(workspaceId, ctx.params.id as string);
    ctx.body = { id: ctx.params.id, removed: true };
  });

  router.get(`${base}/:id/deliveries`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMaySubscribe(ctx.state.principal);
    ctx.body = await outbound.deliveries(workspaceId, ctx.params.id as string);
  });

  router.post(`${base}/:id/redeliver`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    assertMaySubscribe(ctx.state.principal);
    const { event_id } = RedeliverBody((await body(ctx)) ?? {}); // no body: every dead letter
    ctx.body = await outbound.redeliver(workspaceId, ctx.params.id as string, event_id);
  });
}
