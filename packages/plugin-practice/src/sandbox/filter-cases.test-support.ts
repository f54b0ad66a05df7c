import type { FilterCase, FilterRecord, SandboxHarness } from '@portico/core/testing';
import { pickValue } from '@portico/core/testing';
import { clioPlugin } from '../index.js';
import { derivedCases } from './filter-derived.test-support.js';

// The cases of the Clio filter suite (../filters.test.ts): one rule per Clio list convention, and a table of the filters
// the rules cannot derive, each from its description in Clio's document.

type Call = SandboxHarness['call'];
type Params = Record<string, unknown>;

export interface Page {
  data?: FilterRecord[] | FilterRecord;
  meta?: { paging?: { next?: string } };
}

/** Every page of a list, following meta.paging.next. */
export async function collect(call: Call, operation: string, params: Params): Promise<FilterRecord[]> {
  const records: FilterRecord[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 50; pages += 1) {
    const body = await call<Page>(operation, { ...params, ...(token ? { page_token: token } : {}) });
    records.push(...(Array.isArray(body.data) ? body.data : []));
    const next = body.meta?.paging?.next;
    token = next ? (new URL(next).searchParams.get('page_token') ?? undefined) : undefined;
    if (!token) break;
  }
  return records;
}

const ids = (operation: string) => async (call: Call) => (await collect(call, operation, {})).map((r) => r.id);
const enumOf = (operation: string, param: string) => async () => {
  const schema = clioPlugin.operations.find((o) => o.name === operation)?.params.properties?.[param] as { enum?: unknown[] } | undefined;
  return schema?.enum ?? [];
};

/**
 * Lists that need a parameter before they answer anything: the records below a record (a path id), and lists Clio
 * refuses without a scope (notes need their type, conversation messages their conversation, legal aid expense
 * categories their region). The parameter, and where its values come from.
 */
const SCOPES: Record<string, [string, (call: Call) => Promise<unknown[]>]> = {
  list_matter_contacts: ['matter_id', ids('list_matters')],
  list_matter_related_contacts: ['matter_id', ids('list_matters')],
  list_contact_phone_numbers: ['contact_id', ids('list_contacts')],
  list_contact_email_addresses: ['contact_id', ids('list_contacts')],
  list_document_versions: ['id', ids('list_documents')],
  list_jurisdictions_to_triggers: ['jurisdiction_id', ids('list_jurisdictions')],
  list_conversation_messages: ['conversation_id', ids('list_conversations')],
  list_notes: ['type', enumOf('list_notes', 'type')],
  // The region only chooses the rate each category answers: any one lists them all.
  list_lauk_expense_categories: ['region', async () => ['London']],
};

/** The parameters every call of a case sends: the scope with the most records, and the fields the case reads. */
function baseFor(operation: string, fields: string): (call: Call) => Promise<Params> {
  return async (call) => {
    const scope = SCOPES[operation];
    if (!scope) return { fields };
    let best: { params: Params; count: number } = { params: { fields }, count: -1 };
    for (const value of await scope[1](call)) {
      const params = { [scope[0]]: value, fields };
      const count = (await collect(call, operation, params).catch(() => [])).length;
      if (count > best.count) best = { params, count };
    }
    return best.params;
  };
}

/** A filter Clio requires (a scope): the unfiltered set is every scope's records, each marked with its scope. */
function byScope(operation: string): FilterCase {
  const [param, values] = SCOPES[operation] as [string, (call: Call) => Promise<unknown[]>];
  const marked = new Map<unknown, unknown>();
  return {
    operation,
    filters: [param],
    all: async (call) => {
      const all: FilterRecord[] = [];
      for (const value of await values(call)) {
        for (const record of await collect(call, operation, { [param]: value, fields: 'id' })) {
          marked.set(record.id, value);
          all.push(record);
        }
      }
      return all;
    },
    pick: (records) => {
      const picked = pickValue(records, (r) => marked.get(r.id));
      return (
        picked && { params: { [param]: picked.value, fields: 'id' }, matches: picked.matches, label: `${param}=${String(picked.value)}` }
      );
    },
  };
}

const time = (value: unknown) => Date.parse(String(value));

