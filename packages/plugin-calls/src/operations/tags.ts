import { defineOperation, Params, requires, StringEnum, Type } from '@portico/core/plugin';
import { AccountId, AnyRecord, CompanyFilter, MAX_PER_PAGE, Order, Paged, TAG_LEVELS, TAG_STATUSES } from '../schemas.js';
import { callrailGet } from '../upstream.js';

export const getTags = defineOperation({
  name: 'get_tags',
  method: 'GET',
  path: '/accounts/:account_id/tags',
  summary: 'List the tags used to label calls, texts and forms',
  description:
    'Returns the tags of an account, which label calls, texts and form submissions, with id (the tags filter of ' +
    'list_calls and list_form_submissions), name, color, tag_level (account-wide or company-specific), company_id ' +
    'and status. Filter by company_id, status or tag_level; one answer holds up to 250 tags, under tags.',
  params: Params(
    {
      account_id: AccountId,
      company_id: CompanyFilter,
      status: Type.Optional(StringEnum(TAG_STATUSES, { description: 'Only enabled or only disabled tags.' })),
      tag_level: Type.Optional(StringEnum(TAG_LEVELS, { description: 'Only account-wide or only company-specific tags.' })),
      sort: Type.Optional(StringEnum(['name'] as const, { description: 'Sort field (name); give order for the direction.' })),
      order: Order,
    },
    // CallRail: "If order is provided, sort is required" (one-way: sort alone is fine).
    { rules: [requires('order', 'sort')] },
  ),
  response: Paged('tags', AnyRecord, 'Tags: id, name, color, tag_level, company_id, status'),
  // The catalog gives this operation no paging parameters: ask for CallRail's largest page so one call returns all tags of
  // nearly any account. https://apidocs.callrail.com/#retrieving-all-tags
  upstream: callrailGet('/a/:account_id/tags.json', { fixedQuery: { per_page: String(MAX_PER_PAGE) } }),
  example: { account_id: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e', status: 'enabled', sort: 'name', order: 'asc' },
});
