import { atMostOne, defineOperation, FreeObject, type ParamRule, Params, type TSchema, Type, together } from '@portico/core/plugin';
import { REPORT_PARAMS, type ReportParamName } from '../../schemas.js';
import { companyGet } from '../../upstream.js';

// A report_* operation from its row: the parameters QuickBooks takes for that report (from REPORT_PARAMS), the rules
// between them, and the GET of /reports/<name>.

export interface ReportSpec {
  /** Operation name (`report_profit_and_loss`). */
  name: string;
  /** Gateway path (`/reports/profit-and-loss`). */
  path: string;
  /** QuickBooks report name (`ProfitAndLoss`), the last segment of `/reports/<name>`. */
  report: string;
  /** The report's name as accountants know it. */
  title: string;
  /** The summary: imperative, the report's name and what people ask it for (docs/plugins.md). */
  summary: string;
  /** One to three sentences: what it shows, in the words people search with, and when to use it. */
  about: string;
  /** The query parameters QuickBooks takes for it (a subset of REPORT_PARAMS). */
  params: readonly ReportParamName[];
  example: Readonly<Record<string, string>>;
}

/** Dates that come in pairs, and named periods that replace them. */
function rulesFor(names: ReadonlySet<string>): ParamRule[] {
  const rules: ParamRule[] = [];
  const has = (...list: string[]) => list.every((name) => names.has(name));
  if (has('start_date', 'end_date')) rules.push(together('start_date', 'end_date'));
  if (has('date_macro', 'start_date')) rules.push(atMostOne('date_macro', 'start_date'));
  if (has('date_macro', 'report_date')) rules.push(atMostOne('date_macro', 'report_date'));
  if (has('start_duedate', 'end_duedate')) rules.push(together('start_duedate', 'end_duedate'));
  if (has('duedate_macro', 'start_duedate')) rules.push(atMostOne('duedate_macro', 'start_duedate'));
  return rules;
}

/** A date not after another: JSON Schema cannot compare two values. */
function inOrder(params: Record<string, unknown>, from: string, to: string): string | undefined {
  const a = params[from];
  const b = params[to];
  return typeof a === 'string' && typeof b === 'string' && a > b ? `params.${from}: must not be after ${to}` : undefined;
}

const ReportAnswer = Type.Object(
  {
    Header: FreeObject({ description: 'ReportName, StartPeriod, EndPeriod, ReportBasis, Currency, Option (NoReportData…)' }),
    Columns: Type.Optional(FreeObject({ description: 'Column: the columns, each with ColTitle and ColType' })),
    Rows: Type.Optional(FreeObject({ description: 'Row: sections (Header, Rows, Summary) and data rows (ColData values)' })),
  },
  { description: "QuickBooks' report JSON, unchanged" },
);

/** The sentence every report ends with: the QuickBooks report it runs, over which period, and what comes back. */
function reportSentence(report: string, names: ReadonlySet<string>): string {
  const answer = 'returns its JSON as sent (Header, Columns, Rows with Summary totals), in one answer with no paging';
  const macro = names.has('date_macro');
  if (names.has('start_date'))
    return `Runs QuickBooks' ${report} report for start_date to end_date${macro ? ' (or a date_macro)' : ''} and ${answer}.`;
  if (names.has('report_date')) {
    return `Runs QuickBooks' ${report} report as of report_date (default today${macro ? ', or the end of a date_macro' : ''}) and ${answer}.`;
  }
  return `Runs QuickBooks' ${report} report on the accounts as they are now (it takes no period) and ${answer}.`;
}

export function defineReport(spec: ReportSpec) {
  const names = new Set<string>(spec.params);
  const properties: Record<string, TSchema> = {};
  for (const name of spec.params) properties[name] = Type.Optional(REPORT_PARAMS[name]);
  return defineOperation({
    name: spec.name,
    method: 'GET',
    path: spec.path,
    summary: spec.summary,
    description: `${spec.about} ${reportSentence(spec.report, names)}`,
    params: Params(properties as Record<string, ReturnType<typeof Type.Optional<TSchema>>>, { rules: rulesFor(names) }),
    // What a schema cannot say: a period's first day is not after its last.
    check: (params) => inOrder(params, 'start_date', 'end_date') ?? inOrder(params, 'start_duedate', 'end_duedate'),
    response: ReportAnswer,
    upstream: (params, ctx) => companyGet(ctx.connection, ctx.settings, `/reports/${spec.report}`, params as Record<string, string>),
    example: spec.example,
  });
}
