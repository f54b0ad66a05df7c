import type { ApiKeyRecord, ConnectionRecord, IntegrationState } from '@portico/core';
import { type Html, html } from './html.js';
import { csrfField, when } from './layout.js';
import type { DashboardSession } from './session.js';

export interface IntegrationView {
  service: string;
  name: string;
  description: string;
  operations: number;
  state: IntegrationState;
  connection: ConnectionRecord | undefined;
}

export function connectionBadge(connection: ConnectionRecord | undefined): Html {
  if (!connection) return html`<span class="badge off">Not connected</span>`;
  if (connection.status === 'needs_reconnect') return html`<span class="badge warn">Needs re-connection</span>`;
  return html`<span class="badge ok">Connected</span>`;
}

/** Whom the connection acts as upstream (`acting_as`, asked of the application when it was stored), in words. */
export function actingAs(connection: ConnectionRecord | undefined): string | undefined {
  const value = connection?.meta.acting_as as { account?: { name?: unknown }; user?: { name?: unknown; email?: unknown } } | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const user =
    typeof value.user?.name === 'string' ? value.user.name + (typeof value.user.email === 'string' ? ` <${value.user.email}>` : '') : '';
  const account = typeof value.account?.name === 'string' ? value.account.name : '';
  return [user, account].filter(Boolean).join(' · ') || undefined;
}

function switchForm(session: DashboardSession, view: IntegrationView, protocol: 'mcp' | 'rest'): Html {
  const on = protocol === 'mcp' ? view.state.mcpEnabled : view.state.restEnabled;
  const label = protocol === 'mcp' ? 'MCP' : 'REST';
  return html`<form class="inline" method="post" action="/dashboard/integrations/${view.service}/switch">
  ${csrfField(session)}
  <input type="hidden" name="protocol" value="${protocol}">
  <input type="hidden" name="enabled" value="${on ? 'off' : 'on'}">
  <button type="submit" role="switch" aria-checked="${on ? 'true' : 'false'}" aria-label="${label} access to ${view.name}" data-switch="${protocol}">${label} ${on ? 'on' : 'off'}</button>
</form>`;
}

export function integrationsPage(session: DashboardSession, views: IntegrationView[]): Html {
  return html`<h1>Integrations</h1>
<p class="lead">Each installed integration: whether Portico can reach it, and which doors (MCP, REST) serve it in this workspace.</p>
${views.length === 0 ? html`<p class="panel">No integration is installed. Add plugin packages and list them in <code>PORTICO_PLUGINS</code>.</p>` : ''}
<div class="cards">
${views.map(
  (view) => html`<section class="card" aria-labelledby="int-${view.service}" data-service="${view.service}">
  <div class="card-head">
    <h2 id="int-${view.service}">${view.name}</h2>
    ${connectionBadge(view.connection)}
  </div>
  <p class="meta"><code>${view.service}</code> · ${view.operations} operations</p>
  ${actingAs(view.connection) ? html`<p class="meta" data-acting-as>Acting as ${actingAs(view.connection)}</p>` : ''}
  <div class="switches">${switchForm(session, view, 'mcp')}${switchForm(session, view, 'rest')}</div>
  <div class="links">
    <a href="/dashboard/integrations/${view.service}">Configure<span class="sr-only"> ${view.name}</span></a>
    <a href="/dashboard/operations?service=${view.service}">Operations<span class="sr-only"> of ${view.name}</span></a>
    <a href="/dashboard/integrations/${view.service}/openapi.json">OpenAPI<span class="sr-only"> document of ${view.name}</span></a>
  </div>
</section>`,
)}
</div>`;
}

export interface ConfigureView extends IntegrationView {
  oauth: boolean;
  oauthProblem: string | undefined;
  tokenHelp: string | undefined;
  defaultBaseUrl: string;
  baseUrlOverride: string | undefined;
  lastRefresh: string | undefined;
  lastError: { at: string; code: string | null; status: number } | undefined;
}

