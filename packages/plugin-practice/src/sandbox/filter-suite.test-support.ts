import { describeFilters, type FilterCase, filterParams, type SandboxHarness } from '@portico/core/testing';
import { clioPlugin } from '../index.js';
import { collect, type Page, ruleFor } from './filter-cases.test-support.js';

// Every documented list filter of the Clio plugin against its sandbox, declared by filters.test.ts and
// filters-billing.test.ts (each with a sandbox of its own). Clio's filters follow a few conventions, so most cases come
// from one rule per convention, with values picked from the records the list answers: ids[], created_since and
// updated_since on every list; `<name>_id` compares the record's `<name>.id`; a plain filter compares the record's
// field of that name (filter-cases.test-support.ts). Filters whose value Clio derives have their own case
// (filter-derived.test-support.ts); those not exercised yet are listed with the reason.

/**
 * The lists about money (time and expenses, bills, payments, trust and bank accounts, rates): filters-billing.test.ts
 * exercises them against a sandbox of its own, so that neither file sends more than the sandbox's 1,000 requests a
 * minute.
 */
export const BILLING = /activit|bill|bank|allocation|credit_memo|payment|line_item|interest|balance|expense|rate|currenc/;
const LISTS = clioPlugin.operations.filter((o) => o.name.startsWith('list_'));

/**
 * Filters not exercised yet, by what is missing: what Clio means by them, or data the sandbox does not model. Each needs
 * that, seeded records that differ on it and a rule in sandbox/filters.ts. The suite shows them as todo tests.
 */
const NOT_YET: Record<string, Record<string, string>> = {
  'Clio’s document says only "Only unaccounted for activities": no field or state of an activity it reads': {
    list_activities: 'only_unaccounted_for',
  },
  'Clio’s document does not say which kind of record (matter, document, calendar …) a shared resource id names': {
    list_contacts: 'shared_resource_id',
  },
};
const PENDING = Object.fromEntries(
  Object.entries(NOT_YET).flatMap(([reason, operations]) =>
    Object.entries(operations).flatMap(([operation, filters]) => filters.split(' ').map((filter) => [`${operation}.${filter}`, reason])),
  ),
);

const EXCEPTIONS: Record<string, string> = {
  'list_activity_descriptions.rate_for[matter_id]':
    'Chooses which rate each description answers (the one for that matter), not which descriptions are listed.',
  'list_activity_descriptions.rate_for[user_id]':
    'Chooses which rate each description answers (the one for that user), not which descriptions are listed.',
  'list_matters.custom_field_ids[]': 'Chooses which custom field values each matter carries, not which matters are listed.',
  'list_contacts.custom_field_ids[]': 'Chooses which custom field values each contact carries, not which contacts are listed.',
  'list_matter_contacts.custom_field_ids[]': 'Chooses which custom field values each contact carries, not which contacts are listed.',
  'list_lauk_expense_categories.region': 'Chooses which rate each category answers (London or elsewhere), not which categories are listed.',
};

/** The filter suite of the lists `only` accepts. */
export function describeClioFilters(harness: SandboxHarness, only: (operation: string) => boolean): void {
  const lists = LISTS.filter((o) => only(o.name));
  const mine = (key: string) => only(key.split('.')[0] as string);
  const pending = Object.fromEntries(Object.entries(PENDING).filter(([key]) => mine(key)));
  const exceptions = Object.fromEntries(Object.entries(EXCEPTIONS).filter(([key]) => mine(key)));
  const cases: FilterCase[] = [];
  for (const operation of lists) {
    for (const filter of filterParams(operation)) {
      const key = `${operation.name}.${filter}`;
      if (key in pending || key in exceptions) continue;
      const found = ruleFor(operation.name, filter);
      if (found) cases.push(found);
    }
  }

  describeFilters(clioPlugin, {
    harness,
    filtersOf: () => new Map(lists.map((o) => [o.name, filterParams(o)])),
    records: (body) => {
      const data = (body as Page).data;
      return Array.isArray(data) ? data : [];
    },
    collect,
    cases,
    pending,
    exceptions,
  });
}
