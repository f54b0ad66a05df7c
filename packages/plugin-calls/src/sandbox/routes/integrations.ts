// The integrations routes of the emulated API: integrations and their triggers.
import type { RequestContext } from '../request.js';
import { integrationView, triggerView } from '../views.js';
import { account, byCompany, companyFilter, owned, pageOf } from './lookups.js';

export function listIntegrations(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.integrations.filter((i) => i.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'integrations', items, integrationView);
}

export function getIntegration(ctx: RequestContext) {
  const acc = account(ctx);
  return integrationView(owned(ctx.data.integrations, acc.id, (i) => String(i.id) === ctx.params.integration_id));
}

export function listTriggers(ctx: RequestContext) {
  const acc = account(ctx);
  const items = ctx.data.triggers.filter((t) => t.account_id === acc.id).filter(byCompany(companyFilter(ctx)));
  return pageOf(ctx, 'integration_criteria', items, triggerView);
}

export function getTrigger(ctx: RequestContext) {
  const acc = account(ctx);
  return triggerView(owned(ctx.data.triggers, acc.id, (t) => String(t.id) === ctx.params.trigger_id));
}
