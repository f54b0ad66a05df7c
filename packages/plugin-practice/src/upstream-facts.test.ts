import { readFileSync } from 'node:fs';
import type { ExpectedRequest, OperationFixture } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { API, everyFixture } from './fixtures/kit.js';
import { clioPlugin } from './index.js';
import { API_PATH, baseUrlFor, DEFAULT_API_VERSION, REGIONS } from './upstream.js';

// Every request the plugin makes must be one Clio documents. The facts come from Clio's own OpenAPI document
// (scripts/extract-upstream-facts.mjs → upstream-facts.json): each operation's method and path template (below
// /api/v4, ending .json), its query and header parameters, and the field names of its body inside `data`.

interface FactOperation {
  method: string;
  path: string;
  query?: string[];
  headers?: string[];
  body?: string[];
  required?: string[];
}

interface Facts {
  servers: string[];
  apiVersions: string[];
  defaultApiVersion: string;
  operations: FactOperation[];
}

const facts = JSON.parse(readFileSync(new URL('./upstream-facts.json', import.meta.url), 'utf8')) as Facts;

/**
 * What the saved document (Clio's spec as of 2025-07, 277 operations) does not have, each with its reason. The
 * catalog was written from Clio's newer 282-operation document, which is not saved here.
 */
const ORDER_FROM_CATALOG =
  'order: the catalog (from Clio’s newer document) gives every Clio list an order parameter; the saved document omits it for this list';
const KNOWN_EXCEPTIONS: Record<string, string> = {
  'GET /activity_rates.json query order': ORDER_FROM_CATALOG,
  'GET /activity_descriptions.json query order': ORDER_FROM_CATALOG,
  'GET /calendar_entries.json query order': ORDER_FROM_CATALOG,
  'GET /calendar_entry_event_types.json query order': ORDER_FROM_CATALOG,
  'GET /clio_payments/links.json query order': ORDER_FROM_CATALOG,
  'GET /currencies.json query order': ORDER_FROM_CATALOG,
  'GET /clio_file/submissions_reports.json':
    'list_clio_file_submissions: one of the 5 operations newer than the saved document (tag "Clio File/Submissions"); the catalog settles its path',
  'GET /bank_accounts.json query status': 'list_bank_accounts: the catalog lists status; the saved document predates it',
  'POST /bank_accounts.json body client': 'create_bank_account: the catalog lists client; the saved document predates it',
  'GET /court_rules/matter_dockets/preview.json header X-API-VERSION':
    'the document leaves X-API-VERSION out of this one operation only; the minor version applies to the whole API, and the plugin sends it on every request',
  'GET /reports/7/download.json header X-API-VERSION':
    'download_report: the document leaves X-API-VERSION out; the plugin sends it on every request',
  'POST /report_presets/7/generate_report.json header X-API-VERSION':
    'generate_report_from_preset: the document leaves X-API-VERSION out; the plugin sends it on every request',
  'POST /task_template_lists/7/copy.json header X-API-VERSION':
    'copy_task_template_list: the document leaves X-API-VERSION out; the plugin sends it on every request',
  'DELETE /bank_transactions/700.json':
    'delete_bank_transaction: one of the 5 operations newer than the saved document (create, update and delete of bank transactions); the catalog settles its path',
  'GET /bills/9/preview.json header X-API-VERSION': 'preview_bill: the document leaves X-API-VERSION out of this operation too',
  'POST /documents/500/copy.json header X-API-VERSION': 'copy_document: the document leaves X-API-VERSION out of this operation too',
  'POST /bank_accounts.json body matter': 'create_bank_account: the catalog lists matter; the saved document predates it',
  'POST /bank_transactions.json':
    'create_bank_transaction: one of the 5 operations newer than the saved document; body fields from its bank transaction record',
  'PATCH /bank_transactions/701.json':
    'update_bank_transaction: one of the 5 operations newer than the saved document; body fields from its bank transaction record',
  'GET /clio_file/submissions_reports/88.json':
    'get_clio_file_submission: the second operation of the newer document’s "Clio File/Submissions" tag, taken as the record of the list the catalog settles',
  'GET /documents/500/download.json header X-API-VERSION': 'download_document: the document leaves X-API-VERSION out of the downloads',
  'GET /documents/999/download.json header X-API-VERSION': 'download_document: the document leaves X-API-VERSION out of the downloads',
  'GET /document_archives/30/download.json header X-API-VERSION':
    'download_document_archive: the document leaves X-API-VERSION out of the downloads',
  'GET /document_templates/32/download.json header X-API-VERSION':
    'download_document_template: the document leaves X-API-VERSION out of the downloads',
};

