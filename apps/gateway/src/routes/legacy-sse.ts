import type Router from '@koa/router';
import { GatewayError, type LegacySseTransport } from '@portico/core';
import type { Context, Next } from 'koa';
import { parseJson, readBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';
import { type McpRouteOptions, mcpDoor, mcpServerOptions } from './mcp.js';

/**
 * The HTTP+SSE transport of protocol revision 2024-11-05, for clients that still need it: GET /api/mcp/sse opens an
 * event stream and names a message endpoint; POST /api/mcp/messages?sessionId=… carries the client's messages.
 * Sessions live in this process, so behind a load balancer the stream and its messages must reach the same instance
 * (sticky sessions); the Streamable HTTP endpoint has no such limit. A session is bound to the key that opened it.
 */
export function mountLegacySse(
  router: Router<GatewayState>,
  options: McpRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const sessions = new Map<string, { transport: LegacySseTransport; keyId: string | null }>();
  router.get('/api/mcp/sse', authenticate, async (ctx) => {
    const { createMcpServer, openLegacySseTransport } = await mcpDoor();
    const transport = await openLegacySseTransport('/api/mcp/messages', ctx.res);
    const clientAddress = ctx.state.clientAddress ?? null; // the address of the GET that opened the stream
    const server = createMcpServer(options.engine, ctx.state.principal, { ...mcpServerOptions(options), clientAddress });
    sessions.set(transport.sessionId, { transport, keyId: ctx.state.principal.keyId });
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
    };
    ctx.res.on('close', () => {
      sessions.delete(transport.sessionId);
      void server.close();
    });
    ctx.respond = false;
    await server.connect(transport);
  });
  router.post('/api/mcp/messages', authenticate, async (ctx) => {
    const session = sessions.get(String(ctx.query.sessionId ?? ''));
    if (!session) throw new GatewayError('not_found', 'No such MCP session (it may have ended, or lives on another instance)');
    if (session.keyId !== ctx.state.principal.keyId) throw new GatewayError('forbidden', 'This MCP session belongs to another API key');
    const message = parseJson(await readBody(ctx.req, options.bodyLimitBytes), ctx.get('content-type') || undefined);
    ctx.respond = false;
    await session.transport.handlePostMessage(ctx.req, ctx.res, message);
  });
}
