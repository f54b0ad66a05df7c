import type { DashboardAssets } from './assets.js';
import { type Html, html } from './html.js';
import type { DashboardSession, Flash } from './session.js';

/**
 * What a page says above its content, once: a flash message, or a new secret (shown only on that answer): a key's, or
 * with `label` and `kept` another's (a subscription's signing secret).
 */
export type Notice = Flash | { kind: 'secret'; message: string; secret: string; label?: string; kept?: string };

export type Section =
  | 'integrations'
  | 'operations'
  | 'keys'
  | 'activity'
  | 'members'
  | 'grants'
  | 'connections'
  | 'events'
  | 'subscriptions';

/**
 * The sections, and who sees them: `admin` only admins; `person` only people signed in with the identity provider (a key
 * has no accounts of its own); `all` everyone (a member sees their own connected clients only).
 */
const NAV: ReadonlyArray<[Section, string, string, who: 'admin' | 'person' | 'all']> = [
  ['integrations', 'Integrations', '/dashboard/integrations', 'admin'],
  ['operations', 'Operations', '/dashboard/operations', 'admin'],
  ['keys', 'API keys', '/dashboard/keys', 'admin'],
  ['members', 'Members', '/dashboard/members', 'admin'],
  ['connections', 'Your accounts', '/dashboard/connections', 'person'],
  ['grants', 'Connected clients', '/dashboard/grants', 'all'],
  ['activity', 'Activity', '/dashboard/activity', 'admin'],
  ['events', 'Events', '/dashboard/events', 'admin'],
  ['subscriptions', 'Subscriptions', '/dashboard/subscriptions', 'admin'],
];

export interface PageContext {
  assets: DashboardAssets;
  session: DashboardSession;
  keyName: string;
  section: Section;
  notice?: Notice | undefined;
  /** An admin (key or member) sees every section; a member only their own. */
  admin: boolean;
  /** Signed in as a person (by the identity provider), not with a key. */
  member: boolean;
}

function head(assets: DashboardAssets, title: string): Html {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Portico</title>
<link rel="stylesheet" href="/dashboard/assets/${assets.style.name}">
<script type="module" src="/dashboard/assets/${assets.script.name}"></script>`;
}

/** A page of the signed-in dashboard: header with navigation and sign-out, the flash message once, the content. */
export function page(context: PageContext, title: string, content: Html): string {
  const { session, notice: flash } = context;
  return html`<!doctype html>
<html lang="en">
<head>${head(context.assets, title)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="${context.admin ? '/dashboard/integrations' : '/dashboard/grants'}">Portico</a>
  <nav aria-label="Dashboard">
    <ul>
      ${NAV.filter(([, , , who]) => who === 'all' || (who === 'admin' ? context.admin : context.member)).map(([section, label, href]) => html`<li><a href="${href}"${section === context.section ? html` aria-current="page"` : ''}>${label}</a></li>`)}
    </ul>
  </nav>
  <div class="who">
    <span>Signed in ${context.member ? 'as' : 'with'} <strong>${context.keyName}</strong> · workspace <strong>${session.workspaceId}</strong></span>
    <form class="inline" method="post" action="/dashboard/sign-out">
      ${csrfField(session)}
      <button type="submit" class="secondary">Sign out</button>
    </form>
  </div>
</header>
<main id="main" tabindex="-1">
${flash ? flashMessage(flash) : ''}
${content}
</main>
</body>
</html>`.text;
}

function flashMessage(flash: Notice): Html {
  if (flash.kind === 'secret') {
    return html`<section class="flash secret" aria-labelledby="secret-title">
  <h2 id="secret-title">${flash.message}</h2>
  <p>Copy it now: it is shown only this once. ${flash.kept ?? 'Portico keeps only its hash.'}</p>
  <label for="new-key">${flash.label ?? 'The new API key'}</label>
  <input id="new-key" type="text" readonly value="${flash.secret}" autocomplete="off" spellcheck="false">
  <div class="actions">
    <button type="button" data-copy="new-key" hidden>Copy ${flash.label ? 'secret' : 'key'}</button>
    <span id="new-key-status" role="status"></span>
  </div>
</section>`;
  }
  return html`<div class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${flash.message}</div>`;
}

export const csrfField = (session: DashboardSession): Html => html`<input type="hidden" name="_csrf" value="${session.csrf}">`;

/** What the sign-in page offers besides the key: the firm's identity provider, and the client waiting for consent. */
export interface SignInChoices {
  /** The identity provider's name, when members can sign in with it. */
  provider?: string | undefined;
  /** The OAuth client whose authorization request waits for this sign-in (its name as it claims it, or its host). */
  waiting?: string | undefined;
}

/** The sign-in page (also shown, with a message, after a refused attempt). */
export function signInPage(
  assets: DashboardAssets,
  message?: { text: string; kind: 'error' | 'ok' },
  next?: string,
  choices: SignInChoices = {},
): string {
  return html`<!doctype html>
<html lang="en">
<head>${head(assets, 'Sign in')}</head>
<body>
<main id="main" class="signin">
  <div class="panel">
    <h1>Portico</h1>
    ${choices.waiting ? html`<p class="lead" data-waiting>Sign in to let <strong>${choices.waiting}</strong> connect: you choose what it may do next.</p>` : ''}
    ${message ? html`<div class="flash ${message.kind}" role="${message.kind === 'error' ? 'alert' : 'status'}">${message.text}</div>` : ''}
    ${
      choices.provider
        ? html`<p><a class="button" href="/dashboard/sign-in/provider${next ? `?next=${encodeURIComponent(next)}` : ''}">Sign in with ${choices.provider}</a></p>
    <p class="hint">Admins may also sign in with an admin API key:</p>`
        : html`<p class="lead">Sign in with an admin API key.</p>`
    }
    <form method="post" action="/dashboard/sign-in">
      ${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
      <label for="key">Admin API key</label>
      <span class="hint" id="key-hint">Starts with <code>portico_</code>. <code>pnpm start</code> prints one; <code>portico keys create --admin</code> makes another.</span>
      <input id="key" name="key" type="password" required autocomplete="current-password" aria-describedby="key-hint" spellcheck="false">
      <div class="actions"><button type="submit">Sign in</button></div>
    </form>
  </div>
  <p class="hint">The key is sent once to start a session; it is not kept in the browser.</p>
</main>
</body>
</html>`.text;
}

/** A friendly error page: what happened and where to go, never a stack trace. */
export function errorPage(assets: DashboardAssets, status: number, title: string, message: string): string {
  return html`<!doctype html>
<html lang="en">
<head>${head(assets, title)}</head>
<body>
<main id="main" class="signin">
  <div class="panel">
    <h1>${title}</h1>
    <p>${message}</p>
    <p class="hint">HTTP ${status}</p>
    <p><a href="/dashboard/integrations">Back to the dashboard</a></p>
  </div>
</main>
</body>
</html>`.text;
}

/** `2026-01-31 12:05:09 UTC` (or a dash). */
export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span aria-label="never">–</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}