export function configurePage(session: DashboardSession, view: ConfigureView): Html {
  const c = view.connection;
  return html`<p><a href="/dashboard/integrations">← Integrations</a></p>
<h1>Configure ${view.name}</h1>
<p class="lead">${view.description}</p>

<section class="panel" aria-labelledby="doors">
  <h2 id="doors">Access</h2>
  <p>Changes are stored in the database: every gateway instance sharing it applies them, as with <code>portico integrations configure</code>.</p>
  <div class="switches">${switchForm(session, view, 'mcp')}${switchForm(session, view, 'rest')}</div>
</section>

<section class="panel" aria-labelledby="conn">
  <h2 id="conn">Connection ${connectionBadge(c)}</h2>
  ${
    c
      ? html`<dl class="facts">
    <dt>Kind</dt><dd>${c.kind === 'oauth2' ? 'OAuth' : 'Token'}</dd>
    <dt>Acting as</dt><dd>${actingAs(c) ?? 'not known (the application did not say)'}</dd>
    <dt>Connected</dt><dd>${when(c.createdAt)}</dd>
    <dt>Token expires</dt><dd>${c.expiresAt ? when(c.expiresAt) : 'does not expire'}</dd>
    <dt>Last refresh</dt><dd>${view.lastRefresh ? when(view.lastRefresh) : c.kind === 'oauth2' ? 'not refreshed yet' : 'not refreshed (a token)'}</dd>
    <dt>Last error</dt><dd>${view.lastError ? html`${when(view.lastError.at)} · ${view.lastError.status} ${view.lastError.code ?? ''}` : 'none'}</dd>
    <dt>Updated</dt><dd>${when(c.updatedAt)}</dd>
    ${Object.entries(c.meta)
      .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
      .map(([name, value]) => html`<dt>${name}</dt><dd>${String(value)}</dd>`)}
  </dl>
  <form method="post" action="/dashboard/integrations/${view.service}/disconnect" data-confirm="Disconnect ${view.name}? Its stored credentials are deleted.">
    ${csrfField(session)}
    <div class="actions"><button type="submit" class="danger">Disconnect</button></div>
  </form>`
      : html`<p>Not connected: calls to ${view.name} answer <code>not_connected</code> until a credential is stored.</p>`
  }
  ${
    view.oauth
      ? html`<h3>Connect with OAuth</h3>
  <p>Opens ${view.name}'s consent page; it sends you back here when you approve.</p>
  <form method="post" action="/dashboard/integrations/${view.service}/oauth">
    ${csrfField(session)}
    <button type="submit">${c ? 'Re-connect' : 'Connect'} with ${view.name}</button>
  </form>`
      : view.oauthProblem
        ? html`<p class="hint">${view.oauthProblem}</p>`
        : ''
  }
  ${
    view.tokenHelp !== undefined
      ? html`<h3>Connect with a token</h3>
  <form method="post" action="/dashboard/integrations/${view.service}/token" autocomplete="off">
    ${csrfField(session)}
    <label for="token">Token</label>
    ${view.tokenHelp ? html`<span class="hint" id="token-hint">${view.tokenHelp}</span>` : ''}
    <input id="token" name="token" type="password" required maxlength="8192" spellcheck="false"${view.tokenHelp ? html` aria-describedby="token-hint"` : ''}>
    <label for="meta">Connection facts <span class="hint">Optional, one <code>name=value</code> a line (e.g. <code>region=eu</code>).</span></label>
    <textarea id="meta" name="meta" rows="2"></textarea>
    <div class="actions"><button type="submit">Save token</button></div>
  </form>`
      : ''
  }
</section>

<section class="panel" aria-labelledby="policy">
  <h2 id="policy">Whose account</h2>
  <p>Calls made with an API key always act as the connection above. For the calls of people (their assistants, signed in
  with the identity provider), choose whose ${view.name} account acts:</p>
  <form method="post" action="/dashboard/integrations/${view.service}/policy">
    ${csrfField(session)}
    <fieldset>
      <legend>Connection policy</legend>
      ${(
        [
          ['personal_else_shared', 'Their own where they connected one, else the connection above (default)'],
          ['personal', 'Their own only: a person who has not connected theirs is told how to'],
          ['shared', 'The connection above, for everyone'],
        ] as const
      ).map(
        ([value, label]) =>
          html`<label class="radio"><input type="radio" name="policy" value="${value}"${view.state.connectionPolicy === value ? html` checked` : ''}> ${label}</label>`,
      )}
    </fieldset>
    <div class="actions"><button type="submit">Save policy</button></div>
  </form>
</section>

<section class="panel" aria-labelledby="upstream">
  <h2 id="upstream">Upstream address</h2>
  <p>Default: <code>${view.defaultBaseUrl}</code>${view.baseUrlOverride ? html`; set by the environment to <code>${view.baseUrlOverride}</code>, which wins over what is stored here` : ''}.</p>
  <form method="post" action="/dashboard/integrations/${view.service}/base-url">
    ${csrfField(session)}
    <label for="base_url">Base URL for this workspace</label>
    <span class="hint" id="base-hint">Leave empty to use the default.</span>
    <input id="base_url" name="base_url" type="url" value="${view.state.baseUrl ?? ''}" aria-describedby="base-hint" placeholder="https://…">
    <div class="actions"><button type="submit">Save base URL</button></div>
  </form>
</section>`;
}

