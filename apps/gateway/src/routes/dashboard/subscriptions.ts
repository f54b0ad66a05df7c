import { assertMaySubscribe, type Engine, GatewayError, Params, Type, toGatewayError } from '@portico/core';
import { type PageKit, type PageRequest, validator } from './handlers.js';
import { type Html, html } from './html.js';
import { csrfField, type Notice, when } from './layout.js';
import type { DashboardSession } from './session.js';

type Outbound = Engine['events']['outbound'];
type Subscription = Awaited<ReturnType<Outbound['list']>>[number];
type Deliveries = Awaited<ReturnType<Outbound['deliveries']>>;

/** The form's fields: the admin API's body, with the types as one line (separated by commas or spaces). */
const Subscribe = Params({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  types: Type.String({ minLength: 1, maxLength: 7000 }),
});
const subscribeForm = validator(Subscribe);
const Redeliver = Params({ event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })) });
const redeliverForm = validator(Redeliver);

interface Row {
  subscription: Subscription;
  /** The newest attempt, its dead letters (the first), and its next queued delivery. */
  log: Deliveries;
}

function state(log: Deliveries): Html {
  if (log.dead_letters.length > 0) return html`<span class="badge bad">Dead letters</span>`;
  if (log.next_delivery && log.next_delivery.attempts > 0) return html`<span class="badge warn">Retrying</span>`;
  if (log.next_delivery) return html`<span class="badge ok">Delivering</span>`;
  return html`<span class="badge ok">Up to date</span>`;
}

function outcome(attempt: Deliveries['attempts'][number]): Html {
  const badge = attempt.outcome === 'delivered' ? 'ok' : attempt.outcome === 'failed' ? 'warn' : 'bad';
  // the error, unless it only repeats the status ("HTTP 500")
  const error = attempt.error && attempt.error !== `HTTP ${attempt.status}` ? attempt.error : undefined;
  return html`<span class="badge ${badge}">${attempt.outcome}</span> ${attempt.status ?? ''}${error ? html` <span class="hint">${error}</span>` : ''}`;
}

function subscriptionsPage(session: DashboardSession, rows: Row[]): Html {
  return html`<h1>Subscriptions</h1>
<p class="lead">Where this workspace's <a href="/dashboard/events">events</a> are sent as they are stored: each subscriber URL receives the events of its types, in order, signed per Standard Webhooks with its own secret.</p>
<section class="panel" aria-labelledby="new">
  <h2 id="new">Subscribe a URL</h2>
  <form method="post" action="/dashboard/subscriptions" autocomplete="off">
    ${csrfField(session)}
    <label for="url">URL</label>
    <span class="hint" id="url-hint">https, on the internet: the gateway does not deliver to loopback, private, link-local or metadata addresses unless <code>PORTICO_EGRESS_ALLOW_PRIVATE</code> allows them.</span>
    <input id="url" name="url" type="url" required maxlength="2048" aria-describedby="url-hint" placeholder="https://hooks.example.com/portico" spellcheck="false">
    <label for="types">Event types</label>
    <span class="hint" id="types-hint">Separated by commas or spaces: a type (<code>call.completed</code>), every event of one application (<code>callrail.*</code>), or <code>*</code>.</span>
    <input id="types" name="types" type="text" required maxlength="7000" aria-describedby="types-hint" placeholder="callrail.*, message.posted" spellcheck="false">
    <div class="actions"><button type="submit">Subscribe</button></div>
  </form>
</section>
<h2>Subscribers</h2>
<div class="table-wrap">
<table class="stack" data-subscriptions>
  <thead><tr><th scope="col">URL</th><th scope="col">Event types</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Last delivery</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>
  ${rows.length === 0 ? html`<tr><td colspan="6">No subscriptions yet.</td></tr>` : ''}
  ${rows.map(({ subscription: s, log }) => {
    const last = log.attempts[0];
    return html`<tr data-subscription="${s.id}">
    <td data-label="URL"><a href="/dashboard/subscriptions/${s.id}"><code>${s.url}</code></a></td>
    <td data-label="Event types">${s.types.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}</td>
    <td data-label="Created">${when(s.created_at)}</td>
    <td data-label="State">${state(log)}</td>
    <td data-label="Last delivery">${last ? html`${outcome(last)} · ${when(last.at)}` : 'none yet'}</td>
    <td data-label="">
      <a href="/dashboard/subscriptions/${s.id}">Delivery log<span class="sr-only"> of ${s.url}</span></a>
      <form class="inline" method="post" action="/dashboard/subscriptions/${s.id}/delete" data-confirm="Delete the subscription of ${s.url}? Its queued deliveries and its log are deleted.">
      ${csrfField(session)}<button type="submit" class="danger">Delete<span class="sr-only"> the subscription of ${s.url}</span></button></form>
    </td>
  </tr>`;
  })}
  </tbody>
</table>
</div>`;
}

