import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import {
  compileParams,
  compilerReady,
  type Engine,
  GatewayError,
  type Principal,
  problemList,
  type Static,
  type TObject,
} from '@portico/core';
import type { Context } from 'koa';
import type { GatewayState } from '../../http/state.js';

/**
 * Middleware of the admin API: its bodies are checked by typebox validators, synchronously, and core loads typebox's
 * compiler with the first validation (`compilerReady`); the first admin request waits for it.
 */
export async function compilerLoaded(_ctx: Context, next: () => Promise<unknown>): Promise<void> {
  const compiling = compilerReady();
  if (compiling) await compiling;
  await next();
}

/**
 * A checker for an admin request body: the value typed by `schema`, or `bad_request` naming every problem. Used by
 * routes behind `compilerLoaded`.
 */
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

/** Operator keys only; `forbidden` otherwise (said only of routes whose target a workspace admin may see). */
export function requireOperator(principal: Principal): void {
  requireAdmin(principal);
  if (!principal.scopes.operator) throw new GatewayError('forbidden', 'Only an operator key may manage workspaces');
}

/** Where one family of a workspace's admin routes is mounted: under which prefix, for which workspace. */
export interface WorkspaceRoutes {
  router: Router<GatewayState>;
  /** `''` (the key's own workspace) or `/workspaces/:workspace` (one named in the path). */
  prefix: string;
  workspaceOf: WorkspaceOf;
  engine: Engine;
  /** Reads the request's JSON body. */
  body: (ctx: Context) => Promise<unknown>;
}