/** ids[]: half of the records' ids (or, for a list of one, an id it does not hold). */
function byIds(operation: string): FilterCase {
  return {
    operation,
    filters: ['ids[]'],
    base: baseFor(operation, 'id'),
    pick: (records) => {
      if (records.length === 0) return undefined;
      const ids = records.length === 1 ? [Number(records[0]?.id) + 1000] : records.slice(0, Math.ceil(records.length / 2)).map((r) => r.id);
      return { params: { 'ids[]': ids }, matches: (r) => ids.includes(r.id), label: `ids[]=${ids.join(',')}` };
    },
  };
}

/** exclude_ids[]: half of the records' ids, which the answer must leave out. */
function byExcludedIds(operation: string): FilterCase {
  return {
    operation,
    filters: ['exclude_ids[]'],
    base: baseFor(operation, 'id'),
    pick: (records) => {
      const ids = records.slice(0, Math.floor(records.length / 2)).map((r) => r.id);
      return ids.length === 0
        ? undefined
        : { params: { 'exclude_ids[]': ids }, matches: (r) => !ids.includes(r.id), label: `exclude_ids[]=${ids.join(',')}` };
    },
  };
}

/** `open_date[]=>=<date>`: an operator and a date, here the middle date and on or after it. */
function byDated(operation: string, filter: string, field: string): FilterCase {
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${field}`),
    pick: (records) => {
      const dates = records
        .map((r) => String(r[field] ?? ''))
        .filter(Boolean)
        .sort();
      const pivot = dates[Math.floor(dates.length / 2)];
      return pivot === undefined
        ? undefined
        : {
            params: { [filter]: [`>=${pivot}`] },
            matches: (r) => String(r[field] ?? '') >= pivot && r[field] != null,
            label: `${filter}=>=${pivot}`,
          };
    },
  };
}

/** created_since / updated_since: the median time (or, for a list of one, just after its record). */
function bySince(operation: string, filter: 'created_since' | 'updated_since'): FilterCase {
  const field = filter === 'created_since' ? 'created_at' : 'updated_at';
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${field}`),
    pick: (records) => {
      const times = records
        .map((r) => time(r[field]))
        .filter((t) => !Number.isNaN(t))
        .sort((a, b) => a - b);
      if (times.length === 0) return undefined;
      const pivot =
        times.length === 1 ? (times[0] as number) + 1000 : (times.find((t) => t > (times[0] as number)) ?? (times[0] as number) + 1000);
      return {
        params: { [filter]: new Date(pivot).toISOString() },
        matches: (r) => time(r[field]) >= pivot,
        label: `${filter}=${new Date(pivot).toISOString()}`,
      };
    },
  };
}

/** `<name>_id`: the id of the record's `<name>` (one or several). */
function byAssociation(operation: string, filter: string): FilterCase {
  const name = filter.slice(0, -3);
  const read = (r: FilterRecord) => {
    const value = r[name];
    if (Array.isArray(value)) return value.map((v) => (v as FilterRecord | null)?.id);
    return (value as FilterRecord | null)?.id;
  };
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${name}{id}`),
    pick: (records) => {
      const picked = pickValue(records, read);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  };
}

/** A plain filter: the record's field of that name. */
function byField(operation: string, filter: string, field = filter): FilterCase {
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${field}`),
    pick: (records) => {
      const picked = pickValue(records, (r) => r[field]);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  };
}

