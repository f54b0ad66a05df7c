// The tags routes of the emulated API: the tags of an account.
import { TAG_LEVELS, TAG_STATUSES } from '../../schemas.js';
import { enumParam, type RequestContext, sortItems } from '../request.js';
import { tagView } from '../views.js';
import { account, companyFilter, pageOf } from './lookups.js';

export function listTags(ctx: RequestContext) {
  const acc = account(ctx);
  const status = enumParam(ctx.query, 'status', TAG_STATUSES);
  const level = enumParam(ctx.query, 'tag_level', TAG_LEVELS);
  const companyId = companyFilter(ctx);
  const tags = ctx.data.tags.filter(
    (t) =>
      t.account_id === acc.id &&
      (status === undefined || t.status === status) &&
      (level === undefined || t.tag_level === level) &&
      // account-wide tags apply to every company
      (companyId === undefined || t.company_id === companyId || t.company_id === null),
  );
  const sorted = sortItems(tags, ctx.query, { name: (t) => t.name.toLowerCase() }, { key: 'name', order: 'asc' });
  return pageOf(ctx, 'tags', sorted, tagView);
}
