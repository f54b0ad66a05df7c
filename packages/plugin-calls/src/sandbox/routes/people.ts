// The people routes of the emulated API: trackers and users.
import { TRACKER_STATUSES, TRACKER_TYPES } from '../../schemas.js';
import { enumParam, matches, type RequestContext } from '../request.js';
import { trackerView, userView } from '../views.js';
import { account, byCompany, companyFilter, owned, pageOf } from './lookups.js';

export function listTrackers(ctx: RequestContext) {
  const acc = account(ctx);
  const status = enumParam(ctx.query, 'status', TRACKER_STATUSES);
  const type = enumParam(ctx.query, 'type', TRACKER_TYPES);
  const items = ctx.data.trackers
    .filter((t) => t.account_id === acc.id)
    .filter(byCompany(companyFilter(ctx)))
    .filter((t) => (status === undefined || t.status === status) && (type === undefined || t.type === type));
  return pageOf(ctx, 'trackers', items, (t) => trackerView(ctx.data, t));
}

export function getTracker(ctx: RequestContext) {
  const acc = account(ctx);
  return trackerView(
    ctx.data,
    owned(ctx.data.trackers, acc.id, (t) => t.id === ctx.params.tracker_id),
  );
}

export function listUsers(ctx: RequestContext) {
  const acc = account(ctx);
  const companyId = companyFilter(ctx);
  const search = ctx.query.get('search') ?? undefined;
  const items = ctx.data.users.filter(
    (u) =>
      u.account_id === acc.id &&
      (companyId === undefined || u.company_ids.includes(companyId)) &&
      (search === undefined || matches(search, `${u.first_name} ${u.last_name}`, u.email)),
  );
  return pageOf(ctx, 'users', items, (u) => userView(ctx.data, u));
}

export function getUser(ctx: RequestContext) {
  const acc = account(ctx);
  return userView(
    ctx.data,
    owned(ctx.data.users, acc.id, (u) => u.id === ctx.params.user_id),
  );
}
