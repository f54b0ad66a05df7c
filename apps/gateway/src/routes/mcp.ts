import type Router from '@koa/router';
import { type Engine, GatewayError, type McpServerOptions, type McpToolMode } from '@portico/core';
import type { Context, Next } from 'koa';
import { mcpBodyProblem, readBody } from '../http/body.js';
import type { GatewayState } from '../http/state.js';

/** What the MCP door needs of the gateway's options. */
export interface McpRouteOptions {
  engine: Engine;
  version: string;
  mcpTools?: McpToolMode;
  mcpResultBudget?: number;
  bodyLimitBytes: number;
  /** The upstream budget: an MCP POST is answered at the latest 10 s after it (and never before MCP_POST_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
}

type McpDoor = typeof import('@portico/core/mcp');
let door: McpDoor | undefined;
let doorLoading: Promise<McpDoor> | undefined;

/**
 * The MCP door of `@portico/core/mcp`, imported by the first MCP request rather than at start-up: with the MCP SDK, zod
 * and Ajv it is about a quarter of core's import (docs/adr/0014-unbundled-packages.md). Requests that come while
 * it loads wait for the one import.
 */
export function mcpDoor(): McpDoor | Promise<McpDoor> {
  if (door) return door;
  doorLoading ??= import('@portico/core/mcp').then((loaded) => {
    door = loaded;
    return loaded;
  });
  return doorLoading;
}

/** How the gateway introduces itself to an MCP client, and which tools it lists. */
export const mcpServerOptions = (options: McpRouteOptions) =>
  ({
    name: 'portico',
    version: options.version,
    mode: options.mcpTools ?? 'compact',
    ...(options.mcpResultBudget === undefined ? {} : { resultBudget: options.mcpResultBudget }),
  }) as const;

/** MCP, Streamable HTTP, stateless: every POST carries one JSON-RPC message (or batch) and gets a JSON answer. */
export function mountMcp(
  router: Router<GatewayState>,
  options: McpRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const { engine } = options;
  const introduction = mcpServerOptions(options);
  let timeoutMs: number | undefined; // once the door is loaded: its floor is the door's
  router.post('/api/mcp', authenticate, async (ctx) => {
    const mcp = door ?? (await mcpDoor());
    timeoutMs ??= Math.max(mcp.MCP_POST_TIMEOUT_MS, (options.upstreamTimeoutMs ?? 0) + 10_000);
    const raw = await readBody(ctx.req, options.bodyLimitBytes);
    // The input caps, read from the text before it is parsed: 400,000 argument keys are refused in microseconds.
    const tooBig = mcpBodyProblem(raw);
    if (tooBig) {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${tooBig}` } };
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(raw.toString('utf8'));
    } catch {
      ctx.status = 400;
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } };
      return;
    }
    const principal = ctx.state.principal;
    // An OAuth token's call beyond its scopes is answered 403 with a step-up challenge, not as a tool result
    let stepUp: GatewayError | undefined;
    // One shape for every request, written out (a spread of the introduction here took about a third of this handler's
    // own profile samples)
    const serverOptions: McpServerOptions = {
      name: introduction.name,
      version: introduction.version,
      mode: introduction.mode,
      resultBudget: introduction.resultBudget,
      clientAddress: ctx.state.clientAddress ?? null,
      trace: ctx.state.trace,
      stepUp:
        principal.via === 'grant'
          ? (refusal) => {
              stepUp ??= refusal;
            }
          : undefined,
    };
    const answer = await mcp.answerMcpPost(
      () => mcp.createMcpServer(engine, principal, serverOptions),
      {
        accept: ctx.get('accept') || undefined,
        contentType: ctx.get('content-type') || undefined,
        protocolVersion: ctx.get('mcp-protocol-version') || undefined,
        body: message,
      },
      mcp.mcpToolCaller(engine, principal, serverOptions),
      { timeoutMs },
    );
    if (stepUp) throw stepUp;
    if (answer.json !== undefined) {
      // written as JSON once, as it was built (a tool call's answer): Koa would serialise the object again
      ctx.status = answer.status;
      ctx.type = 'application/json';
      ctx.body = answer.json;
    } else if (answer.body === undefined) {
      ctx.body = null; // an explicit empty body: Koa would otherwise send the status text
      ctx.status = answer.status;
    } else {
      ctx.status = answer.status;
      ctx.body = answer.body;
    }
  });

  const mcpMethodNotAllowed = async (ctx: Context) => {
    ctx.set('allow', 'POST');
    throw new GatewayError('method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST');
  };
  router.get('/api/mcp', mcpMethodNotAllowed);
  router.delete('/api/mcp', mcpMethodNotAllowed);
}
