import type Router from '@koa/router';
import {
  describeUsage,
  type Engine,
  GatewayError,
  Params,
  type ResolvedToolSet,
  type ToolSetRule,
  Type,
  type Workspace,
  type WorkspaceUsage,
} from '@portico/core';
import type { Context } from 'koa';
import { requireAdmin, validator, type WorkspaceOf } from './admin-support.js';
import type { GatewayState } from './state.js';

const CreateWorkspace = Params({
  id: Type.String({ minLength: 1, maxLength: 40 }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

const RenameWorkspace = Params({ name: Type.String({ minLength: 1, maxLength: 100 }) });

const DeleteWorkspace = Params({ confirm: Type.Optional(Type.String({ maxLength: 100 })) });

const SaveToolSet = Params({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  rules: Type.Array(
    Type.Union([
      Type.String({ minLength: 1, maxLength: 130 }),
      Type.Object(
        { match: Type.String({ minLength: 1, maxLength: 130 }), read_only: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ]),
    { minItems: 1, maxItems: 200 },
  ),
});

const createBody = validator(CreateWorkspace);
const renameBody = validator(RenameWorkspace);
const deleteBody = validator(DeleteWorkspace);
const toolSetBody = validator(SaveToolSet);

/** Operator keys only; `forbidden` otherwise (said only of routes whose target a workspace admin may see). */
function requireOperator(ctx: Context): void {
  requireAdmin(ctx.state.principal);
  if (!ctx.state.principal.scopes.operator) throw new GatewayError('forbidden', 'Only an operator key may manage workspaces');
}

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
    requireOperator(ctx);
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
    requireOperator(ctx);
    const input = renameBody(await body(ctx));
    const workspace = await engine.workspaces.rename(id, input.name);
    ctx.body = publicWorkspace(workspace, (await engine.workspaces.summary(id)).usage);
  });

  // Deletes the workspace and everything it holds once `confirm` repeats its id (in the body, or ?confirm=);
  // without it, 400 saying what would be removed.
  router.delete('/workspaces/:workspace', async (ctx) => {
    const id = await visible(ctx);
    requireOperator(ctx);
    const input = deleteBody((await body(ctx)) ?? {});
    const confirm = input.confirm ?? (typeof ctx.query.confirm === 'string' ? ctx.query.confirm : undefined);
    const removed = await engine.workspaces.delete(id, confirm);
    ctx.body = { id, deleted: true, removed: publicUsage(removed), message: `Deleted workspace ${id}: ${describeUsage(removed)}` };
  });
}

/** `…/tool-sets`: the tool sets of a workspace (see `mountAdmin` for the two prefixes). */
export function mountToolSetRoutes(
  router: Router<GatewayState>,
  prefix: string,
  workspaceOf: WorkspaceOf,
  engine: Engine,
  body: (ctx: Context) => Promise<unknown>,
): void {
  router.get(`${prefix}/tool-sets`, async (ctx) => {
    ctx.body = { tool_sets: (await engine.toolSets.list(await workspaceOf(ctx))).map(publicToolSet) };
  });

  router.get(`${prefix}/tool-sets/:id`, async (ctx) => {
    const found = await engine.toolSets.get(await workspaceOf(ctx), ctx.params.id as string);
    if (!found) throw new GatewayError('not_found', `No tool set ${ctx.params.id}`);
    ctx.body = publicToolSet(found);
  });

  // Creates or replaces the set. Every rule must match at least one operation: 400 naming the rules that do not.
  router.put(`${prefix}/tool-sets/:id`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = toolSetBody(await body(ctx));
    const rules: ToolSetRule[] = input.rules.map((rule) =>
      typeof rule === 'string' ? { match: rule, readOnly: false } : { match: rule.match, readOnly: rule.read_only ?? false },
    );
    const saved = await engine.toolSets.save(workspaceId, {
      id: ctx.params.id as string,
      rules,
      ...(input.name ? { name: input.name } : {}),
    });
    ctx.status = saved.record.version === 1 ? 201 : 200;
    ctx.body = publicToolSet(saved);
  });

  router.delete(`${prefix}/tool-sets/:id`, async (ctx) => {
    if (!(await engine.toolSets.delete(await workspaceOf(ctx), ctx.params.id as string))) {
      throw new GatewayError('not_found', `No tool set ${ctx.params.id}`);
    }
    ctx.status = 204;
  });
}

export function publicUsage(usage: WorkspaceUsage) {
  return {
    keys: usage.keys,
    connections: usage.connections,
    integrations: usage.integrations,
    tool_sets: usage.toolSets,
    audit_records: usage.auditRecords,
  };
}

export function publicWorkspace(workspace: Workspace, usage: WorkspaceUsage) {
  return { id: workspace.id, name: workspace.name, created_at: workspace.createdAt, holds: publicUsage(usage) };
}

export function publicToolSet({ record, operations }: ResolvedToolSet) {
  return {
    id: record.id,
    name: record.name,
    rules: record.rules.map((rule) => ({ match: rule.match, read_only: rule.readOnly })),
    operations,
    version: record.version,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}
