import { escapeHtml } from '../doors/html.js';
import type { EmulatorReply, EmulatorRequest } from './emulator-http.js';
import { FIRM, FIRM_PEOPLE, type FirmPerson } from './firm.js';

/**
 * Who signs in at a sandbox application's OAuth authorize page. A sandbox stands in for the application's own login:
 * `login_hint` (an email of the firm's people) signs that person in at once; a request that asks for a sign-in
 * (`prompt=login` or `select_account`, as the gateway sends for a person connecting their own account) without a hint
 * gets a page listing the firm's people, each a link that carries the request on with that person's hint; any other
 * request is the firm's account holder (the managing partner, who connects the workspace's shared account), consenting
 * at once as before.
 */
export type FirmSignIn = { person: FirmPerson } | { page: EmulatorReply };

/** The person a sandbox acts as when nobody chose one: the managing partner, who holds the firm's accounts. */
export const ACCOUNT_HOLDER: FirmPerson = FIRM_PEOPLE[0] as FirmPerson;

export function firmSignIn(request: EmulatorRequest, application: string): FirmSignIn {
  const hint = request.query.get('login_hint')?.trim().toLowerCase();
  if (hint) {
    const person = FIRM_PEOPLE.find((p) => p.email === hint);
    if (person) return { person };
    return { page: signInPage(request, application, `No one at ${FIRM.name} signs in as ${hint.slice(0, 80)}.`) };
  }
  const prompt = (request.query.get('prompt') ?? '').split(/\s+/);
  if (prompt.includes('login') || prompt.includes('select_account')) return { page: signInPage(request, application) };
  return { person: ACCOUNT_HOLDER };
}

/** The sandbox's login page: one link per person of the firm, each the same authorize request with their hint. */
function signInPage(request: EmulatorRequest, application: string, problem?: string): EmulatorReply {
  const links = FIRM_PEOPLE.map((person) => {
    const query = new URLSearchParams(request.query);
    query.delete('prompt');
    query.set('login_hint', person.email);
    return `<li><a href="${escapeHtml(`${request.path}?${query}`)}" data-person="${escapeHtml(person.email)}">${escapeHtml(person.name)}</a> <small>${escapeHtml(person.title)}</small></li>`;
  }).join('\n');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in to ${escapeHtml(application)} (sandbox)</title></head>
<body><h1>Sign in to ${escapeHtml(application)}</h1>
<p>This is the Portico sandbox's ${escapeHtml(application)}: choose who you are at ${escapeHtml(FIRM.name)}.</p>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<ul>
${links}
</ul></body></html>`;
  return { status: problem ? 400 : 200, body, contentType: 'text/html; charset=utf-8' };
}
