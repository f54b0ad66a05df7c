import { assertGrantWithin, GatewayError, type GrantRecord, type Principal } from '@portico/core';
import type { PageKit } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField, when } from './layout.js';
import type { DashboardSession } from './session.js';

function scopeOf(g: GrantRecord): string {
  const { scopes } = g;
  const services = scopes.services === '*' ? 'all services' : scopes.services.join(', ');
  const access = scopes.readOnly ? ', read-only' : scopes.writes ? `, writes to ${scopes.writes.join(', ')}` : '';
  return `${services}${access}${scopes.toolSet ? `, tool set ${scopes.toolSet}` : ''}`;
}

function grantsPage(session: DashboardSession, grants: GrantRecord[], own: boolean, people: Map<string, string>): Html {
  const now = Date.now();
  const state = (g: GrantRecord) =>
    g.revokedAt
      ? html`<span class="badge bad">Revoked</span>`
      : g.expiresAt && Date.parse(g.expiresAt) <= now
        ? html`<span class="badge warn">Ended</span>`
        : html`<span class="badge ok">Active</span>`;
  return html`<h1>Connected clients</h1>
<p class="lead">${
    own
      ? 'The assistants you allowed to act for you (Claude, ChatGPT, other MCP clients).'
      : 'What people of this workspace allowed OAuth clients (Claude, ChatGPT, other MCP clients) to do.'
  } Revoking ends the client's tokens at once.</p>
<div class="table-wrap">
<table class="stack">
  <thead><tr><th scope="col">Client</th><th scope="col">For</th><th scope="col">May use</th><th scope="col">Allowed</th><th scope="col">Last used</th><th scope="col">Ends</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>
  ${grants.map(
    (g) => html`<tr data-grant="${g.id}">
    <td data-label="Client"><strong>${g.clientName}</strong> <code class="hint">${g.id}</code></td>
    <td data-label="For">${g.memberId ? (people.get(g.memberId) ?? g.memberId) : 'the workspace (an admin key)'}</td>
    <td data-label="May use">${scopeOf(g)}</td>
    <td data-label="Allowed">${when(g.createdAt)}</td>
    <td data-label="Last used">${when(g.lastUsedAt)}</td>
    <td data-label="Ends">${g.expiresAt ? when(g.expiresAt) : 'never'}</td>
    <td data-label="State">${state(g)}</td>
    <td data-label="">${
      g.revokedAt
        ? ''
        : html`<form class="inline" method="post" action="/dashboard/grants/${g.id}/revoke" data-confirm="Revoke ${g.clientName}'s access? Its tokens stop working at once.">
      ${csrfField(session)}<button type="submit" class="danger">Revoke</button></form>`
    }</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>`;
}

/** Which grants a person sees: an admin every grant of the workspace, a member only their own. */
const visibleTo = (principal: Principal) => (g: GrantRecord) =>
  principal.scopes.admin || (!!principal.memberId && g.memberId === principal.memberId);

/** The grants of the session's workspace, listed with their client and last use, and revoked. */
export function mountGrants(kit: PageKit): void {
  const { engine, route, show, flash, redirect } = kit;
  route(
    'GET',
    '/dashboard/grants',
    async (r) => {
      const grants = (await engine.store.authorization.listGrants(r.principal.workspaceId)).filter(visibleTo(r.principal));
      const people = new Map((await engine.store.members.list(r.principal.workspaceId)).map((m) => [m.id, m.name ?? m.email]));
      show(r, 'keys', 'Connected clients', grantsPage(r.session, grants, !r.principal.scopes.admin, people));
    },
    { members: true },
  );
  route(
    'POST',
    '/dashboard/grants/:id/revoke',
    async (r) => {
      const id = r.params.id as string;
      const grant = await engine.store.authorization.getGrant(id);
      if (!grant || grant.workspaceId !== r.principal.workspaceId || grant.revokedAt || !visibleTo(r.principal)(grant)) {
        throw new GatewayError('not_found', 'No active grant with this id');
      }
      // one's own grant, or, for an admin, a grant within their powers (as for keys)
      assertGrantWithin(r.principal, grant, 'revoke');
      const revoked = await engine.store.authorization.revokeGrant(r.principal.workspaceId, id, new Date().toISOString());
      if (!revoked) throw new GatewayError('not_found', 'No active grant with this id');
      flash(r, 'ok', `${grant.clientName} no longer has access.`);
      redirect(r.ctx, '/dashboard/grants');
    },
    { members: true },
  );
}
