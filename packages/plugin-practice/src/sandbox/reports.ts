import { badRequest, type Db, type Row, type Stored } from './model.js';

// The collections Clio computes rather than stores: matters and clients with unbilled work (from the activities) and
// what each client owes (from the unpaid issued bills). Computed when listed, so that a time entry just logged or a
// bill just changed shows at once, as in Clio.

const rowsOf = (db: Db, template: string): Row[] => (db.records.get(template) ?? []).map((s) => s.row);
const idOf = (value: unknown): number | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number'
    ? (value as { id: number }).id
    : undefined;
function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
const cents = (n: number) => Math.round(n * 100) / 100;
const numberOr0 = (value: unknown) => (typeof value === 'number' ? value : 0);

/** A computed row, dated like the records it sums. */
function computed(fields: Record<string, unknown> & { id: number }, from: Row[]): Stored {
  const stamp = from.map((r) => r.updated_at).sort()[from.length - 1] ?? '';
  return { row: { created_at: stamp, updated_at: stamp, etag: `"${fields.id}-${stamp}"`, ...fields }, scope: {}, version: 1 };
}

/** Unbilled, billable activities on a matter, within start_date/end_date when given (the report's own period). */
function unbilledActivities(db: Db, query: URLSearchParams): Row[] {
  const start = query.get('start_date');
  const end = query.get('end_date');
  return rowsOf(db, '/activities').filter(
    (a) =>
      !a.billed &&
      !a.non_billable &&
      !a.bill &&
      idOf(a.matter) !== undefined &&
      (start === null || String(a.date) >= start) &&
      (end === null || String(a.date) <= end),
  );
}

function totals(activities: Row[]) {
  const hours = activities.filter((a) => a.type === 'TimeEntry').reduce((sum, a) => sum + numberOr0(a.quantity), 0) / 3600;
  return { unbilled_hours: cents(hours), unbilled_amount: cents(activities.reduce((sum, a) => sum + numberOr0(a.total), 0)) };
}

function billableMatters(db: Db, query: URLSearchParams): Stored[] {
  const byMatter = groupBy(unbilledActivities(db, query), (a) => idOf(a.matter) as number);
  const matters = rowsOf(db, '/matters');
  return [...byMatter].flatMap(([matterId, activities]) => {
    const matter = matters.find((m) => m.id === matterId);
    if (!matter) return [];
    const client = idOf(matter.client);
    return [
      computed(
        {
          id: matterId,
          matter_id: matterId,
          display_number: matter.display_number ?? null,
          client: client === undefined ? null : { id: client },
          ...totals(activities),
          amount_in_trust: 0,
          currency_code: 'USD',
        },
        activities,
      ),
    ];
  });
}

function billableClients(db: Db, query: URLSearchParams): Stored[] {
  const matters = billableMatters(db, query);
  const contacts = rowsOf(db, '/contacts');
  const byClient = groupBy(
    matters.filter((m) => m.row.client !== null),
    (m) => idOf(m.row.client) as number,
  );
  return [...byClient].map(([clientId, ofClient]) => {
    const activities = unbilledActivities(db, query).filter((a) => ofClient.some((m) => m.row.id === idOf(a.matter)));
    return computed(
      {
        id: clientId,
        client_id: clientId,
        matter_id: ofClient.map((m) => m.row.id),
        name: contacts.find((c) => c.id === clientId)?.name ?? null,
        ...totals(activities),
        amount_in_trust: 0,
        billable_matters_count: ofClient.length,
        billable_matters: ofClient.map((m) => ({ id: m.row.id, display_number: m.row.display_number })),
      },
      activities,
    );
  });
}

function outstandingClientBalances(db: Db): Stored[] {
  const unpaid = rowsOf(db, '/bills').filter(
    (b) => b.state === 'awaiting_payment' && numberOr0(b.balance) > 0 && idOf(b.client) !== undefined,
  );
  const byClient = groupBy(unpaid, (b) => idOf(b.client) as number);
  const contacts = rowsOf(db, '/contacts');
  const allocations = rowsOf(db, '/allocations').filter((a) => a.status !== 'invalid');
  return [...byClient].map(([clientId, bills]) => {
    const newestDue = bills.map((b) => String(b.due_at)).sort()[bills.length - 1] ?? null;
    // the client's last payment: the newest payment allocated to one of its bills
    const paid = allocations
      .filter((a) => idOf(a.contact) === clientId)
      .map((a) => String(a.date))
      .sort();
    return computed(
      {
        id: clientId,
        contact: { id: clientId, name: contacts.find((c) => c.id === clientId)?.name ?? null },
        contact_id: clientId,
        associated_matter_ids: [...new Set(bills.flatMap((b) => (Array.isArray(b.matters) ? b.matters.map(idOf) : [])))],
        total_outstanding_balance: cents(bills.reduce((sum, b) => sum + numberOr0(b.balance), 0)),
        last_payment_date: paid[paid.length - 1] ?? null,
        newest_bill_due_date: newestDue,
        newest_issued_bill_due_date: newestDue,
      },
      bills,
    );
  });
}

/**
 * The UK legal aid expense categories with the rate of the region asked for (Clio requires the region): the London
 * rate for London, the other one elsewhere.
 */
function legalAidExpenseCategories(db: Db, query: URLSearchParams): Stored[] {
  const region = query.get('region');
  if (region === null || region.trim() === '') throw badRequest('region is required');
  return (db.records.get('/lauk_expense_categories') ?? []).map((stored) => {
    const { london_rate, non_london_rate, ...row } = stored.row;
    return { ...stored, row: { ...row, rate: region.toLowerCase() === 'london' ? london_rate : non_london_rate } as Row };
  });
}

/**
 * A folder's contents: its folders and documents together. Without parent_id, the account's root folder (the records
 * at the top), unless scope=descendants asks for everything below it.
 */
function folderContents(db: Db, query: URLSearchParams): Stored[] {
  const all = [...(db.records.get('/folders') ?? []), ...(db.records.get('/documents') ?? [])];
  if (query.has('parent_id') || query.get('scope') === 'descendants') return all;
  return all.filter((s) => idOf(s.row.parent) === undefined);
}

/** The records of a computed collection, for a list; undefined for a stored one. */
export function reportRecords(db: Db, template: string, query: URLSearchParams): Stored[] | undefined {
  if (template === '/billable_matters' || template === '/billable_matters/ids') return billableMatters(db, query);
  if (template === '/billable_clients') return billableClients(db, query);
  if (template === '/outstanding_client_balances') return outstandingClientBalances(db);
  if (template === '/folders/list') return folderContents(db, query);
  if (template === '/lauk_expense_categories') return legalAidExpenseCategories(db, query);
  return undefined;
}