function subscriptionPage(session: DashboardSession, log: Deliveries): Html {
  const s = log.subscription;
  const next = log.next_delivery;
  return html`<p><a href="/dashboard/subscriptions">← Subscriptions</a></p>
<h1>Deliveries to ${s.url}</h1>
<section class="panel" aria-labelledby="facts">
  <h2 id="facts">Subscription ${state(log)}</h2>
  <dl class="facts">
    <dt>URL</dt><dd><code>${s.url}</code></dd>
    <dt>Event types</dt><dd>${s.types.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}</dd>
    <dt>Created</dt><dd>${when(s.created_at)}</dd>
    <dt>Id</dt><dd><code>${s.id}</code></dd>
    <dt>Next delivery</dt><dd data-next>${
      next
        ? html`<code>${next.event_id ?? 'an event no longer kept'}</code>${
            next.attempts > 0
              ? html` · failed ${next.attempts} ${next.attempts === 1 ? 'time' : 'times'} since ${when(next.failing_since)} · next retry ${when(next.retry_at)}`
              : ' · due now'
          }`
        : 'nothing queued'
    }</dd>
  </dl>
  <form method="post" action="/dashboard/subscriptions/${s.id}/delete" data-confirm="Delete the subscription of ${s.url}? Its queued deliveries and its log are deleted.">
    ${csrfField(session)}
    <div class="actions"><button type="submit" class="danger">Delete subscription</button></div>
  </form>
</section>

<section class="panel" aria-labelledby="dead">
  <h2 id="dead">Dead letters</h2>
  <p>Events still failing after the retry period. Redelivery queues them again, ahead of later events, from a first attempt.</p>
  ${
    log.dead_letters.length === 0
      ? html`<p data-dead-letters="0">None.</p>`
      : html`<form method="post" action="/dashboard/subscriptions/${s.id}/redeliver">
    ${csrfField(session)}
    <div class="actions"><button type="submit">Redeliver all dead letters</button></div>
  </form>
  <div class="table-wrap">
  <table class="stack" data-dead-letters="${log.dead_letters.length}">
    <thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col" class="num">Attempts</th><th scope="col">Failing since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
    <tbody>
    ${log.dead_letters.map(
      (d) => html`<tr data-dead="${d.event?.id ?? ''}">
      <td data-label="Event">${d.event ? html`<code>${d.event.id}</code> <span class="hint">${d.event.service}</span>` : 'no longer kept'}</td>
      <td data-label="Type">${d.event ? html`<code>${d.event.type}</code>` : '–'}</td>
      <td data-label="Attempts" class="num">${d.attempts}</td>
      <td data-label="Failing since">${when(d.failing_since)}</td>
      <td data-label="">${
        d.event
          ? html`<form class="inline" method="post" action="/dashboard/subscriptions/${s.id}/redeliver">
        ${csrfField(session)}<input type="hidden" name="event_id" value="${d.event.id}">
        <button type="submit" class="secondary">Redeliver<span class="sr-only"> ${d.event.id}</span></button></form>`
          : ''
      }</td>
    </tr>`,
    )}
    </tbody>
  </table>
  </div>`
  }
</section>

<h2 id="attempts">Recent attempts</h2>
<div class="table-wrap">
<table class="stack" data-attempts>
  <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col" class="num">Attempt</th><th scope="col">Outcome</th><th scope="col" class="num">Duration</th></tr></thead>
  <tbody>
  ${log.attempts.length === 0 ? html`<tr><td colspan="5">No attempts yet.</td></tr>` : ''}
  ${log.attempts.map(
    (a) => html`<tr data-attempt="${a.outcome}">
    <td data-label="Time">${when(a.at)}</td>
    <td data-label="Event"><code>${a.event_id}</code></td>
    <td data-label="Attempt" class="num">${a.attempt}</td>
    <td data-label="Outcome">${outcome(a)}</td>
    <td data-label="Duration" class="num">${a.duration_ms} ms</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>`;
}

/**
 * The subscriptions page (admins not narrowed in any way, as on the admin API): subscribe a URL (its secret shown once),
 * the list with each one's state and last delivery, its delivery log and dead letters, redelivery and deletion. Every
 * change goes through the calls of the admin API (`engine.events.outbound`), so its checks (egress of the subscriber URL,
 * the types, the limits) hold here the same.
 */
export function mountSubscriptions(kit: PageKit): void {
  const { engine, route, show, flash, redirect } = kit;
  const outbound = engine.events.outbound;

  const list = async (r: PageRequest, notice?: Notice) => {
    const workspaceId = r.principal.workspaceId;
    const rows: Row[] = [];
    for (const subscription of await outbound.list(workspaceId))
      rows.push({ subscription, log: await outbound.deliveries(workspaceId, subscription.id, 1) });
    show(r, 'subscriptions', 'Subscriptions', subscriptionsPage(r.session, rows), notice);
  };

  /** A refused change goes back to `to` with the reason; a failure of the gateway is the error page's. */
  const refusedTo = async (r: PageRequest, to: string, change: () => Promise<void>) => {
    try {
      await change();
    } catch (error) {
      const failure = toGatewayError(error);
      if (!(error instanceof GatewayError) || failure.status >= 500 || failure.code === 'not_found') throw error;
      flash(r, 'error', failure.message);
      redirect(r.ctx, to);
    }
  };

  route('GET', '/dashboard/subscriptions', async (r) => {
    assertMaySubscribe(r.principal);
    await list(r);
  });

  route('POST', '/dashboard/subscriptions', async (r) => {
    assertMaySubscribe(r.principal);
    await refusedTo(r, '/dashboard/subscriptions', async () => {
      const input = subscribeForm(r.form);
      const types = input.types.split(/[\s,]+/).filter(Boolean);
      const created = await outbound.subscribe(r.principal.workspaceId, { url: input.url.trim(), types });
      // The secret is in this answer only (as a new key's): not in a URL, not kept for a later page.
      await list(r, {
        kind: 'secret',
        message: `${created.url} is subscribed`,
        secret: created.secret,
        label: 'Its signing secret',
        kept: 'Portico keeps it encrypted to sign deliveries, and never shows it again.',
      });
    });
  });

  route('GET', '/dashboard/subscriptions/:id', async (r) => {
    assertMaySubscribe(r.principal);
    const log = await outbound.deliveries(r.principal.workspaceId, r.params.id as string);
    show(r, 'subscriptions', `Deliveries to ${log.subscription.url}`, subscriptionPage(r.session, log));
  });

  route('POST', '/dashboard/subscriptions/:id/redeliver', async (r) => {
    assertMaySubscribe(r.principal);
    const id = r.params.id as string;
    await refusedTo(r, `/dashboard/subscriptions/${id}`, async () => {
      const { event_id } = redeliverForm(r.form);
      const { queued } = await outbound.redeliver(r.principal.workspaceId, id, event_id);
      flash(
        r,
        queued > 0 ? 'ok' : 'error',
        queued === 0
          ? 'There were no dead letters to redeliver.'
          : `${queued} dead ${queued === 1 ? 'letter is' : 'letters are'} queued again.`,
      );
      redirect(r.ctx, `/dashboard/subscriptions/${id}`);
    });
  });

  route('POST', '/dashboard/subscriptions/:id/delete', async (r) => {
    assertMaySubscribe(r.principal);
    const id = r.params.id as string;
    const subscription = (await outbound.list(r.principal.workspaceId)).find((s) => s.id === id);
    await outbound.unsubscribe(r.principal.workspaceId, id); // not_found when there is none
    flash(r, 'ok', `The subscription of ${subscription?.url ?? id} is deleted.`);
    redirect(r.ctx, '/dashboard/subscriptions');
  });
}
