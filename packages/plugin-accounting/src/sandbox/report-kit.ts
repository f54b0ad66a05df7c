import { ACCOUNTING_METHODS, SUMMARIZE_COLUMN_BY } from '../schemas.js';
import type { Json } from './company.js';
import { type Period, periodTitle, reportPeriod, splitPeriod, today } from './dates.js';
import { invalidParameter, qboTime } from './errors.js';
import { type Basis, isBalanceSheet, ledger, type Posting } from './ledger.js';
import type { Company } from './seed.js';

// What every report shares: its parameters, its Header, and QuickBooks' report JSON pieces (Columns, Data rows,
// Sections with a Header and a Summary).

export interface Cell {
  value: string;
  id?: string;
}

export type Row = Json;

export interface ReportContext {
  company: Company;
  name: string;
  query: URLSearchParams;
  basis: Basis;
  period: Period & { macro?: string };
  /** The postings of the basis, narrowed to the customers / vendors / classes / departments / items asked for. */
  postings: Posting[];
  customers?: Set<string>;
  vendors?: Set<string>;
  columnsBy: string;
}

export interface Report {
  Header: Json;
  Columns: { Column: Json[] };
  Rows: { Row: Row[] };
}

function idList(query: URLSearchParams, name: string): Set<string> | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const ids = raw.split(',').map((v) => v.trim());
  if (ids.some((id) => !/^\d+$/.test(id))) throw invalidParameter(name, `"${raw}" must be a comma-separated list of ids`);
  return new Set(ids);
}

/** Reads the parameters every report takes; an invalid one is a ValidationFault. */
export function reportContext(company: Company, name: string, query: URLSearchParams, defaultMacro: string): ReportContext {
  const method = query.get('accounting_method');
  let basis: Basis = 'Accrual';
  if (method !== null) {
    const canonical = ACCOUNTING_METHODS.find((b) => b.toLowerCase() === method.toLowerCase());
    if (!canonical) throw invalidParameter('accounting_method', `"${method}" is not Cash or Accrual`);
    basis = canonical;
  }
  const columnsBy = query.get('summarize_column_by') ?? 'Total';
  if (!(SUMMARIZE_COLUMN_BY as readonly string[]).includes(columnsBy)) {
    throw invalidParameter('summarize_column_by', `"${columnsBy}" is not one of ${SUMMARIZE_COLUMN_BY.join(', ')}`);
  }
  const customers = idList(query, 'customer');
  const vendors = idList(query, 'vendor');
  const classes = idList(query, 'class');
  const departments = idList(query, 'department');
  const items = idList(query, 'item');
  const postings = ledger(company.entities, basis).filter(
    (p) =>
      (!customers || (p.customerId !== undefined && customers.has(p.customerId))) &&
      (!vendors || (p.vendorId !== undefined && vendors.has(p.vendorId))) &&
      (!classes || (p.classId !== undefined && classes.has(p.classId))) &&
      (!departments || (p.departmentId !== undefined && departments.has(p.departmentId))) &&
      (!items || (p.itemId !== undefined && items.has(p.itemId))),
  );
  return {
    company,
    name,
    query,
    basis,
    period: reportPeriod(query, defaultMacro),
    postings,
    columnsBy,
    ...(customers ? { customers } : {}),
    ...(vendors ? { vendors } : {}),
  };
}

/** The report's Header: name, period, basis, currency, the server time and the options QuickBooks lists. */
export function header(ctx: ReportContext, empty: boolean, extra: Json = {}): Json {
  return {
    Time: qboTime(),
    ReportName: ctx.name,
    ...(ctx.period.macro ? { DateMacro: ctx.period.macro } : {}),
    ReportBasis: ctx.basis,
    StartPeriod: ctx.period.start,
    EndPeriod: ctx.period.end,
    SummarizeColumnsBy: ctx.columnsBy,
    Currency: 'USD',
    ...(ctx.customers ? { Customer: [...ctx.customers].join(',') } : {}),
    ...(ctx.vendors ? { Vendor: [...ctx.vendors].join(',') } : {}),
    ...extra,
    Option: [
      { Name: 'AccountingStandard', Value: 'GAAP' },
      { Name: 'NoReportData', Value: String(empty) },
    ],
  };
}

export function report(ctx: ReportContext, columns: Json[], rows: Row[], extraHeader: Json = {}): Report {
  return { Header: header(ctx, rows.length === 0, extraHeader), Columns: { Column: columns }, Rows: { Row: rows } };
}

export const column = (title: string, type: string, key?: string): Json => ({
  ColTitle: title,
  ColType: type,
  ...(key ? { MetaData: [{ Name: 'ColKey', Value: key }] } : {}),
});