const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`);

/** The documented operation a request is: same method, path matching the template; literal segments win over `{x}`. */
function documented(method: string, path: string): FactOperation | undefined {
  const candidates = facts.operations.filter((op) => op.method === method && templatePattern(op.path).test(path));
  return candidates.sort((a, b) => b.path.replace(/\{[^}]+\}/g, '').length - a.path.replace(/\{[^}]+\}/g, '').length)[0];
}

function problems(request: ExpectedRequest): string[] {
  if (!request.path.startsWith(`${API}/`)) return [`${request.path} is not below ${API}`];
  const path = request.path.slice(API.length);
  const key = `${request.method} ${path}`;
  if (!path.endsWith('.json')) return [`${key} does not end in .json`];
  if (KNOWN_EXCEPTIONS[key]) return [];
  const operation = documented(request.method, path);
  if (!operation) return [`${key} is not an operation of Clio's document`];
  const out: string[] = [];
  const query = new Set(operation.query ?? []);
  for (const name of Object.keys(request.query ?? {})) {
    if (!query.has(name) && !KNOWN_EXCEPTIONS[`${key} query ${name}`]) out.push(`${key}: query parameter ${name} is not documented`);
  }
  if (request.body !== undefined) {
    const wrapper = request.body as Record<string, unknown>;
    if (Object.keys(wrapper).join() !== 'data') out.push(`${key}: the body is not { data: … }`);
    const body = new Set(operation.body ?? []);
    for (const name of Object.keys((wrapper.data ?? {}) as Record<string, unknown>)) {
      if (!body.has(name) && !KNOWN_EXCEPTIONS[`${key} body ${name}`]) out.push(`${key}: body field ${name} is not documented`);
    }
    for (const name of operation.required ?? []) {
      if (request.method === 'POST' && !(name in ((wrapper.data ?? {}) as object))) out.push(`${key}: required body field ${name} missing`);
    }
  }
  if (!(operation.headers ?? []).includes('X-API-VERSION') && !KNOWN_EXCEPTIONS[`${key} header X-API-VERSION`])
    out.push(`${key}: X-API-VERSION is not a documented header`);
  return out;
}

const fixtures: OperationFixture[] = await everyFixture();
const successFixtures = fixtures.filter((fixture) => 'output' in fixture.expect);
const requests = fixtures.flatMap((fixture) =>
  fixture.exchanges.map(
    (exchange) => [`${fixture.name ?? fixture.operation}: ${exchange.request.method} ${exchange.request.path}`, exchange.request] as const,
  ),
);

describe("every upstream request of the fixtures is in Clio's OpenAPI document", () => {
  it('has facts for all 277 documented operations', () => {
    expect(facts.operations).toHaveLength(277);
  });

  it('reaches a documented server for every region, below /api/v4', () => {
    for (const region of REGIONS) expect(facts.servers).toContain(baseUrlFor({ region }));
    for (const server of facts.servers) expect(new URL(server).pathname).toBe(API_PATH);
    expect(API).toBe(API_PATH);
  });

  it('pins an API version the document lists', () => {
    expect(facts.apiVersions).toContain(DEFAULT_API_VERSION);
    expect(facts.apiVersions).toContain(facts.defaultApiVersion);
  });

  it.each(requests)('%s', (_, request) => {
    expect(problems(request)).toEqual([]);
  });

  it('covers a request of every operation of the plugin', () => {
    const seen = new Set(fixtures.filter((f) => f.exchanges.length > 0).map((f) => f.operation));
    expect(clioPlugin.operations.map((o) => o.name).filter((name) => !seen.has(name))).toEqual([]);
  });

  it("declares only parameters Clio's document has for the operation's upstream (apart from the known exceptions)", () => {
    const out: string[] = [];
    for (const fixture of successFixtures) {
      const operation = clioPlugin.operations.find((o) => o.name === fixture.operation);
      const request = fixture.exchanges[0]?.request;
      if (!operation || !request) continue;
      const path = request.path.slice(API.length);
      const key = `${request.method} ${path}`;
      if (KNOWN_EXCEPTIONS[key]) continue;
      const documentedOperation = documented(request.method, path);
      const allowed = new Set([...(documentedOperation?.query ?? []), ...(documentedOperation?.body ?? [])]);
      const declared = Object.keys((operation.params as { properties: Record<string, unknown> }).properties);
      const pathNames = [...operation.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
      for (const name of declared) {
        if (pathNames.includes(name) || allowed.has(name)) continue;
        if (KNOWN_EXCEPTIONS[`${key} query ${name}`] || KNOWN_EXCEPTIONS[`${key} body ${name}`]) continue;
        out.push(`${operation.name}.${name}`);
      }
    }
    expect(out).toEqual([]);
  });

  it('and the checker itself refuses what the document does not have', () => {
    expect(problems({ method: 'GET', path: `${API}/matters` })).not.toEqual([]);
    expect(problems({ method: 'GET', path: `${API}/activity_rates.json`, query: { sort: 'id' } })).not.toEqual([]);
    expect(problems({ method: 'POST', path: `${API}/calendars.json`, body: { name: 'x' } })).not.toEqual([]);
    expect(problems({ method: 'POST', path: `${API}/calendars.json`, body: { data: { title: 'x', name: 'y' } } })).not.toEqual([]);
    expect(problems({ method: 'POST', path: `${API}/calendars.json`, body: { data: {} } })).not.toEqual([]);
    expect(problems({ method: 'GET', path: `${API}/bills/1.json`, query: { fields: 'id' } })).toEqual([]);
  });
});
