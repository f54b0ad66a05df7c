import type Router from '@koa/router';
import type { Engine } from '@portico/core';
import { readBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';

/** What the inbound events route needs of the gateway's options. */
export interface EventRouteOptions {
  engine: Engine;
  bodyLimitBytes: number;
}

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
    const body = await readBody(ctx.req, options.bodyLimitBytes);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(ctx.req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
    const query: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(ctx.query)) query[name] = Array.isArray(value) ? value[0] : value;
    const reply = await engine.events.reply(workspace, service, { body, headers, query });
    ctx.set(reply.headers as Record<string, string>);
    ctx.body = reply.body;
  });
}
