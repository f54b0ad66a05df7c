import { GatewayError, MEMBER_ROLES, type MemberRecord, type MemberRole, Params, type Principal, Type } from '@portico/core';
import { type PageKit, validator } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField, when } from './layout.js';
import type { DashboardSession } from './session.js';

const Invite = Params({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  role: Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role))),
  access: Type.Union([Type.Literal('read_only'), Type.Literal('full')]),
});
const inviteForm = validator(Invite);

/** The role the signed-in person has, for what they may hand out: a member's own; an admin key counts as admin. */
export async function roleOf(kit: PageKit, principal: Principal): Promise<MemberRole | undefined> {
  if (!principal.memberId) return undefined;
  return (await kit.engine.store.members.get(principal.workspaceId, principal.memberId))?.role;
}

function membersPage(
  session: DashboardSession,
  members: MemberRecord[],
  signInName: string | undefined,
  mayRemove: (m: MemberRecord) => boolean,
): Html {
  const narrowing = (m: MemberRecord) =>
    [
      m.narrowing.services ? m.narrowing.services.join(', ') : 'all services',
      m.narrowing.readOnly ? 'read-only' : '',
      m.narrowing.toolSet ? `tool set ${m.narrowing.toolSet}` : '',
    ]
      .filter(Boolean)
      .join(', ');
  return html`<h1>Members</h1>
<p class="lead">The people of this workspace. They sign in ${signInName ? html`with <strong>${signInName}</strong>` : 'with the firm’s identity provider (not configured: see docs/workspaces.md)'} and connect their own assistants; each assistant can do at most what its person may. Owners and admins also manage the workspace.</p>
<section class="panel" aria-labelledby="invite">
  <h2 id="invite">Invite a person</h2>
  <form method="post" action="/dashboard/members" autocomplete="off">
    ${csrfField(session)}
    <label for="email">Email</label>
    <span class="hint" id="email-hint">As the identity provider knows it: their first sign-in with this address makes them this member.</span>
    <input id="email" name="email" type="email" required maxlength="320" aria-describedby="email-hint">
    <label for="member-name">Name (optional)</label>
    <input id="member-name" name="name" type="text" maxlength="200">
    <fieldset>
      <legend>Role</legend>
      <label class="radio"><input type="radio" name="role" value="member" checked> Member: calls operations, manages their own assistants</label>
      <label class="radio"><input type="radio" name="role" value="admin"> Admin: also manages keys, integrations and members</label>
      <label class="radio"><input type="radio" name="role" value="owner"> Owner: also manages admins</label>
    </fieldset>
    <fieldset>
      <legend>Access</legend>
      <label class="radio"><input type="radio" name="access" value="full" checked> Read and write</label>
      <label class="radio"><input type="radio" name="access" value="read_only"> Read-only</label>
    </fieldset>
    <div class="actions"><button type="submit">Invite</button></div>
  </form>
</section>
<h2>People</h2>
<div class="table-wrap">
<table class="stack">
  <thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">May use</th><th scope="col">Signed in</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>
  ${members.map(
    (m) => html`<tr data-member="${m.id}">
    <td data-label="Person"><strong>${m.name ?? m.email}</strong> <span class="hint">${m.email}</span> <code class="hint">${m.id}</code></td>
    <td data-label="Role">${m.role}${m.source === 'group' ? ' (from groups)' : ''}</td>
    <td data-label="May use">${narrowing(m)}</td>
    <td data-label="Signed in">${m.lastSignInAt ? when(m.lastSignInAt) : html`<span class="badge warn">Invited</span>`}</td>
    <td data-label="">${
      mayRemove(m)
        ? html`<form class="inline" method="post" action="/dashboard/members/${m.id}/remove" data-confirm="Remove ${m.email}? Their assistants' access ends at once.">
      ${csrfField(session)}<button type="submit" class="danger">Remove</button></form>`
        : ''
    }</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>`;
}

/** The members page (admins): who is in the workspace, invitations, removal — each within the admin's own powers. */
export function mountMembers(kit: PageKit, signInName: string | undefined): void {
  const { engine, route, show, flash, redirect } = kit;
  route('GET', '/dashboard/members', async (r) => {
    const members = await engine.store.members.list(r.principal.workspaceId);
    const role = await roleOf(kit, r.principal);
    const mayRemove = (m: MemberRecord) => m.id !== r.principal.memberId && !engine.members.problem(r.principal, m, role);
    show(r, 'members', 'Members', membersPage(r.session, members, signInName, mayRemove));
  });
  route('POST', '/dashboard/members', async (r) => {
    const input = inviteForm(r.form);
    const member = await engine.members.invite(
      r.principal.workspaceId,
      { email: input.email, name: input.name ?? null, role: input.role, narrowing: input.access === 'read_only' ? { readOnly: true } : {} },
      r.principal,
      await roleOf(kit, r.principal),
    );
    flash(r, 'ok', `${member.email} is invited as ${member.role}: they sign in with the identity provider.`);
    redirect(r.ctx, '/dashboard/members');
  });
  route('POST', '/dashboard/members/:id/remove', async (r) => {
    const id = r.params.id as string;
    if (id === r.principal.memberId) throw new GatewayError('bad_request', 'You cannot remove yourself: ask another admin');
    const removed = await engine.members.remove(r.principal.workspaceId, id, r.principal, await roleOf(kit, r.principal));
    flash(r, 'ok', `${removed.email} is removed; their grants are revoked.`);
    redirect(r.ctx, '/dashboard/members');
  });
}
