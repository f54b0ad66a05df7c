import type Router from '@koa/router';
import {
  buildOpenApiDocument,
  connectionsOverview,
  type Engine,
  eventsFeed,
  GatewayError,
  type HttpMethod,
  invokeResultJson,
  queryValues,
  type RestInvocation,
  restInvocation,
} from '@portico/core';
import type { Context, Next } from 'koa';
import type { GatewayState } from '../http/state.js';

/** What the REST door needs of the gateway's options. */
export interface RestRouteOptions {
  engine: Engine;
  /** Public base URL, for OpenAPI `servers`. */
  publicUrl?: string;
}

/**
 * REST: `/api/v1/<service>/openapi.json` (the integration's OpenAPI document, for the key's tool set) and every
 * operation at its method and path under `/api/v1/<service>`. The route only translates the request into a call and
 * the result back; validation, credentials, retries and error mapping are core's.
 */
export function mountRest(
  router: Router<GatewayState>,
  options: RestRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
  readJson: (ctx: Context) => Promise<unknown>,
): void {
  const { engine } = options;
  // The connections overview (the MCP tool list_connections): the services this key may use and their state.
  router.get('/api/v1/connections', authenticate, async (ctx) => {
    ctx.body = await connectionsOverview(engine, ctx.state.principal);
  });
  // The events received from the applications (the MCP tool list_events), within the services this key may use.
  router.get('/api/v1/events', authenticate, async (ctx) => {
    const { since, service, type, limit } = ctx.query;
    ctx.body = await eventsFeed(engine, ctx.state.principal, { since, service, type, limit });
  });

  router.get('/api/v1/:service/openapi.json', authenticate, async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const integration = await engine.authorize(ctx.state.principal, service, 'rest');
    // Only the operations of the key's tool set, when it has one, and only reads for a read-only key.
    const allowed = await engine.allowedOperations(ctx.state.principal);
    const { readOnly } = ctx.state.principal.scopes;
    // The address the gateway serves (the server sets it once listening), unless the operator named a public URL.
    ctx.body = buildOpenApiDocument(integration, {
      baseUrl: options.publicUrl ?? engine.publicUrl ?? ctx.origin,
      ...(allowed || readOnly
        ? { include: (operation) => (!allowed || allowed.has(service, operation.name)) && (!readOnly || operation.access === 'read') }
        : {}),
    });
  });

  router.all('/api/v1/:service/{*rest}', authenticate, async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const integration = await engine.authorize(ctx.state.principal, service, 'rest');
    const path = ctx.path.slice(`/api/v1/${service}`.length) || '/';
    let body: Record<string, unknown> | undefined;
    if (ctx.method !== 'GET') {
      const parsed = await readJson(ctx);
      if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
        throw new GatewayError('bad_request', 'The request body must be a JSON object of parameters');
      }
      body = parsed as Record<string, unknown> | undefined;
    }
    let invocation: RestInvocation;
    try {
      invocation = restInvocation(integration, {
        method: ctx.method as HttpMethod,
        path,
        query: queryValues(ctx.querystring),
        ...(body ? { body } : {}),
      });
    } catch (error) {
      const allowed = integration.match(ctx.method, path);
      if (!allowed.found && allowed.allowed.length > 0) ctx.set('allow', allowed.allowed.join(', '));
      throw error;
    }
    ctx.state.operation = invocation.operation.name;
    const socket = ctx.req.socket;
    const key = ctx.req.headers['idempotency-key'];
    const result = await engine.invoke({
      principal: ctx.state.principal,
      protocol: 'rest',
      service,
      operation: invocation.operation.name,
      params: invocation.params,
      stringParams: invocation.stringParams,
      // a call still waiting for an upstream slot when its client has gone is dropped (upstream/limits.ts)
      callerGone: () => socket.destroyed,
      clientAddress: ctx.state.clientAddress ?? null,
      trace: ctx.state.trace,
      // checked by the pipeline (1 to 255 visible ASCII characters): a header sent twice, joined, is refused
      idempotencyKey: Array.isArray(key) ? key.join(', ') : key,
    });
    if (result.body === undefined) ctx.status = 204;
    else {
      // An object or array passed on unchanged: its bytes as the upstream sent them, not serialised again.
      const json = invokeResultJson(result);
      if (json) {
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = json;
      } else ctx.body = result.body;
    }
  });
}
