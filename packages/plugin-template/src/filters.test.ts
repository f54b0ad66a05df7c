// Every documented list filter against the sandbox: the list unfiltered, a value picked from its records, the list
// filtered; the answer must be exactly the records that match. A new filter without a case fails the coverage check.
import { describeFilters, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { acmeTasksPlugin } from './index.js';

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(acmeTasksPlugin, { resetEachTest: false });

describeFilters(acmeTasksPlugin, {
  harness,
  // The list operations and the parameters that filter them (paging, sorting and fields do not).
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => o.name.startsWith('list_')).map((o) => [o.name, filterParams(o)])),
  records: (body) => (body as { data?: FilterRecord[] }).data ?? [],
  cases: [
    {
      operation: 'list_tasks',
      filters: ['status'],
      base: { per_page: '100' },
      pick: (records) => {
        const picked = pickValue(records, (task) => task.status);
        return picked && { params: { status: picked.value }, matches: picked.matches };
      },
    },
  ],
});
