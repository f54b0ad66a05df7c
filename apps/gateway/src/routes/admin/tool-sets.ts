import { assertMayEditToolSets, GatewayError, Params, type ToolSetRule, Type } from '@portico/core';
import { publicToolSet } from '../../records/tool-sets.js';
import { validator, type WorkspaceRoutes } from './guards.js';

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

const toolSetBody = validator(SaveToolSet);

/** `…/tool-sets`: the tool sets of a workspace (see `mountAdmin` for the two prefixes). */
export function mountToolSetRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
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
    assertMayEditToolSets(ctx.state.principal);
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
    const workspaceId = await workspaceOf(ctx);
    assertMayEditToolSets(ctx.state.principal);
    if (!(await engine.toolSets.delete(workspaceId, ctx.params.id as string))) {
      throw new GatewayError('not_found', `No tool set ${ctx.params.id}`);
    }
    ctx.status = 204;
  });
}
