import {
  type ConnectionPolicy,
  type ConnectionRecord,
  GatewayError,
  type IntegrationState,
  Params,
  type Principal,
  Type,
  toGatewayError,
} from '@portico/core';
import { type PageKit, type PageRequest, validator } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField, when } from './layout.js';
import { actingAs, connectionBadge, oauthHandOff } from './pages.js';
import type { DashboardSession } from './session.js';

const Token = Params({ token: Type.String({ minLength: 1, maxLength: 8192 }) });
const tokenForm = validator(Token);

/** One integration as a person sees it on their accounts page. */
interface AccountView {
  service: string;
  name: string;
  policy: ConnectionPolicy;
  state: IntegrationState;
  own: ConnectionRecord | undefined;
  shared: ConnectionRecord | undefined;
  /** Whether the person can connect with OAuth here (the plugin offers it and the operator configured a client). */
  oauth: boolean;
  /** The plugin takes a pasted token; its help text. */
  tokenHelp: string | undefined;
}

const POLICY_WORDS: Record<ConnectionPolicy, string> = {
  shared: 'Everyone acts as the workspace’s shared account here: your own is not used.',
  personal: 'Each person acts as their own account here: connect yours to use it.',
  personal_else_shared: 'Your own account where you connect one; otherwise the workspace’s shared account.',
};

function inUse(view: AccountView): Html {
  if (view.policy === 'shared' || (!view.own && view.policy === 'personal_else_shared')) {
    return view.shared
      ? html`the workspace’s account${actingAs(view.shared) ? html` (${actingAs(view.shared)})` : ''}`
      : html`nothing yet: the workspace has not connected it`;
  }
  return view.own ? html`your own account` : html`nothing until you connect your own account`;
}

function accountCard(session: DashboardSession, view: AccountView): Html {
  const own = view.own;
  const usable = view.policy !== 'shared';
  return html`<section class="card" aria-labelledby="acct-${view.service}" data-service="${view.service}">
  <div class="card-head">
    <h2 id="acct-${view.service}">${view.name}</h2>
    ${connectionBadge(own)}
  </div>
  <p class="meta">${POLICY_WORDS[view.policy]}</p>
  ${own ? html`<p class="meta" data-acting-as>Your account: ${actingAs(own) ?? 'connected (the application did not say whose)'} · connected ${when(own.createdAt)}</p>` : ''}
  <p class="meta" data-in-use>Your calls act as: ${inUse(view)}</p>
  ${
    usable && view.oauth
      ? html`<form class="inline" method="post" action="/dashboard/connections/${view.service}/oauth">
    ${csrfField(session)}<button type="submit">${own ? 'Re-connect' : 'Connect'} your ${view.name} account</button></form>`
      : ''
  }
  ${
    usable && view.tokenHelp !== undefined
      ? html`<form method="post" action="/dashboard/connections/${view.service}/token" autocomplete="off">
    ${csrfField(session)}
    <label for="token-${view.service}">Your own ${view.name} token</label>
    ${view.tokenHelp ? html`<span class="hint" id="token-hint-${view.service}">${view.tokenHelp}</span>` : ''}
    <input id="token-${view.service}" name="token" type="password" required maxlength="8192" spellcheck="false">
    <div class="actions"><button type="submit">Save your token</button></div>
  </form>`
      : ''
  }
  ${
    own
      ? html`<form class="inline" method="post" action="/dashboard/connections/${view.service}/disconnect" data-confirm="Disconnect your ${view.name} account? Its stored tokens are deleted.">
    ${csrfField(session)}<button type="submit" class="danger">Disconnect yours</button></form>`
      : ''
  }
</section>`;
}

function accountsPage(session: DashboardSession, views: AccountView[]): Html {
  return html`<h1>Your accounts</h1>
<p class="lead">Connect your own account in each application, so that what your assistants do there is done as you: your
name on the time entries, messages and notes they write, and only what you may see. Your tokens are stored encrypted,
used only for your calls, and deleted when you disconnect or leave the workspace.</p>
<div class="cards">${views.map((view) => accountCard(session, view))}</div>`;
}

/** The integrations a person may use: their services scope, and not switched off on both doors. */
function usableBy(principal: Principal, service: string, state: IntegrationState): boolean {
  const { services } = principal.scopes;
  return (services === '*' || services.includes(service)) && (state.mcpEnabled || state.restEnabled);
}

