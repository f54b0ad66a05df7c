import { type AuditEntry, type AuditPage, type AuditQuery, type AuditRecord, ERROR_CODES, GatewayError } from '@portico/core';

/** The filters of `GET /api/admin/audit` (and of `portico audit`, whose `--key` is `key_id`). */
export const AUDIT_FILTERS = ['service', 'operation', 'protocol', 'status', 'code', 'key_id', 'since', 'until', 'cursor', 'limit'] as const;
export type AuditFilterName = (typeof AUDIT_FILTERS)[number];

const PROTOCOLS: ReadonlyArray<AuditRecord['protocol']> = ['rest', 'mcp', 'dashboard', 'admin', 'cli'];
export const AUDIT_PAGE_DEFAULT = 100;
export const AUDIT_PAGE_MAX = 1000;
/** RFC 3339 with a four-digit year: a day, or a time with seconds optional, fraction optional, and a zone. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads the audit filters from a query string (or the CLI's flags) into a store query, refusing anything it does not
 * understand with 400 `bad_request`: an unknown filter, one given twice, or a value of the wrong form. Times are
 * normalised to the stored form (UTC, milliseconds), so that they compare as the records' `at` does.
 */
export function parseAuditQuery(workspaceId: string, input: Readonly<Record<string, string | string[] | undefined>>): AuditQuery {
  const problems: string[] = [];
  const values: Partial<Record<AuditFilterName, string>> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (!(AUDIT_FILTERS as readonly string[]).includes(name)) {
      problems.push(`unknown filter "${name.slice(0, 40)}" (filters: ${AUDIT_FILTERS.join(', ')})`);
      continue;
    }
    if (Array.isArray(value)) problems.push(`${name} may be given once`);
    else values[name as AuditFilterName] = value;
  }
  const query: AuditQuery = { workspaceId, limit: AUDIT_PAGE_DEFAULT };
  const text = (name: 'service' | 'operation' | 'key_id'): string | undefined => {
    const value = values[name];
    if (value === undefined) return undefined;
    if (value.length === 0 || value.length > 200 || CONTROL.test(value)) {
      problems.push(`${name} must be 1 to 200 printable characters`);
      return undefined;
    }
    return value;
  };
  const time = (name: 'since' | 'until'): string | undefined => {
    const value = values[name];
    if (value === undefined) return undefined;
    const parsed = TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(parsed)) {
      problems.push(`${name} must be a date (2026-01-31) or a time with its zone (2026-01-31T12:00:00Z)`);
      return undefined;
    }
    return new Date(parsed).toISOString();
  };

  const service = text('service');
  const operation = text('operation');
  const keyId = text('key_id');
  if (service !== undefined) query.service = service;
  if (operation !== undefined) query.operation = operation;
  if (keyId !== undefined) query.keyId = keyId;
  if (values.protocol !== undefined) {
    if (PROTOCOLS.includes(values.protocol as AuditRecord['protocol'])) query.protocol = values.protocol as AuditRecord['protocol'];
    else problems.push(`protocol must be one of ${PROTOCOLS.join(', ')}`);
  }
  if (values.status !== undefined) {
    const status = values.status.toLowerCase();
    if (/^[1-5]\d\d$/.test(status)) query.status = Number(status);
    else if (/^[1-5]xx$/.test(status)) query.status = status as `${1 | 2 | 3 | 4 | 5}xx`;
    else problems.push('status must be a status (429) or a class (4xx)');
  }
  if (values.code !== undefined) {
    if ((ERROR_CODES as readonly string[]).includes(values.code)) query.code = values.code;
    else problems.push(`code must be an error code (${ERROR_CODES.join(', ')})`);
  }
  const since = time('since');
  const until = time('until');
  if (since !== undefined) query.since = since;
  if (until !== undefined) query.until = until;
  if (since !== undefined && until !== undefined && since >= until) problems.push('since must be before until');
  if (values.cursor !== undefined) {
    if (/^[1-9]\d{0,17}$/.test(values.cursor)) query.before = values.cursor;
    else problems.push('cursor must be the next_cursor of a previous page');
  }
  if (values.limit !== undefined) {
    const limit = /^\d{1,7}$/.test(values.limit) ? Number(values.limit) : 0;
    if (limit >= 1 && limit <= AUDIT_PAGE_MAX) query.limit = limit;
    else problems.push(`limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`);
  }
  if (problems.length > 0) throw new GatewayError('bad_request', `Invalid audit query: ${problems.join('; ')}`);
  return query;
}

/** A page as the admin API answers it: the records (newest first, each with its id) and where the next page starts. */
export function publicAuditPage(page: AuditPage): { records: AuditEntry[]; next_cursor: string | null } {
  return { records: page.records, next_cursor: page.next };
}
