// The caller ids routes of the emulated API: the numbers outbound calls may show.
import type { RequestContext } from '../request.js';
import { callerIdView } from '../views.js';
import { account, byCompany, companyFilter, owned, pageOf } from './lookups.js';

export function listCallerIds(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.callerIds.filter((c) => c.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'caller_ids', items, callerIdView);
}

export function getCallerId(ctx: RequestContext) {
  const acc = account(ctx);
  return callerIdView(owned(ctx.data.callerIds, acc.id, (c) => c.id === ctx.params.caller_id));
}
