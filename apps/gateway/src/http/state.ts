import type { Principal } from '@portico/core';

/** What the gateway's middleware records on `ctx.state` for the handlers after it (and the access log). */
export interface GatewayState {
  principal: Principal;
  requestId: string;
  service?: string;
  operation?: string;
  /** The `WWW-Authenticate` value of a refusal with this code, where the path has one (routes/authorization.ts). */
  challenge?: (code: string) => string | undefined;
}
