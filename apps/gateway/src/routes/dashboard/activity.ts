import type { AuditEntry, AuditSeriesPoint } from '@portico/core';
import { type Html, html, jsonScript } from './html.js';
import { when } from './layout.js';

export type Range = 'hour' | 'day';

export interface ActivityFilters {
  service: string;
  status: string;
  key: string;
  range: Range;
}

/** The chart's buckets: per minute over the last hour, per hour over the last day, oldest first, ending now. */
export function buckets(range: Range, now: number): { since: string; bucketMs: number; starts: number[] } {
  const bucketMs = range === 'hour' ? 60_000 : 3_600_000;
  const count = range === 'hour' ? 60 : 24;
  const last = Math.floor(now / bucketMs) * bucketMs;
  const starts = Array.from({ length: count }, (_, i) => last - (count - 1 - i) * bucketMs);
  return { since: new Date(starts[0] as number).toISOString(), bucketMs, starts };
}

export function activityPage(input: {
  filters: ActivityFilters;
  services: Array<{ service: string; name: string }>;
  keys: Array<{ id: string; name: string }>;
  records: AuditEntry[];
  keyNames: ReadonlyMap<string, string>;
  points: AuditSeriesPoint[];
  chart: { starts: number[]; bucketMs: number };
}): Html {
  const { filters, records, keyNames, points } = input;
  const chartServices = [...new Set(points.map((p) => p.service))].sort();
  const totals = chartServices.map((service) => {
    const mine = points.filter((p) => p.service === service);
    return {
      service,
      calls: mine.reduce((sum, p) => sum + p.calls, 0),
      errors: mine.reduce((sum, p) => sum + p.errors, 0),
      p95: Math.max(0, ...mine.map((p) => p.p95Ms)),
    };
  });
  const rangeLink = (range: Range, label: string) => {
    const query = new URLSearchParams({ ...(filters.service ? { service: filters.service } : {}), range });
    return html`<a class="range-link" href="/dashboard/activity?${query.toString()}"${filters.range === range ? html` aria-current="page"` : ''}>${label}</a>`;
  };
  return html`<h1>Activity</h1>
<p class="lead">Calls over MCP, REST and the dashboard, from the audit trail (no parameter values or bodies are recorded).</p>
<section class="panel" aria-labelledby="chart-title">
  <h2 id="chart-title">Calls, errors and p95 latency per integration</h2>
  <nav class="range" aria-label="Chart range">${rangeLink('hour', 'Last hour')}${rangeLink('day', 'Last day')}</nav>
  <div class="charts" data-charts><p class="hint">The chart needs JavaScript; the table below has the same totals.</p></div>
  ${jsonScript('activity-series', { buckets: input.chart.starts, bucketMs: input.chart.bucketMs, points, services: chartServices })}
  <div class="table-wrap">
  <table class="stack" data-totals>
    <caption class="sr-only">Totals over the ${filters.range === 'hour' ? 'last hour' : 'last day'}</caption>
    <thead><tr><th scope="col">Integration</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Errors</th><th scope="col" class="num">Highest p95 (ms)</th></tr></thead>
    <tbody>
    ${totals.length === 0 ? html`<tr><td colspan="4">No calls in this period.</td></tr>` : ''}
    ${totals.map(
      (t) =>
        html`<tr data-service="${t.service}"><td data-label="Integration">${t.service}</td><td data-label="Calls" class="num">${t.calls}</td><td data-label="Errors" class="num">${t.errors}</td><td data-label="Highest p95 (ms)" class="num">${t.p95}</td></tr>`,
    )}
    </tbody>
  </table>
  </div>
</section>

<h2 id="recent">Recent calls</h2>
<form method="get" action="/dashboard/activity" class="panel" aria-labelledby="recent">
  <input type="hidden" name="range" value="${filters.range}">
  <div class="row">
    <div><label for="f-service">Integration</label>
    <select id="f-service" name="service"><option value="">All</option>
    ${input.services.map((s) => html`<option value="${s.service}"${s.service === filters.service ? html` selected` : ''}>${s.name}</option>`)}
    </select></div>
    <div><label for="f-status">Status</label>
    <select id="f-status" name="status">
      ${[
        ['', 'Any'],
        ['2xx', 'Succeeded (2xx)'],
        ['4xx', 'Refused (4xx)'],
        ['5xx', 'Failed (5xx)'],
      ].map(([value, label]) => html`<option value="${value}"${value === filters.status ? html` selected` : ''}>${label}</option>`)}
    </select></div>
    <div><label for="f-key">Key</label>
    <select id="f-key" name="key"><option value="">Any</option>
    ${input.keys.map((k) => html`<option value="${k.id}"${k.id === filters.key ? html` selected` : ''}>${k.name}</option>`)}
    </select></div>
    <div><button type="submit">Filter</button></div>
  </div>
</form>
<div class="table-wrap">
<table class="stack" data-activity>
  <thead><tr><th scope="col">Time</th><th scope="col">Key</th><th scope="col">Protocol</th><th scope="col">Integration</th><th scope="col">Operation</th><th scope="col" class="num">Status</th><th scope="col" class="num">Latency</th><th scope="col">Client</th></tr></thead>
  <tbody>
  ${records.length === 0 ? html`<tr><td colspan="8">No calls match.</td></tr>` : ''}
  ${records.map(
    (r) => html`<tr>
    <td data-label="Time">${when(r.at)}</td>
    <td data-label="Key">${r.keyId ? (keyNames.get(r.keyId) ?? r.keyId) : '–'}</td>
    <td data-label="Protocol">${r.protocol}</td>
    <td data-label="Integration">${r.service}</td>
    <td data-label="Operation"><code>${r.operation}</code></td>
    <td data-label="Status" class="num"><span class="badge ${r.status < 400 ? 'ok' : r.status < 500 ? 'warn' : 'bad'}">${r.status}</span>${r.code ? html` <span class="hint">${r.code}</span>` : ''}</td>
    <td data-label="Latency" class="num">${Math.round(r.durationMs)} ms</td>
    <td data-label="Client">${r.clientAddress ?? '–'}</td>
  </tr>`,
  )}
  </tbody>
</table>
</div>`;
}
