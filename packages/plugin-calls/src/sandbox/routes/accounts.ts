// The accounts routes of the emulated API: the accounts the key may see.
import { boolParam, fieldsParam, type RequestContext, sortItems } from '../request.js';
import { accountView } from '../views.js';
import { account, pageOf, withFields } from './lookups.js';

export function listAccounts(ctx: RequestContext) {
  const hipaa = boolParam(ctx.query, 'hipaa_account');
  const fields = fieldsParam(ctx.query);
  const items = sortItems(
    ctx.data.accounts.filter((a) => hipaa === undefined || a.hipaa_account === hipaa),
    ctx.query,
    { name: (a) => a.name.toLowerCase() },
    { key: 'name', order: 'asc' },
  );
  return pageOf(ctx, 'accounts', items, (a) => withFields(accountView(a), fields));
}

export function getAccount(ctx: RequestContext) {
  return withFields(accountView(account(ctx)), fieldsParam(ctx.query));
}
