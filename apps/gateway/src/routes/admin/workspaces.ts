import type Router from '@koa/router';
import { describeUsage, type Engine, GatewayError, Params, Type } from '@portico/core';
import type { Context } from 'koa';
import type { GatewayState } from '../../http/state.js';
import { publicUsage, publicWorkspace } from '../../records/workspaces.js';
import { requireAdmin, requireOperator, validator } from './guards.js';

const CreateWorkspace = Params({
  id: Type.String({ minLength: 1, maxLength: 40 }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

const RenameWorkspace = Params({ name: Type.String({ minLength: 1, maxLength: 100 }) });

const DeleteWorkspace = Params({ confirm: Type.Optional(Type.String({ maxLength: 100 })) });

const createBody = validator(CreateWorkspace);
const renameBody = validator(RenameWorkspace);
const deleteBody = validator(DeleteWorkspace);

/**
 * `/api/admin/workspaces`: list (an operator sees every workspace, a workspace admin its own), create, show, rename and
 * delete (operator keys). Another workspace's id answers a workspace admin 404, as one that does not exist.
 */
export function mountWorkspaceAdmin(router: Router<GatewayState>, engine: Engine, body: (ctx: Context) => Promise<unknown>): void {
  /** The addressed workspace, visible to the caller (else 404). */
  const visible = async (ctx: Context): Promise<string> => {
    const principal = ctx.state.principal;
    requireAdmin(principal);
    const id = ctx.params.workspace as string;
    if (!principal.scopes.operator && id !== principal.workspaceId) throw new GatewayError('not_found', `No workspace ${id}`);
    return id;
  };

  router.get('/workspaces', async (ctx) => {
    requireAdmin(ctx.state.principal);
    const all = ctx.state.principal.scopes.operator
      ? await engine.workspaces.list()
      : [await engine.workspaces.require(ctx.state.principal.workspaceId)];
    const out = [];
    for (const workspace of all) out.push(publicWorkspace(workspace, (await engine.workspaces.summary(workspace.id)).usage));
    ctx.body = { workspaces: out };
  });

  router.post('/workspaces', async (ctx) => {
    requireOperator(ctx.state.principal);
    const input = createBody(await body(ctx));
    const workspace = await engine.workspaces.create({ id: input.id, ...(input.name ? { name: input.name } : {}) });
    ctx.status = 201;
    ctx.body = publicWorkspace(workspace, (await engine.workspaces.summary(workspace.id)).usage);
  });

  router.get('/workspaces/:workspace', async (ctx) => {
    const summary = await engine.workspaces.summary(await visible(ctx));
    ctx.body = publicWorkspace(summary, summary.usage);
  });

  router.patch('/workspaces/:workspace', async (ctx) => {
    const id = await visible(ctx);
    requireOperator(ctx.state.principal);
    const input = renameBody(await body(ctx));
    const workspace = await engine.workspaces.rename(id, input.name);
    ctx.body = publicWorkspace(workspace, (await engine.workspaces.summary(id)).usage);
  });

  // Deletes the workspace and everything it holds once `confirm` repeats its id (in the body, or ?confirm=);
  // without it, 400 saying what would be removed.
  router.delete('/workspaces/:workspace', async (ctx) => {
    const id = await visible(ctx);
    requireOperator(ctx.state.principal);
    const input = deleteBody((await body(ctx)) ?? {});
    const confirm = input.confirm ?? (typeof ctx.query.confirm === 'string' ? ctx.query.confirm : undefined);
    const removed = await engine.workspaces.delete(id, confirm);
    ctx.body = { id, deleted: true, removed: publicUsage(removed), message: `Deleted workspace ${id}: ${describeUsage(removed)}` };
  });
}
