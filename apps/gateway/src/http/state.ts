import type { Principal, TraceContext } from '@portico/core';

/** What the gateway's middleware records on `ctx.state` for the handlers after it (and the access log). */
export interface GatewayState {
  principal: Principal;
  requestId: string;
  /** The W3C trace this request belongs to (server/middleware.ts): in its log lines and upstream calls. */
  traceId: string;
  /** That trace: the doors hand it to the engine (its upstream requests carry it, its log lines name it). */
  trace: TraceContext;
  /** The client's address: the peer's, or from X-Forwarded-For behind a trusted proxy (server/client-address.ts). */
  clientAddress: string;
  service?: string;
  operation?: string;
  /** The `WWW-Authenticate` value of a refusal with this code, where the path has one (routes/authorization.ts). */
  challenge?: (code: string, scope?: string) => string | undefined;
}
