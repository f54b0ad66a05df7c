// The companies routes of the emulated API: the companies of an account.
import { fieldsParam, matches, type RequestContext, sortItems } from '../request.js';
import { companyView } from '../views.js';
import { account, owned, pageOf, withFields } from './lookups.js';

export function listCompanies(ctx: RequestContext) {
  const acc = account(ctx);
  const search = ctx.query.get('search') ?? undefined;
  const fields = fieldsParam(ctx.query);
  const companies = ctx.data.companies.filter((c) => c.account_id === acc.id && (search === undefined || matches(search, c.name)));
  const sorted = sortItems(companies, ctx.query, { name: (c) => c.name.toLowerCase() }, { key: 'name', order: 'asc' });
  return pageOf(ctx, 'companies', sorted, (c) => withFields(companyView(ctx.data, c), fields));
}

export function getCompany(ctx: RequestContext) {
  const acc = account(ctx);
  const company = owned(ctx.data.companies, acc.id, (c) => c.id === ctx.params.company_id);
  return withFields(companyView(ctx.data, company), fieldsParam(ctx.query));
}
