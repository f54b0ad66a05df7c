import type Router from '@koa/router';
import { type Engine, GatewayError } from '@portico/core';
import type { Context } from 'koa';
import type { GatewayState } from '../../http/state.js';
import { mountAuditRoutes } from './audit.js';
import { mountConnectionRoutes } from './connections.js';
import { mountEventRoutes } from './events.js';
import { requireAdmin, type WorkspaceOf, type WorkspaceRoutes } from './guards.js';
import { mountIntegrationRoutes } from './integrations.js';
import { mountKeyRoutes } from './keys.js';
import { mountMemberRoutes } from './members.js';
import { mountToolSetRoutes } from './tool-sets.js';
import { mountWorkspaceAdmin } from './workspaces.js';

/**
 * The admin API. Every route of a workspace (keys, integrations, connections, tool sets, audit) is served twice:
 * under `/api/admin/…`, acting on the key's own workspace, and under `/api/admin/workspaces/{id}/…`, where an operator
 * key reaches any workspace and a workspace admin key only its own: another workspace's id answers 404, as one that
 * does not exist. Creating, renaming and deleting workspaces is for operator keys (workspaces.ts).
 */
export function mountAdmin(router: Router<GatewayState>, engine: Engine, body: (ctx: Context) => Promise<unknown>): void {
  const own: WorkspaceOf = async (ctx) => {
    requireAdmin(ctx.state.principal);
    return ctx.state.principal.workspaceId;
  };
  const addressed: WorkspaceOf = async (ctx) => {
    const principal = ctx.state.principal;
    requireAdmin(principal);
    const id = ctx.params.workspace as string;
    if (principal.scopes.operator) return (await engine.workspaces.require(id)).id;
    if (id !== principal.workspaceId) throw new GatewayError('not_found', `No workspace ${id}`);
    return id;
  };
  mountWorkspaceAdmin(router, engine, body);
  for (const [prefix, workspaceOf] of [
    ['', own],
    ['/workspaces/:workspace', addressed],
  ] as const) {
    const routes: WorkspaceRoutes = { router, prefix, workspaceOf, engine, body };
    mountKeyRoutes(routes);
    mountIntegrationRoutes(routes);
    mountConnectionRoutes(routes);
    mountAuditRoutes(routes);
    mountToolSetRoutes(routes);
    mountMemberRoutes(routes);
    mountEventRoutes(routes);
  }
}
