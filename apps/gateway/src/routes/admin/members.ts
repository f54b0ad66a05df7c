import { GatewayError, MEMBER_ROLES, type MemberRecord, Params, Type } from '@portico/core';
import { validator, type WorkspaceRoutes } from './guards.js';

const Invite = Params({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  role: Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role))),
  services: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  read_only: Type.Optional(Type.Boolean()),
  tool_set: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
});
const inviteBody = validator(Invite);

/** A member as the admin API shows it. */
export function publicMember(m: MemberRecord) {
  return {
    id: m.id,
    email: m.email,
    name: m.name,
    role: m.role,
    services: m.narrowing.services ?? '*',
    read_only: m.narrowing.readOnly ?? false,
    tool_set: m.narrowing.toolSet ?? null,
    source: m.source,
    signed_in: m.issuer !== null,
    created_at: m.createdAt,
    last_sign_in_at: m.lastSignInAt,
  };
}

/**
 * `…/members`: the people of a workspace. An admin key invites and removes members within its own powers (a key
 * narrowed to Notion invites no one wider than that); owners are made and removed only by operator keys.
 */
export function mountMemberRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
  router.get(`${prefix}/members`, async (ctx) => {
    ctx.body = { members: (await engine.store.members.list(await workspaceOf(ctx))).map(publicMember) };
  });

  router.post(`${prefix}/members`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = inviteBody(await body(ctx));
    const services = input.services;
    const unknown = (services ?? []).filter((s) => !engine.registry.get(s));
    if (unknown.length > 0) throw new GatewayError('bad_request', `Unknown services: ${unknown.join(', ')}`);
    const member = await engine.members.invite(
      workspaceId,
      {
        email: input.email,
        name: input.name ?? null,
        role: input.role,
        narrowing: {
          ...(services ? { services } : {}),
          ...(input.read_only ? { readOnly: true } : {}),
          ...(input.tool_set ? { toolSet: input.tool_set } : {}),
        },
      },
      ctx.state.principal,
    );
    ctx.status = 201;
    ctx.body = publicMember(member);
  });

  router.delete(`${prefix}/members/:id`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    await engine.members.remove(workspaceId, ctx.params.id as string, ctx.state.principal);
    ctx.status = 204;
  });
}