/** A bound on a date or time field: the records on one side of the middle value. */
function byBound(operation: string, filter: string, field: string, keep: (order: number) => boolean): FilterCase {
  const order = (value: unknown, pivot: string) => {
    const text = String(value ?? '');
    if (text === '') return undefined;
    return pivot.length === 10 ? text.slice(0, 10).localeCompare(pivot) : Date.parse(text) - Date.parse(pivot);
  };
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${field}`),
    pick: (records) => {
      const values = records
        .map((r) => String(r[field] ?? ''))
        .filter(Boolean)
        .sort();
      const pivot = values[Math.floor(values.length / 2)];
      if (pivot === undefined) return undefined;
      return {
        params: { [filter]: pivot },
        matches: (r) => {
          const o = order(r[field], pivot);
          return o !== undefined && keep(o);
        },
        label: `${filter}=${pivot} (on ${field})`,
      };
    },
  };
}

/** A filter whose value is the record's field in another spelling (lower case, another word). */
function bySpelling(operation: string, filter: string, field: string, spell: (value: unknown) => unknown): FilterCase {
  return {
    ...byField(operation, filter, field),
    pick: (records) => {
      const picked = pickValue(records, (r) => r[field]);
      return (
        picked && { params: { [filter]: spell(picked.value) }, matches: picked.matches, label: `${filter}=${String(spell(picked.value))}` }
      );
    },
  };
}

/** The words of a record's text fields that `query` searches (a record's own name, number, subject …). */
const TEXT_FIELDS = 'name note display_number description subject summary title first_name last_name number body'.split(' ');
function byQuery(operation: string): FilterCase {
  const texts = (r: FilterRecord) => TEXT_FIELDS.map((f) => r[f]).filter((v): v is string => typeof v === 'string' && v !== '');
  return {
    operation,
    filters: ['query'],
    base: baseFor(operation, `id,${TEXT_FIELDS.join(',')}`),
    pick: (records) => {
      // One record's whole text (its name, say): what a user types to find it.
      const picked = pickValue(records, (r) => texts(r)[0]);
      if (!picked) return undefined;
      const needle = String(picked.value).toLowerCase();
      return {
        params: { query: String(picked.value) },
        matches: (r) => texts(r).some((t) => t.toLowerCase().includes(needle)),
        label: `query=${needle}`,
      };
    },
  };
}

/** A filter on the record's matter's association (a task's client is its matter's), read with a nested `fields`. */
function throughMatter(operation: string, filter: string, matter: 'matter' | 'matters', field: string): FilterCase {
  const read = (r: FilterRecord) =>
    ([] as unknown[])
      .concat(r[matter] ?? [])
      .map((m) => ((m as FilterRecord | null)?.[field] as FilterRecord | null | undefined)?.id)
      .filter((id) => id !== undefined && id !== null);
  return {
    operation,
    filters: [filter],
    base: baseFor(operation, `id,${matter}{id,${field}{id}}`),
    pick: (records) => {
      const picked = pickValue(records, read);
      return picked && { params: { [filter]: picked.value }, matches: picked.matches, label: `${filter}=${String(picked.value)}` };
    },
  };
}

/** "The last name or company name". */
const surnameOf = (r: FilterRecord) => String((r.type === 'Person' ? r.last_name : r.name) ?? r.name ?? '');
const today = new Date().toISOString().slice(0, 10);
const overdue = (r: FilterRecord) => r.state === 'awaiting_payment' && String(r.due_at ?? '9999').slice(0, 10) < today;
const after = (o: number) => o > 0;
const before = (o: number) => o < 0;
const from = (o: number) => o >= 0;
const until = (o: number) => o <= 0;

/**
 * The filters the rules cannot derive, by operation and filter: what they compare, from each filter's description in
 * Clio's document ("Filter Bill records to those that have a `due_date` after the one provided", …).
 */
const TABLE: Record<string, FilterCase> = {
  'list_activities.start_date': byBound('list_activities', 'start_date', 'date', from),
  'list_activities.end_date': byBound('list_activities', 'end_date', 'date', until),
  'list_bank_accounts.type': bySpelling('list_bank_accounts', 'type', 'type', (v) => `${String(v)}Account`),
  'list_bills.due_after': byBound('list_bills', 'due_after', 'due_at', after),
  'list_bills.due_before': byBound('list_bills', 'due_before', 'due_at', before),
  'list_bills.issued_after': byBound('list_bills', 'issued_after', 'issued_at', after),
  'list_bills.issued_before': byBound('list_bills', 'issued_before', 'issued_at', before),
  'list_bills.matter_id': {
    ...byAssociation('list_bills', 'matter_id'),
    base: baseFor('list_bills', 'id,matters{id}'),
    pick: (records) => {
      const picked = pickValue(records, (r) => ((r.matters as FilterRecord[] | null) ?? []).map((m) => m.id));
      return picked && { params: { matter_id: picked.value }, matches: picked.matches };
    },
  },
  'list_bills.status': {
    ...byField('list_bills', 'status', 'state'),
    base: baseFor('list_bills', 'id,state,due_at'),
    pick: () => ({ params: { status: 'overdue' }, matches: overdue, label: `status=overdue (awaiting payment, due before ${today})` }),
  },
  'list_bills.overdue_only': {
    ...byField('list_bills', 'overdue_only', 'state'),
    base: baseFor('list_bills', 'id,state,due_at'),
    pick: () => ({ params: { overdue_only: true }, matches: overdue }),
  },
  'list_calendar_entries.from': byBound('list_calendar_entries', 'from', 'end_at', from),
  'list_calendar_entries.to': byBound('list_calendar_entries', 'to', 'start_at', until),
  'list_matters.status': bySpelling('list_matters', 'status', 'status', (v) => String(v).toLowerCase()),
  'list_tasks.due_at_from': byBound('list_tasks', 'due_at_from', 'due_at', from),
  'list_tasks.due_at_to': byBound('list_tasks', 'due_at_to', 'due_at', until),
  'list_contacts.initial': {
    ...byField('list_contacts', 'initial', 'name'),
    base: baseFor('list_contacts', 'id,type,name,last_name'),
    pick: (records) => {
      const picked = pickValue(records, (r) => surnameOf(r).slice(0, 1).toUpperCase());
      return picked && { params: { initial: picked.value }, matches: picked.matches, label: `initial=${String(picked.value)}` };
    },
  },
  'list_contacts.client_only': {
    ...byField('list_contacts', 'client_only', 'is_client'),
    pick: () => ({ params: { client_only: true }, matches: (r) => r.is_client === true }),
  },
  'list_tasks.complete': {
    ...byField('list_tasks', 'complete', 'status'),
    pick: (records) => {
      const picked = pickValue(records, (r) => r.status === 'complete');
      return picked && { params: { complete: picked.value }, matches: picked.matches, label: `complete=${String(picked.value)}` };
    },
  },
  'list_calendar_entries.calendar_id': {
    ...byAssociation('list_calendar_entries', 'calendar_owner_id'),
    filters: ['calendar_id'],
    pick: (records) => {
      const picked = pickValue(records, (r) => (r.calendar_owner as FilterRecord | null)?.id);
      return picked && { params: { calendar_id: picked.value }, matches: picked.matches, label: `calendar_id=${String(picked.value)}` };
    },
  },
  'list_calendars.owner': {
    ...byField('list_calendars', 'owner', 'permission'),
    pick: () => ({ params: { owner: true }, matches: (r) => r.permission === 'owner' }),
  },
  'list_tasks.client_id': throughMatter('list_tasks', 'client_id', 'matter', 'client'),
  'list_tasks.responsible_attorney_id': throughMatter('list_tasks', 'responsible_attorney_id', 'matter', 'responsible_attorney'),
  'list_bills.originating_attorney_id': throughMatter('list_bills', 'originating_attorney_id', 'matters', 'originating_attorney'),
  'list_bills.responsible_attorney_id': throughMatter('list_bills', 'responsible_attorney_id', 'matters', 'responsible_attorney'),
  'list_tasks.statuses[]': {
    ...byField('list_tasks', 'statuses[]', 'status'),
    pick: (records) => {
      const picked = pickValue(records, (r) => r.status);
      return picked && { params: { 'statuses[]': [picked.value] }, matches: picked.matches };
    },
  },
  'list_matters.open_date[]': byDated('list_matters', 'open_date[]', 'open_date'),
  'list_matters.close_date[]': byDated('list_matters', 'close_date[]', 'close_date'),
  'list_matters.pending_date[]': byDated('list_matters', 'pending_date[]', 'pending_date'),
  'list_tasks.priority': bySpelling('list_tasks', 'priority', 'priority', (v) => String(v).toLowerCase()),
  'list_users.subscription_type': bySpelling('list_users', 'subscription_type', 'subscription_type', (v) => String(v).toLowerCase()),
};

const DERIVED = Object.fromEntries(derivedCases(collect).map((c) => [`${c.operation}.${c.filters[0]}`, c]));

export function ruleFor(operation: string, filter: string): FilterCase | undefined {
  const listed = TABLE[`${operation}.${filter}`] ?? DERIVED[`${operation}.${filter}`];
  if (listed) return listed;
  if (SCOPES[operation]?.[0] === filter) return byScope(operation);
  if (filter === 'query') return byQuery(operation);
  if (filter === 'ids[]') return byIds(operation);
  if (filter === 'exclude_ids[]') return byExcludedIds(operation);
  if (filter === 'created_since' || filter === 'updated_since') return bySince(operation, filter);
  if (/^\w+_id$/.test(filter)) return byAssociation(operation, filter);
  if (/^\w+$/.test(filter) && filter !== 'query') return byField(operation, filter);
  return undefined;
}
