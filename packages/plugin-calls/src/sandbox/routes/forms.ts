// The forms routes of the emulated API: form submissions.
import { LIST_LEAD_STATUSES } from '../../schemas.js';
import type { FormRec } from '../records.js';
import { boolParam, dateWindow, enumParam, fieldsParam, inWindow, listParam, type RequestContext, sortItems } from '../request.js';
import { formView } from '../views.js';
import { account, companyFilter, owned, pageOf, withFields } from './lookups.js';

export function listForms(ctx: RequestContext) {
  const acc = account(ctx);
  const q = ctx.query;
  const window = dateWindow(q);
  const companyId = companyFilter(ctx);
  const personLead = boolParam(q, 'person_lead');
  const lead = enumParam(q, 'lead_status', LIST_LEAD_STATUSES);
  const tagIds = listParam(q, 'tags')?.map(Number);
  const fields = fieldsParam(q);
  const forms = ctx.data.forms.filter(
    (f) =>
      f.account_id === acc.id &&
      inWindow(f.submitted_at, window) &&
      (companyId === undefined || f.company_id === companyId) &&
      (personLead === undefined || (f.person_id !== null) === personLead) &&
      (lead === undefined || (lead === 'not_scored' ? f.lead_status === null : f.lead_status === lead)) &&
      (tagIds === undefined || f.tag_ids.some((id) => tagIds.includes(id))),
  );
  const sorted = sortItems(
    forms,
    q,
    {
      created_at: (f: FormRec) => Date.parse(f.created_at),
      submitted_at: (f: FormRec) => Date.parse(f.submitted_at),
      form_url: (f: FormRec) => f.form_url,
    },
    { key: 'submitted_at', order: 'desc' },
  );
  return pageOf(ctx, 'form_submissions', sorted, (f) => withFields(formView(ctx.data, f), fields));
}

export function getForm(ctx: RequestContext) {
  const acc = account(ctx);
  const form = owned(ctx.data.forms, acc.id, (f) => f.id === ctx.params.form_submission_id);
  return withFields(formView(ctx.data, form), fieldsParam(ctx.query));
}
