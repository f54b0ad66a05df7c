import { readFileSync } from 'node:fs';
import type { DeclarativeUpstream } from '@portico/core/plugin';
import type { ExpectedRequest, OperationFixture } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { activityFixtures } from './fixtures/activities.js';
import { billingFixtures } from './fixtures/billing.js';
import { companyFixtures } from './fixtures/companies.js';
import { contactInfoFixtures } from './fixtures/contact-info.js';
import { contactFixtures, pagingFixtures } from './fixtures/contacts.js';
import { eventFixtures } from './fixtures/events.js';
import { formFixtures } from './fixtures/forms.js';
import { marketingFixtures } from './fixtures/marketing.js';
import { noteFixtures } from './fixtures/notes.js';
import { pipelineFixtures } from './fixtures/pipeline.js';
import { prospectFixtures } from './fixtures/prospects.js';
import { invalidInputFixtures } from './fixtures/refused.js';
import { tagFixtures } from './fixtures/tags.js';
import { taskFixtures } from './fixtures/tasks.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { userFixtures } from './fixtures/users.js';
import { lawmaticsPlugin } from './index.js';

// Every request the plugin makes must be one Lawmatics documents. The facts come from Lawmatics' own OpenAPI document
// (scripts/extract-upstream-facts.mjs → upstream-facts.json): each operation's method and path template, the query
// parameters it declares, the body fields it shows, and the query parameters the document's Param Guide grants to
// every list request (paging, sorting, filtering, field selection) and to every single-record request (fields).

interface FactOperation {
  method: string;
  path: string;
  list?: boolean;
  query?: string[];
  body?: string[];
}

interface Facts {
  servers: string[];
  listQuery: string[];
  singleQuery: string[];
  operations: FactOperation[];
}

const facts = JSON.parse(readFileSync(new URL('./upstream-facts.json', import.meta.url), 'utf8')) as Facts;

const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** The documented operation a request is: same method, path matching the template; literal segments win over `{x}`. */
function documented(method: string, path: string): FactOperation | undefined {
  const candidates = facts.operations.filter((op) => op.method === method && templatePattern(op.path).test(path));
  return candidates.sort((a, b) => b.path.replace(/\{[^}]+\}/g, '').length - a.path.replace(/\{[^}]+\}/g, '').length)[0];
}

function problems(request: ExpectedRequest): string[] {
  const out: string[] = [];
  const operation = documented(request.method, request.path);
  if (!operation) return [`${request.method} ${request.path} is not an operation of Lawmatics' document`];
  const allowedQuery = new Set([...(operation.query ?? []), ...(operation.list ? facts.listQuery : facts.singleQuery)]);
  for (const name of Object.keys(request.query ?? {})) {
    if (!allowedQuery.has(name)) out.push(`${request.method} ${operation.path}: query parameter ${name} is not documented`);
  }
  if (['POST', 'PUT', 'PATCH'].includes(request.method) && request.body !== undefined) {
    const allowedBody = new Set(operation.body ?? []);
    for (const name of Object.keys(request.body as Record<string, unknown>)) {
      if (!allowedBody.has(name)) out.push(`${request.method} ${operation.path}: body field ${name} is not documented`);
    }
  }
  return out;
}

const fixtures: OperationFixture[] = [
  ...prospectFixtures,
  ...contactFixtures,
  ...companyFixtures,
  ...contactInfoFixtures,
  ...formFixtures,
  ...marketingFixtures,
  ...eventFixtures,
  ...tagFixtures,
  ...billingFixtures,
  ...activityFixtures,
  ...userFixtures,
  ...noteFixtures,
  ...taskFixtures,
  ...pipelineFixtures,
  ...pagingFixtures,
  ...upstreamErrorFixtures,
  ...invalidInputFixtures,
];
const requests = fixtures.flatMap((fixture) =>
  fixture.exchanges.map(
    (exchange) => [`${fixture.name ?? fixture.operation}: ${exchange.request.method} ${exchange.request.path}`, exchange.request] as const,
  ),
);

describe("every upstream request of the fixtures is in Lawmatics' OpenAPI document", () => {
  it('has facts for all 167 documented operations, and the Param Guide’s list parameters', () => {
    expect(facts.operations).toHaveLength(167);
    expect(facts.listQuery).toEqual(
      expect.arrayContaining(['page', 'sort_by', 'sort_order', 'filter_by', 'filter_on', 'filter_with', 'fields']),
    );
    expect(facts.singleQuery).toEqual(['fields']);
  });

  it('reaches Lawmatics at a documented server, below /v1 as every documented path is', () => {
    const base = new URL(lawmaticsPlugin.upstream.baseUrl as string);
    expect(facts.servers).toContain(base.origin);
    expect(base.pathname).toBe('/v1');
    for (const operation of facts.operations) expect(operation.path.startsWith('/v1/')).toBe(true);
  });

  it.each(requests)('%s', (_, request) => {
    expect(problems(request)).toEqual([]);
  });

  it('covers a request of every operation of the plugin', () => {
    const seen = new Set(fixtures.filter((f) => f.exchanges.length > 0).map((f) => f.operation));
    expect(lawmaticsPlugin.operations.map((o) => o.name).filter((name) => !seen.has(name))).toEqual([]);
  });
});

describe("every declared upstream is in Lawmatics' OpenAPI document", () => {
  it.each(lawmaticsPlugin.operations.map((o) => [o.name, o] as const))('%s', (_, operation) => {
    // A write with a body that is not plain JSON strings is a function that keeps its declarative mapping (upstream.ts).
    const declared = (operation.upstream as { declared?: DeclarativeUpstream } | undefined)?.declared;
    const upstream = (typeof operation.upstream === 'function' ? declared : operation.upstream) as DeclarativeUpstream;
    expect(typeof upstream, 'declarative').toBe('object');
    const sample = `/v1${upstream.path.replace(/:[A-Za-z_]+/g, 'x1')}`;
    const documentedOperation = documented(upstream.method, sample);
    expect(documentedOperation, `${upstream.method} ${upstream.path}`).toBeDefined();
    const allowed = new Set([...(documentedOperation?.query ?? []), ...(documentedOperation?.list ? facts.listQuery : facts.singleQuery)]);
    for (const name of [...Object.keys(upstream.fixedQuery ?? {}), ...(upstream.query ?? [])]) expect(allowed, name).toContain(name);
  });

  it('and the checker itself refuses what the document does not have', () => {
    expect(problems({ method: 'GET', path: '/v1/matters' })).not.toEqual([]);
    expect(problems({ method: 'PATCH', path: '/v1/prospects/1', body: {} })).not.toEqual([]);
    expect(problems({ method: 'GET', path: '/v1/prospects', query: { per_page: '50' } })).not.toEqual([]);
    expect(problems({ method: 'GET', path: '/v1/prospects/1', query: { page: '2' } })).not.toEqual([]);
    expect(problems({ method: 'POST', path: '/v1/contacts', body: { middle_name: 'x' } })).not.toEqual([]);
    expect(problems({ method: 'GET', path: '/v1/users/me', query: { fields: 'all' } })).toEqual([]);
  });
});
