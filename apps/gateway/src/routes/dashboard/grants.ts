import { GatewayError, type GrantRecord } from '@portico/core';
import type { PageKit } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField, when } from './layout.js';
import type { DashboardSession } from './session.js';

function scopeOf(g: GrantRecord): string {
  const what = g.scopes.toolSet
    ? `tool set ${g.scopes.toolSet}`
    : g.scopes.services === '*'
      ? 'all services'
      : g.scopes.services.join(', ');
  return `${what}${g.scopes.readOnly ? ', read-only' : ''}`;
}

function grantsPage(session: DashboardSession, grants: GrantRecord[]): Html {
  const now = Date.now();
  const state = (g: GrantRecord) =>
    g.revokedAt
      ? html`<span class="badge bad">Revoked</span>`
      : g.expiresAt && Date.parse(g.expiresAt) <= now
        ? html`<span class="badge warn">Ended</span>`
        : html`<span class="badge ok">Active</span>`;
  return html`<h1>Connected clients</h1>
<p class="lead">What admins allowed OAuth clients (Claude, ChatGPT, other MCP clients) to do in this workspace. Revoking ends the client's tokens at once.</p>
<div class="table-wrap">
<table class="stack">
  <thead><tr><th scope="col">Client</th><th scope="col">May use</th><th scope="col">Allowed</th><th scope="col">Last used</th><th scope="col">Ends</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>
  ${grants.map(
    (g) => html`<tr data-grant="${g.id}">
    <td data-label="Client"><strong>${g.clientName}</strong> <code class="hint">${g.id}</code></td>
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

/** The grants of the session's workspace, listed with their client and last use, and revoked. */
export function mountGrants(kit: PageKit): void {
  const { engine, route, show, flash, redirect } = kit;
  route('GET', '/dashboard/grants', async (r) => {
    show(r, 'keys', 'Connected clients', grantsPage(r.session, await engine.store.authorization.listGrants(r.principal.workspaceId)));
  });
  route('POST', '/dashboard/grants/:id/revoke', async (r) => {
    const id = r.params[0] as string;
    const grant = await engine.store.authorization.getGrant(id);
    const revoked = await engine.store.authorization.revokeGrant(r.principal.workspaceId, id, new Date().toISOString());
    if (!revoked || !grant) throw new GatewayError('not_found', 'No active grant with this id');
    flash(r, 'ok', `${grant.clientName} no longer has access.`);
    redirect(r.ctx, '/dashboard/grants');
  });
}
