import {
  type AuthorizeRequest,
  assertGrantWithin,
  type Consent,
  GatewayError,
  grantScopes,
  mayWrite,
  type Principal,
  requestedScopes,
} from '@portico/core';
import { consentCsp } from './csp.js';
import type { Handler, PageKit, PageRequest } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField } from './layout.js';
import type { DashboardSession } from './session.js';

/** The authorization request's parameters, carried through the consent form so that its POST is checked again. */
const CARRIED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;
/** How long a grant lasts: 90 days unless chosen otherwise; "until revoked" only for admins. */
const ENDS = ['1', '7', '30', '90', '365', 'never'] as const;
const DEFAULT_END = '90';
const DAY_MS = 24 * 60 * 60_000;

type Access = 'none' | 'read' | 'write';

/** Where a client's redirect URI points, as the consent page names it: its host, or its scheme for an app's own. */
function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol;
}

interface ServiceOffer {
  service: string;
  name: string;
  /** The person may write to it. */
  writable: boolean;
}

interface ConsentView {
  services: ServiceOffer[];
  toolSets: Array<{ id: string; name: string }>;
  /** What is ticked: from the client's `scope`, or from the form being shown again. */
  chosen: Map<string, Access>;
  toolSet: string;
  ends: string;
  mayNeverEnd: boolean;
  problem?: string;
}

const endLabel = (end: string) =>
  end === 'never' ? 'Until revoked' : end === '1' ? 'In a day' : end === '365' ? 'In a year' : `In ${end} days`;

function consentPage(
  session: DashboardSession,
  principal: Principal,
  request: AuthorizeRequest,
  params: Record<string, string>,
  view: ConsentView,
): Html {
  const access = (s: ServiceOffer, value: Access, label: string) =>
    html`<label class="radio"><input type="radio" name="access_${s.service}" value="${value}"${(view.chosen.get(s.service) ?? 'none') === value ? ' checked' : ''}> ${label}</label>`;
  return html`<h1>Allow ${request.client.name} to use this gateway?</h1>
<p class="lead"><strong>${request.client.name}</strong> asks to call operations of workspace <strong>${session.workspaceId}</strong>
${principal.memberId ? 'as you' : 'with this admin key’s powers'}. After you allow it, you are sent back to <strong>${redirectHost(request.redirectUri)}</strong>.
${
  request.client.kind === 'cimd'
    ? html`Its description is published by <strong>${new URL(request.client.clientId).host}</strong>.
`
    : ''
}It can never do more than you may do yourself.</p>
${
  principal.memberId
    ? html`<p class="hint" data-own-accounts>In each application it acts as your own account where you connected one
(<a href="/dashboard/connections" target="_blank" rel="noopener">Your accounts</a>), otherwise as the workspace allows.</p>`
    : ''
}
${view.problem ? html`<div class="flash error" role="alert">${view.problem}</div>` : ''}
<section class="panel" aria-labelledby="scope">
  <h2 id="scope">What it may do</h2>
  <form method="post" action="/dashboard/authorize" autocomplete="off">
    ${csrfField(session)}
    ${CARRIED.map((name) => (params[name] === undefined ? '' : html`<input type="hidden" name="${name}" value="${params[name]}">`))}
    ${view.services.map(
      (s) => html`<fieldset data-service="${s.service}">
      <legend>${s.name}</legend>
      ${access(s, 'none', 'No access')}
      ${access(s, 'read', 'Read')}
      ${s.writable ? access(s, 'write', 'Read and write') : ''}
    </fieldset>`,
    )}
    ${
      view.toolSets.length > 0
        ? html`<label for="tool_set">Narrow to a tool set (optional)</label>
    <select id="tool_set" name="tool_set"><option value=""${view.toolSet === '' ? ' selected' : ''}>None</option>${view.toolSets.map((t) => html`<option value="${t.id}"${view.toolSet === t.id ? ' selected' : ''}>${t.name}</option>`)}</select>`
        : ''
    }
    <label for="expires">Ends</label>
    <select id="expires" name="expires">
      ${ENDS.filter((e) => e !== 'never' || view.mayNeverEnd).map(
        (e) => html`<option value="${e}"${e === view.ends ? ' selected' : ''}>${endLabel(e)}</option>`,
      )}
    </select>
    <div class="actions">
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </div>
  </form>
</section>`;
}

