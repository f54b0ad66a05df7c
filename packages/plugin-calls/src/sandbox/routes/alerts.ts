// The alerts routes of the emulated API: notifications and summary emails.
import { badRequest, listParam, type RequestContext } from '../request.js';
import { notificationView, summaryEmailView } from '../views.js';
import { account, byCompany, companyFilter, owned, pageOf } from './lookups.js';

export function listNotifications(ctx: RequestContext) {
  const acc = account(ctx);
  return pageOf(
    ctx,
    'notifications',
    ctx.data.notifications.filter((n) => n.account_id === acc.id),
    notificationView,
  );
}

export function listSummaryEmails(ctx: RequestContext) {
  const acc = account(ctx);
  const frequencies = listParam(ctx.query, 'frequency');
  const bad = frequencies?.filter((f) => !['daily', 'weekly', 'monthly'].includes(f)) ?? [];
  if (bad.length > 0) throw badRequest(`Invalid frequency: ${bad.join(', ')}. Valid values: daily, weekly, monthly`);
  const userId = ctx.query.get('user_id') ?? undefined;
  const email = ctx.query.get('email')?.toLowerCase();
  const items = ctx.data.summaryEmails
    .filter((s) => s.account_id === acc.id)
    .filter(byCompany(companyFilter(ctx)))
    .filter((s) => frequencies === undefined || frequencies.includes(s.frequency))
    .filter((s) => userId === undefined || s.user_id === userId)
    .filter((s) => email === undefined || ctx.data.users.find((u) => u.id === s.user_id)?.email.toLowerCase() === email);
  return pageOf(ctx, 'summary_emails', items, (s) => summaryEmailView(ctx.data, s));
}

export function getSummaryEmail(ctx: RequestContext) {
  const acc = account(ctx);
  return summaryEmailView(
    ctx.data,
    owned(ctx.data.summaryEmails, acc.id, (s) => String(s.id) === ctx.params.summary_email_id),
  );
}
