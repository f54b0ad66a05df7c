import type Router from '@koa/router';
import { type Engine, GatewayError } from '@portico/core';
import { readBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';

/** What the inbound events route needs of the gateway's options. */
export interface EventRouteOptions {
  engine: Engine;
  bodyLimitBytes: number;
}

/**
 * Refused deliveries (forged, stale, replayed, unreadable, not set up) one client address may send in a minute before
 * its deliveries are answered 429 unread: no signature checked, no database read, no log line. A delivery accepted is
 * not counted, so an application delivering a busy workspace's events is never held back by its own successes.
 */
export const WEBHOOK_REFUSALS_PER_MINUTE = 60;

/**
 * `POST /api/events/{workspace}/{service}`: where an application delivers its webhooks for one workspace. No API key:
 * the delivery is authenticated by the application's signature with the workspace's signing secret (core's
 * InboundEvents verifies it, holds it to the timestamp window and refuses replays). The body is read as bytes, since
 * the signature covers them exactly.
 */
export function mountEvents(router: Router<GatewayState>, options: EventRouteOptions): void {
  const { engine } = options;
  router.post('/api/events/:workspace/:service', async (ctx) => {
    const workspace = ctx.params.workspace as string;
    const service = ctx.params.service as string;
    ctx.state.service = service;
    // Counted before the delivery is read, taken back once it is accepted: what stays counted are the refusals.
    const counted = `webhook\u0000${ctx.state.clientAddress ?? ctx.req.socket.remoteAddress ?? 'unknown'}`;
    const taken = await engine.attempts.take(counted, WEBHOOK_REFUSALS_PER_MINUTE, 60_000);
    if (taken.ticket === undefined) {
      throw new GatewayError('rate_limited', `Too many refused webhook deliveries from this address; try again in ${taken.wait} seconds`, {
        retryAfter: taken.wait,
      });
    }
    const body = await readBody(ctx.req, options.bodyLimitBytes);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(ctx.req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
    const query: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(ctx.query)) query[name] = Array.isArray(value) ? value[0] : value;
    const reply = await engine.events.reply(workspace, service, { body, headers, query });
    engine.attempts.giveBack(counted, taken.ticket);
    ctx.set(reply.headers as Record<string, string>);
    ctx.body = reply.body;
  });
}