/**
 * The authorize endpoint of the built-in authorization server, as a dashboard page: the signed-in person (a member,
 * or an admin signed in with a key) sees the client's name and where it will be sent back, and chooses what the grant
 * may do, from what they may do themselves; the server refuses anything wider (access/powers.ts).
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

  /** What the person may offer: the installed services within their powers, their workspace's tool sets. */
  const offers = async (principal: Principal): Promise<Pick<ConsentView, 'services' | 'toolSets' | 'mayNeverEnd'>> => {
    const own = principal.scopes;
    const services = engine.registry
      .list()
      .filter((i) => own.services === '*' || own.services.includes(i.service))
      .map((i) => ({ service: i.service, name: i.plugin.displayName, writable: mayWrite(own, i.service) }));
    const toolSets = own.toolSet
      ? [] // bound to a tool set: every grant is bound to it (below), there is nothing to choose
      : (await engine.toolSets.list(principal.workspaceId)).map(({ record }) => ({ id: record.id, name: record.name }));
    return { services, toolSets, mayNeverEnd: own.admin };
  };

  const render = async (r: PageRequest, request: AuthorizeRequest, params: Record<string, string>, view: Partial<ConsentView>) => {
    const offered = await offers(r.principal);
    const chosen = view.chosen ?? new Map<string, Access>();
    if (!view.chosen) {
      // pre-ticked from the client's scope parameter, within what the person may do
      const names = offered.services.map((s) => s.service);
      for (const [service, access] of requestedScopes(request.scope ?? undefined, names)) {
        const offer = offered.services.find((s) => s.service === service);
        chosen.set(service, access === 'write' && !offer?.writable ? 'read' : access);
      }
    }
    const full: ConsentView = { ...offered, chosen, toolSet: view.toolSet ?? '', ends: view.ends ?? DEFAULT_END };
    if (view.problem) full.problem = view.problem;
    // The form's answer redirects to the client: form-action must allow its origin, or the browser stops there.
    r.ctx.set('content-security-policy', consentCsp(request.redirectUri));
    show(r, 'keys', `Allow ${request.client.name}?`, consentPage(r.session, r.principal, request, params, full));
    if (view.problem) r.ctx.status = 400;
  };

  const showConsent: Handler = async (r) => {
    const found = await checked(r, r.ctx.query);
    if (!found) return;
    await render(r, found.request, found.params, {});
  };

  route('GET', '/dashboard/authorize', showConsent, { members: true, resumeAfterSignIn: true });
  route(
    'POST',
    '/dashboard/authorize',
    async (r) => {
      const found = await checked(r, r.form);
      if (!found) return;
      const { request } = found;
      if (r.form.decision !== 'approve') {
        r.ctx.redirect(engine.authorization.authorizer.deny(request));
        r.ctx.status = 303;
        return;
      }
      const chosen = new Map<string, Access>();
      for (const i of engine.registry.list()) {
        const value = r.form[`access_${i.service}`];
        if (value === 'read' || value === 'write') chosen.set(i.service, value);
      }
      const again = (problem: string) =>
        render(r, request, found.params, { chosen, toolSet: r.form.tool_set ?? '', ends: r.form.expires ?? DEFAULT_END, problem });
      let consent: Consent;
      try {
        consent = await consentOf(r, kit, chosen);
      } catch (error) {
        // An incomplete or refused form is shown again with the reason; the client keeps waiting.
        if (error instanceof GatewayError && (error.code === 'bad_request' || error.code === 'forbidden')) return again(error.message);
        throw error;
      }
      r.ctx.redirect(await engine.authorization.authorizer.approve(request, consent));
      r.ctx.status = 303;
    },
    { members: true },
  );
}

/**
 * The person's choices, checked: at least one service, a known tool set of the workspace, an end; and, whatever the
 * form says, nothing wider than the person (the check shared with keys and revocation).
 */
async function consentOf(r: PageRequest, kit: PageKit, chosen: Map<string, Access>): Promise<Consent> {
  const { engine } = kit;
  const { form, principal } = r;
  const workspaceId = principal.workspaceId;
  const fail = (message: string) => new GatewayError('bad_request', message);
  if (chosen.size === 0) throw fail('Choose at least one service the client may use.');
  let toolSet = form.tool_set ? form.tool_set : null;
  if (toolSet && !(await engine.store.getToolSet(workspaceId, toolSet))) throw fail('No such tool set in this workspace.');
  // a person bound to a tool set grants only within it
  toolSet = principal.scopes.toolSet ?? toolSet;
  const end = ENDS.find((d) => d === form.expires);
  if (!end) throw fail('Choose when the access ends.');
  if (end === 'never' && !principal.scopes.admin) throw fail('Only admins may allow access until revoked; choose an end.');
  const scopes = grantScopes(chosen as Map<string, 'read' | 'write'>, toolSet);
  assertGrantWithin(principal, { scopes, memberId: principal.memberId ?? null }, 'approve');
  return {
    workspaceId,
    scopes,
    expiresAt: end === 'never' ? null : new Date(Date.now() + Number(end) * DAY_MS).toISOString(),
    createdBy: principal.keyId,
    memberId: principal.memberId ?? null,
  };
}