/** The columns of a detail report, each written `Title:key`: QuickBooks types them by their key. */
export const keyedColumns = (...specs: string[]): Json[] =>
  specs.map((spec) => {
    const [title, key] = spec.split(':') as [string, string];
    return column(title, key, key);
  });

export const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
export const cells = (...values: Array<string | Cell>): Cell[] => values.map((v) => (typeof v === 'string' ? { value: v } : v));
export const dataRow = (...values: Array<string | Cell>): Row => ({ ColData: cells(...values), type: 'Data' });

export function section(title: Cell[] | undefined, rows: Row[], summary: Cell[] | undefined, group?: string): Row {
  return {
    ...(title ? { Header: { ColData: title } } : {}),
    ...(rows.length > 0 ? { Rows: { Row: rows } } : {}),
    ...(summary ? { Summary: { ColData: summary } } : {}),
    type: 'Section',
    ...(group ? { group } : {}),
  };
}

/** A one-line section that is only a summary (Gross Profit, Net Income). */
export const summaryRow = (group: string, ...values: string[]): Row => section(undefined, [], cells(...values), group);

/** One column of amounts: a period of the report, or one customer / vendor / class / department. */
export interface AmountColumn {
  title: string;
  key: string;
  test: (p: Posting) => boolean;
}

/** The postings dated within `period`. */
export const inPeriod = (period: Period) => (p: Posting) => p.date >= period.start && p.date <= period.end;

/** The amount columns `summarize_column_by` asks for; more than one gets a Total column after them. */
export function amountColumns(ctx: ReportContext): AmountColumn[] {
  const all = inPeriod(ctx.period);
  const by = ctx.columnsBy;
  const total: AmountColumn = { title: 'Total', key: 'total', test: all };
  if (['Month', 'Quarter', 'Year', 'Week', 'Days'].includes(by)) {
    const periods = splitPeriod(ctx.period, by as 'Month').map((period) => ({
      title: periodTitle(period, by),
      key: period.start,
      test: inPeriod(period),
    }));
    return periods.length > 1 ? [...periods, total] : [total];
  }
  const dimension: Record<string, [keyof Posting, Json[], string]> = {
    Customers: ['customerId', ctx.company.entities.Customer, 'DisplayName'],
    Vendors: ['vendorId', ctx.company.entities.Vendor, 'DisplayName'],
    Classes: ['classId', ctx.company.entities.Class, 'Name'],
    Departments: ['departmentId', ctx.company.entities.Department, 'Name'],
    ProductsAndServices: ['itemId', ctx.company.entities.Item, 'Name'],
  };
  const chosen = dimension[by];
  if (!chosen) return [total];
  const [field, list, label] = chosen;
  const used = new Set(ctx.postings.filter(all).map((p) => p[field]));
  const columns: AmountColumn[] = list
    .filter((record) => used.has(String(record.Id)))
    .map((record) => ({ title: String(record[label]), key: String(record.Id), test: (p) => all(p) && p[field] === record.Id }));
  if (used.has(undefined)) columns.push({ title: `Not Specified`, key: 'none', test: (p) => all(p) && p[field] === undefined });
  return columns.length > 1 ? [...columns, total] : [total];
}

/** The "as of" day of a balance or aging report: report_date, else end_date, else the sandbox's today. */
export function asOfDate(ctx: ReportContext): string {
  const reportDate = ctx.query.get('report_date');
  if (reportDate !== null) return reportDate;
  return ctx.query.get('end_date') ?? (ctx.query.get('date_macro') ? ctx.period.end : today());
}

/** Each account's AccountType, by account id. */
export const accountTypes = (ctx: ReportContext): Map<string, string> =>
  new Map(ctx.company.entities.Account.map((a) => [String(a.Id), String(a.AccountType)]));

export const accountCell = (account: Json): Cell => ({ value: String(account.Name), id: String(account.Id) });
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
export const add = (a: number[], b: number[]) => a.map((v, i) => v + (b[i] ?? 0));
export const sub = (a: number[], b: number[]) => a.map((v, i) => v - (b[i] ?? 0));

/** Net income (income minus expenses) of the postings that pass `test`. */
export function netIncome(ctx: ReportContext, test: (p: Posting) => boolean): number {
  const accounts = new Map(ctx.company.entities.Account.map((a) => [String(a.Id), a]));
  let total = 0;
  for (const p of ctx.postings) {
    const account = accounts.get(p.accountId);
    if (account && !isBalanceSheet(account) && test(p)) total -= p.amount;
  }
  return total;
}