/** The signed-in person's id: only people have accounts of their own (a key acts as the workspace). */
function personOf(r: PageRequest): string {
  if (!r.principal.memberId) {
    throw new GatewayError(
      'forbidden',
      'Only a person signed in with the identity provider has accounts of their own; a key acts as the workspace',
    );
  }
  return r.principal.memberId;
}

/**
 * A person's own upstream accounts: the page that lists them with the workspace's policy for each, and connects (OAuth
 * or a pasted token) and disconnects them. Everything goes through the engine, scoped to the signed-in member.
 */
export function mountConnections(kit: PageKit): void {
  const { engine, route, show, flash, redirect } = kit;

  const usableIntegration = async (r: PageRequest, service: string) => {
    const integration = engine.requireIntegration(service);
    const state = await engine.integrationState(r.principal.workspaceId, integration.service);
    if (!usableBy(r.principal, integration.service, state)) throw new GatewayError('not_found', `You may not use ${service} here`);
    if (state.connectionPolicy === 'shared') {
      throw new GatewayError('bad_request', `${integration.plugin.displayName} acts as the workspace’s shared account for everyone here`);
    }
    return integration;
  };

  route(
    'GET',
    '/dashboard/connections',
    async (r) => {
      const memberId = personOf(r);
      const workspaceId = r.principal.workspaceId;
      const own = new Map((await engine.store.listMemberConnections(workspaceId, memberId)).map((c) => [c.service, c]));
      const shared = new Map((await engine.store.listConnections(workspaceId)).map((c) => [c.service, c]));
      const views: AccountView[] = [];
      for (const integration of engine.registry.list()) {
        const state = await engine.integrationState(workspaceId, integration.service);
        if (!usableBy(r.principal, integration.service, state)) continue;
        let oauth = false;
        if (integration.plugin.auth.oauth2) {
          try {
            engine.oauthClient(integration);
            oauth = true;
          } catch (error) {
            if (toGatewayError(error).code === 'internal_error') throw error;
          }
        }
        views.push({
          service: integration.service,
          name: integration.plugin.displayName,
          policy: state.connectionPolicy,
          state,
          own: own.get(integration.service),
          shared: shared.get(integration.service),
          oauth,
          tokenHelp: integration.plugin.auth.token ? integration.plugin.auth.token.description : undefined,
        });
      }
      show(r, 'connections', 'Your accounts', accountsPage(r.session, views));
    },
    { members: true },
  );

  route(
    'POST',
    '/dashboard/connections/:service/oauth',
    async (r) => {
      const memberId = personOf(r);
      const integration = await usableIntegration(r, r.params.service as string);
      const started = await engine.beginOAuth(r.principal.workspaceId, integration.service, null, memberId);
      // A hand-off page, not a redirect: CSP form-action 'self' would stop a form's redirect to the provider.
      show(
        r,
        'connections',
        `Continue to ${integration.plugin.displayName}`,
        oauthHandOff(integration.plugin.displayName, started.authorizeUrl),
      );
    },
    { members: true },
  );

  route(
    'POST',
    '/dashboard/connections/:service/token',
    async (r) => {
      const memberId = personOf(r);
      const integration = await usableIntegration(r, r.params.service as string);
      if (!integration.plugin.auth.token) {
        throw new GatewayError('bad_request', `${integration.plugin.displayName} is connected with OAuth, not with a token`);
      }
      const input = tokenForm(r.form);
      await engine.connectToken(r.principal.workspaceId, integration.service, input.token.trim(), {}, memberId);
      flash(r, 'ok', `Your ${integration.plugin.displayName} account is connected; the token is stored encrypted.`);
      redirect(r.ctx, '/dashboard/connections');
    },
    { members: true },
  );

  route(
    'POST',
    '/dashboard/connections/:service/disconnect',
    async (r) => {
      const memberId = personOf(r);
      const integration = engine.requireIntegration(r.params.service as string);
      const result = await engine.disconnect(r.principal.workspaceId, integration.service, memberId);
      const name = integration.plugin.displayName;
      if (!result.deleted) flash(r, 'error', `Your ${name} account was not connected.`);
      else if (result.revokeError)
        flash(r, 'ok', `Your ${name} account is disconnected; ${name} did not confirm the revocation (${result.revokeError}).`);
      else flash(r, 'ok', `Your ${name} account is disconnected.`);
      redirect(r.ctx, '/dashboard/connections');
    },
    { members: true },
  );
}
