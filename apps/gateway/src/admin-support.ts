import type { RouterContext } from '@koa/router';
import { compileParams, GatewayError, type Principal, problemList, type Static, type TObject } from '@portico/core';
import type { GatewayState } from './state.js';

/** A checker for an admin request body: the value typed by `schema`, or `bad_request` naming every problem. */
export function validator<T extends TObject>(schema: T) {
  const compiled = compileParams(schema);
  return (value: unknown): Static<T> => {
    if (!compiled.check(value)) {
      const problems = compiled.problems(value).map((line) => line.replace(/^params\b/, 'body'));
      throw new GatewayError('bad_request', `Invalid body: ${problemList(problems)}`);
    }
    return value as Static<T>;
  };
}

/** Which workspace a route acts on, once the caller is known to be allowed there; throws otherwise. */
export type WorkspaceOf = (ctx: RouterContext<GatewayState>) => Promise<string>;

export function requireAdmin(principal: Principal): void {
  if (!principal.scopes.admin) throw new GatewayError('forbidden', 'This API key is not an admin key');
}
