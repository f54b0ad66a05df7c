// The lookups the routes share: the account of the path, records it owns, requested fields, company filters, pages.
import type { AccountRec } from '../records.js';
import { badRequest, notFound, type Paging, paged, paging, type RequestContext } from '../request.js';
import { project, type View } from '../views.js';

export function account(ctx: RequestContext): AccountRec {
  const found = ctx.data.accounts.find((a) => a.id === ctx.params.account_id);
  if (!found) throw notFound();
  return found;
}

export function owned<T extends { account_id: string }>(items: readonly T[], accountId: string, match: (item: T) => boolean): T {
  const found = items.find((item) => item.account_id === accountId && match(item));
  if (!found) throw notFound();
  return found;
}

/** Projects a view, refusing unknown requested fields as a 400. */
export function withFields(view: View, requested: readonly string[]): Record<string, unknown> {
  const { value, unknown } = project(view, requested);
  if (unknown.length > 0) {
    const valid = Object.keys(view.full).filter((key) => !view.defaults.includes(key));
    throw badRequest(`Invalid field(s) requested: ${unknown.join(', ')}. Valid fields: ${valid.join(', ')}`);
  }
  return value;
}

export function companyFilter(ctx: RequestContext): string | undefined {
  return ctx.query.get('company_id') ?? undefined;
}

export const byCompany = (companyId: string | undefined) => (item: { company_id: string | null }) =>
  companyId === undefined || item.company_id === companyId;

export function pageOf<T>(
  ctx: RequestContext,
  key: string,
  items: readonly T[],
  view: (item: T) => unknown,
  page: Paging = paging(ctx.query),
) {
  return paged(key, items, page, view);
}
