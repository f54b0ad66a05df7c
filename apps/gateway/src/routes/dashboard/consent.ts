import { type AuthorizeRequest, type Consent, GatewayError } from '@portico/core';
import { consentCsp } from './csp.js';
import type { Handler, PageKit, PageRequest } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField } from './layout.js';
import type { DashboardSession } from './session.js';

/** The authorization request's parameters, carried through the consent form so that its POST is checked again. */
const CARRIED = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'resource'] as const;
const EXPIRY_DAYS = ['1', '7', '30', '90'] as const;
const DAY_MS = 24 * 60 * 60_000;

/** Where a client's redirect URI points, as the consent page names it: its host, or its scheme for an app's own. */
function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}

function consentPage(session: DashboardSession, request: AuthorizeRequest, params: Record<string, string>, kit: ConsentKit): Html {
  const { services, toolSets } = kit;
  return html`<h1>Allow ${request.client.name} to use this gateway?</h1>
<p class="lead"><strong>${request.client.name}</strong> asks to call operations of workspace <strong>${session.workspaceId}</strong> for you.
After you allow it, you are sent back to <strong>${redirectHost(request.redirectUri)}</strong>.
${
  request.client.kind === 'cimd'
    ? html`Its description is published by <strong>${new URL(request.client.clientId).host}</strong>.
`
    : ''
}Choose what it may do: the least is chosen for you.</p>
<section class="panel" aria-labelledby="scope">
  <h2 id="scope">What it may do</h2>
  <form method="post" action="/dashboard/authorize" autocomplete="off">
    ${csrfField(session)}
    ${CARRIED.map((name) => (params[name] === undefined ? '' : html`<input type="hidden" name="${name}" value="${params[name]}">`))}
    <fieldset>
      <legend>Services</legend>
      ${services.map((s) => html`<label class="radio"><input type="checkbox" name="service_${s.service}" value="on"> ${s.name}</label>`)}
    </fieldset>
    ${
      toolSets.length > 0
        ? html`<label for="tool_set">Or a tool set</label>
    <select id="tool_set" name="tool_set"><option value="" selected>None</option>${toolSets.map((t) => html`<option value="${t.id}">${t.name}</option>`)}</select>`
        : ''
    }
    <fieldset>
      <legend>Access</legend>
      <label class="radio"><input type="radio" name="access" value="read_only" checked> Read-only: only operations that read</label>
      <label class="radio"><input type="radio" name="access" value="full"> Read and write</label>
    </fieldset>
    <label for="expires">Ends</label>
    <select id="expires" name="expires">
      ${EXPIRY_DAYS.map((d) => html`<option value="${d}"${d === '1' ? ' selected' : ''}>In ${d === '1' ? 'a day' : `${d} days`}</option>`)}
    </select>
    <div class="actions">
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </div>
  </form>
</section>`;
}

interface ConsentKit {
  services: Array<{ service: string; name: string }>;
  toolSets: Array<{ id: string; name: string }>;
}

/**
 * The authorize endpoint of the built-in authorization server, as a dashboard page: the signed-in admin sees the
 * client's name and where it will be sent back, and chooses what the grant may do in the session's workspace.
 */
export function mountConsent(kit: PageKit): void {
  const { engine, route, show, publicUrl } = kit;
  const gateway = () => publicUrl ?? engine.publicUrl ?? '';
  const checked = async (r: PageRequest, source: Readonly<Record<string, string | string[] | undefined>>) => {
    const params: Record<string, string> = {};
    for (const name of CARRIED) {
      const value = source[name];
      if (typeof value === 'string') params[name] = value;
    }
    const check = await engine.authorization.authorizer.check(source, gateway());
    if (check.kind === 'show') {
      show(r, 'keys', 'Authorization refused', html`<h1>This authorization request is not valid</h1><p class="lead">${check.message}</p>`);
      r.ctx.status = 400; // after show(), which answers 200
      return undefined;
    }
    if (check.kind === 'redirect') {
      r.ctx.redirect(check.location);
      r.ctx.status = 303;
      return undefined;
    }
    return { request: check.request, params };
  };

  const showConsent: Handler = async (r) => {
    const found = await checked(r, r.ctx.query);
    if (!found) return;
    const kitData: ConsentKit = {
      services: engine.registry.list().map((i) => ({ service: i.service, name: i.plugin.displayName })),
      toolSets: (await engine.toolSets.list(r.principal.workspaceId)).map(({ record }) => ({ id: record.id, name: record.name })),
    };
    // The form's answer redirects to the client: form-action must allow its origin, or the browser stops there.
    r.ctx.set('content-security-policy', consentCsp(found.request.redirectUri));
    show(r, 'keys', `Allow ${found.request.client.name}?`, consentPage(r.session, found.request, found.params, kitData));
  };

  route('GET', '/dashboard/authorize', showConsent);
  route('POST', '/dashboard/authorize', async (r) => {
    const found = await checked(r, r.form);
    if (!found) return;
    const { request } = found;
    let location: string;
    if (r.form.decision !== 'approve') {
      location = engine.authorization.authorizer.deny(request);
    } else {
      location = await engine.authorization.authorizer.approve(request, await consentOf(r, kit));
    }
    r.ctx.redirect(location);
    r.ctx.status = 303;
  });
}

/** The admin's choices, checked: a known tool set of the workspace, or at least one known service; an end. */
async function consentOf(r: PageRequest, kit: PageKit): Promise<Consent> {
  const { engine } = kit;
  const form = r.form;
  const workspaceId = r.principal.workspaceId;
  const fail = (message: string) => new GatewayError('bad_request', message);
  const toolSet = form.tool_set ? form.tool_set : null;
  if (toolSet && !(await engine.store.getToolSet(workspaceId, toolSet))) throw fail('No such tool set in this workspace');
  const services = engine.registry
    .list()
    .map((i) => i.service)
    .filter((service) => form[`service_${service}`] === 'on');
  if (!toolSet && services.length === 0) throw fail('Choose at least one service or a tool set');
  const days = EXPIRY_DAYS.find((d) => d === form.expires);
  if (!days) throw fail('Choose when the access ends');
  return {
    workspaceId,
    scopes: { services: toolSet && services.length === 0 ? '*' : services, readOnly: form.access !== 'full', toolSet },
    expiresAt: new Date(Date.now() + Number(days) * DAY_MS).toISOString(),
    createdBy: r.principal.keyId,
  };
}