export function oauthHandOff(name: string, url: string): Html {
  return html`<h1>Continue to ${name}</h1>
<p>Approve Portico's access on ${name}'s page; it sends you back to the gateway, which stores the tokens.</p>
<p><a class="button" href="${url}" data-follow>Continue to ${name}</a></p>
<p class="hint">The link is single-use and expires in 10 minutes.</p>`;
}

export function keyScope(record: ApiKeyRecord): string {
  const access = record.scopes.operator ? 'operator' : record.scopes.admin ? 'admin' : record.scopes.readOnly ? 'read-only' : 'full';
  const services = record.scopes.services === '*' ? 'all services' : record.scopes.services.join(', ');
  const toolSet = record.scopes.toolSet ? ` · tool set ${record.scopes.toolSet}` : '';
  return `${access} · ${services}${toolSet}`;
}

/** `mayRevoke`: whether the signed-in key may revoke a key (not one wider than itself, access/powers.ts). */
export function keysPage(
  session: DashboardSession,
  keys: ApiKeyRecord[],
  currentKeyId: string,
  mayRevoke: (key: ApiKeyRecord) => boolean = () => true,
): Html {
  const now = Date.now();
  const state = (k: ApiKeyRecord) =>
    k.revokedAt
      ? html`<span class="badge bad">Revoked</span>`
      : k.expiresAt && Date.parse(k.expiresAt) <= now
        ? html`<span class="badge warn">Expired</span>`
        : html`<span class="badge ok">Active</span>`;
  return html`<h1>API keys</h1>
<p class="lead">Keys of this workspace. A key is shown once when it is made; Portico keeps only its hash. Clients connected by OAuth are under <a href="/dashboard/grants">Connected clients</a>.</p>
<section class="panel" aria-labelledby="new">
  <h2 id="new">Create a key</h2>
  <form method="post" action="/dashboard/keys" autocomplete="off">
    ${csrfField(session)}
    <label for="name">Name</label>
    <span class="hint" id="name-hint">What or who uses it (e.g. "claude-desktop", "billing-sync").</span>
    <input id="name" name="name" type="text" required maxlength="100" aria-describedby="name-hint">
    <fieldset>
      <legend>Access</legend>
      <label class="radio"><input type="radio" name="access" value="read_only" checked> Read-only: only operations that read</label>
      <label class="radio"><input type="radio" name="access" value="full"> Full: read and write</label>
      <label class="radio"><input type="radio" name="access" value="admin"> Admin: full, plus the admin API and this dashboard</label>
    </fieldset>
    <label for="expires">Expires</label>
    <select id="expires" name="expires">
      <option value="never">Never</option>
      <option value="7">In 7 days</option>
      <option value="30" selected>In 30 days</option>
      <option value="90">In 90 days</option>
      <option value="365">In a year</option>
    </select>
    <div class="actions"><button type="submit">Create key</button></div>
  </form>
</section>
<h2>Keys</h2>
<div class="table-wrap">
<table class="stack">
  <thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>
  ${keys.map(
    (k) => html`<tr data-key="${k.id}">
    <td data-label="Name"><strong>${k.name}</strong> <code class="hint">${k.prefix}…</code></td>
    <td data-label="Scope">${keyScope(k)}</td>
    <td data-label="Created">${when(k.createdAt)}</td>
    <td data-label="Last used">${when(k.lastUsedAt)}</td>
    <td data-label="Expires">${k.expiresAt ? when(k.expiresAt) : 'never'}</td>
    <td data-label="State">${state(k)}</td>
    <td data-label="">${
      k.revokedAt
        ? ''
        : k.id === currentKeyId
          ? html`<span class="hint">signed in with it</span>`
          : !mayRevoke(k)
            ? html`<span class="hint">${k.scopes.operator ? 'operator key: only an operator may revoke it' : 'wider than your key'}</span>`
            : html`<form class="inline" method="post" action="/dashboard/keys/${k.id}/revoke" data-confirm="Revoke the key ${k.name}? Clients using it are refused at once.">
      ${csrfField(session)}<button type="submit" class="danger">Revoke<span class="sr-only"> ${k.name}</span></button></form>`
    }</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>`;
}
