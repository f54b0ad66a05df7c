import { type EventView, eventsFeed, GatewayError, toGatewayError } from '@portico/core';
import type { PageKit } from './handlers.js';
import { type Html, html } from './html.js';
import { when } from './layout.js';

/** How many events a page shows. */
const PAGE = 50;

export interface EventSource {
  service: string;
  name: string;
  /** The URL the application delivers its webhooks to. */
  address: string;
  /** Whether the workspace has saved the application's signing secret. */
  configured: boolean;
  /** Where the application shows its signing secret (the plugin's words). */
  hint: string;
}

export interface EventsView {
  filters: { service: string; type: string; before: string };
  events: EventView[];
  /** The `before` of the next, older page; undefined on the last page. */
  older: string | undefined;
  sources: EventSource[];
  workspaceId: string;
  problem: string | undefined;
}

const link = (filters: { service: string; type: string }, before?: string) => {
  const query = new URLSearchParams({
    ...(filters.service ? { service: filters.service } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(before ? { before } : {}),
  }).toString();
  return `/dashboard/events${query ? `?${query}` : ''}`;
};

function eventsPage(view: EventsView): Html {
  const { filters, events, sources } = view;
  return html`<h1>Events</h1>
<p class="lead">What the applications told Portico by webhook, as normalised events, newest first. Assistants read them with <code>list_events</code>, scripts with <code>GET /api/v1/events</code>; <a href="/dashboard/subscriptions">subscriptions</a> send them on.</p>
${view.problem ? html`<div class="flash error" role="alert">${view.problem}</div>` : ''}
<form method="get" action="/dashboard/events" class="panel" aria-label="Filter events">
  <div class="row">
    <div><label for="f-service">Application</label>
    <select id="f-service" name="service"><option value="">All</option>
    ${sources.map((s) => html`<option value="${s.service}"${s.service === filters.service ? html` selected` : ''}>${s.name}</option>`)}
    </select></div>
    <div><label for="f-type">Type</label>
    <input id="f-type" name="type" type="text" maxlength="128" value="${filters.type}" placeholder="call.completed" spellcheck="false"></div>
    <div><button type="submit">Filter</button></div>
  </div>
</form>
<div class="table-wrap">
<table class="stack" data-events>
  <thead><tr><th scope="col">Received</th><th scope="col">Application</th><th scope="col">Type</th><th scope="col">Record</th><th scope="col">Event</th></tr></thead>
  <tbody>
  ${events.length === 0 ? html`<tr><td colspan="5">${filters.before ? 'No older events match.' : 'No events match.'}</td></tr>` : ''}
  ${events.map(
    (e) => html`<tr data-event="${e.id}">
    <td data-label="Received">${when(e.received_at)}</td>
    <td data-label="Application">${e.service}</td>
    <td data-label="Type"><code>${e.type}</code></td>
    <td data-label="Record">${e.record_id ? html`<code>${e.record_id}</code>` : '–'}</td>
    <td data-label="Event"><code class="hint">${e.id}</code></td>
  </tr>`,
  )}
  </tbody>
</table>
</div>
<nav class="range" aria-label="Pages of events">
  ${filters.before ? html`<a class="range-link" href="${link(filters)}">Newest events</a>` : ''}
  ${view.older ? html`<a class="range-link" href="${link(filters, view.older)}" rel="next">Older events</a>` : ''}
</nav>

<section class="panel" aria-labelledby="sources">
  <h2 id="sources">Webhook addresses</h2>
  <p>Paste an application's address into its webhook settings, and save its signing secret in this workspace (write-only:
  <code>portico events secret &lt;service&gt; --secret -</code> on the gateway's host, or
  <code>PUT /api/admin/events/&lt;service&gt;/secret</code>). Clio and Notion bring their secret in their first request:
  arm the address with <code>?setup=&lt;token&gt;</code> first (docs/events.md).</p>
  <div class="table-wrap">
  <table class="stack" data-sources>
    <thead><tr><th scope="col">Application</th><th scope="col">Webhook address</th><th scope="col">Signing secret</th></tr></thead>
    <tbody>
    ${sources.length === 0 ? html`<tr><td colspan="3">No installed integration receives webhooks.</td></tr>` : ''}
    ${sources.map(
      (s) => html`<tr data-source="${s.service}">
      <td data-label="Application">${s.name}</td>
      <td data-label="Webhook address"><code id="hook-${s.service}">${s.address}</code>
        <button type="button" class="secondary" data-copy="hook-${s.service}" hidden>Copy<span class="sr-only"> the address for ${s.name}</span></button>
        <span id="hook-${s.service}-status" role="status"></span></td>
      <td data-label="Signing secret">${
        s.configured
          ? html`<span class="badge ok">Set</span>`
          : html`<span class="badge warn">Not set</span> <span class="hint">${s.hint}</span>`
      }</td>
    </tr>`,
    )}
    </tbody>
  </table>
  </div>
</section>`;
}

/**
 * The events page (admins): the workspace's recent events through the feed REST and MCP read (eventsFeed, within the
 * signed-in key's services and tool set), newest first; and each application's webhook address and secret state, as the
 * admin API's `GET /api/admin/events` tells them.
 */
export function mountEvents(kit: PageKit): void {
  const { engine, route, show } = kit;
  route('GET', '/dashboard/events', async (r) => {
    const text = (name: string, max: number) => {
      const value = r.ctx.query[name];
      return typeof value === 'string' && value.length <= max ? value.trim() : '';
    };
    const filters = { service: text('service', 64), type: text('type', 128), before: text('before', 20) };
    const workspaceId = r.principal.workspaceId;
    const base = (kit.publicUrl ?? engine.publicUrl ?? r.ctx.origin).replace(/\/+$/, '');
    const sources = (await engine.events.configured(workspaceId)).map((s) => ({
      service: s.service,
      name: engine.registry.get(s.service)?.plugin.displayName ?? s.service,
      address: `${base}/api/events/${workspaceId}/${s.service}`,
      configured: s.configured,
      hint: s.secret_hint,
    }));
    let events: EventView[] = [];
    let older: string | undefined;
    let problem: string | undefined;
    try {
      const feed = await eventsFeed(
        engine,
        r.principal,
        { service: filters.service, type: filters.type, limit: PAGE },
        { before: filters.before },
      );
      events = feed.events;
      older = events.length === PAGE ? feed.next_cursor : undefined;
    } catch (error) {
      // a filter that is not a service or an event type: the page says so, with no events
      const failure = toGatewayError(error);
      if (!(error instanceof GatewayError) || failure.code !== 'bad_request') throw error;
      problem = `${failure.message.replace(/^events: /, 'The ')}: a service is a name like callrail, a type like call.completed.`;
    }
    show(r, 'events', 'Events', eventsPage({ filters, events, older, sources, workspaceId, problem }));
  });
}
