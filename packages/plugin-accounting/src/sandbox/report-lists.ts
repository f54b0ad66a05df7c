import type { Json } from './company.js';
import { invalidParameter } from './errors.js';
import type { Posting } from './ledger.js';
import { trialBalance } from './report-balances.js';
import {
  accountTypes,
  asOfDate,
  cells,
  column,
  dataRow,
  inPeriod,
  keyedColumns,
  money,
  type Report,
  type ReportContext,
  type Row,
  report,
  section,
  sum,
  summaryRow,
} from './report-kit.js';
import { type ListedTransaction, listedTransactions, TRANSACTION_LIST_COLUMNS } from './report-statements.js';
import { round2 } from './transactions.js';

// The remaining reports of QuickBooks' list: the journal, transactions with their splits or grouped by name, sales by
// class and by location, the sales tax summary, inventory valuation and the French trial balance — all computed from
// the same postings as the statements.

/** TrialBalanceFR: the same debit and credit balances, in the report QuickBooks France files. */
export const trialBalanceFr = (ctx: ReportContext): Report => trialBalance(ctx);

/** The postings of each transaction in the period, transactions in date order. */
function byTransaction(ctx: ReportContext): Posting[][] {
  const groups = new Map<string, Posting[]>();
  for (const p of ctx.postings.filter(inPeriod(ctx.period))) {
    const key = `${p.entity}/${p.txnId}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.values()];
}

/** The journal's columns: an entry's lines with the account and the debit or credit of each. */
const JOURNAL_COLUMNS = keyedColumns(
  'Date:tx_date',
  'Transaction Type:txn_type',
  'Num:doc_num',
  'Name:name',
  'Memo/Description:memo',
  'Account:account_name',
  'Debit:debt_amt',
  'Credit:credit_amt',
);

const accountNames = (ctx: ReportContext) => new Map(ctx.company.entities.Account.map((a) => [String(a.Id), String(a.Name)]));

/** JournalReport: every transaction of the period as journal lines, debits and credits, with a total per entry. */
export function journalReport(ctx: ReportContext): Report {
  const names = accountNames(ctx);
  const rows: Row[] = [];
  let debits = 0;
  let credits = 0;
  for (const postings of byTransaction(ctx)) {
    let debit = 0;
    let credit = 0;
    const lines = postings.map((p, i) => {
      if (p.amount > 0) debit += p.amount;
      else credit -= p.amount;
      const head = i === 0 ? [p.date, { value: p.txnType, id: p.txnId }, p.docNumber, p.name] : ['', '', '', ''];
      return dataRow(
        ...(head as Array<string | { value: string; id: string }>),
        p.memo,
        { value: names.get(p.accountId) ?? p.accountId, id: p.accountId },
        p.amount > 0 ? money(p.amount) : '',
        p.amount < 0 ? money(-p.amount) : '',
      );
    });
    debits += debit;
    credits += credit;
    rows.push(section(undefined, lines, cells('', '', '', '', '', '', money(debit), money(credit))));
  }
  rows.push(summaryRow('GrandTotal', 'TOTAL', '', '', '', '', '', money(debits), money(credits)));
  return report(ctx, JOURNAL_COLUMNS, rows);
}

/** TransactionListWithSplits: every posting transaction of the period with each of its account lines. */
export function transactionListWithSplits(ctx: ReportContext): Report {
  const names = accountNames(ctx);
  const rows: Row[] = [];
  for (const postings of byTransaction(ctx)) {
    const first = postings[0] as Posting;
    const lines = postings.map((p) =>
      dataRow(
        '',
        '',
        '',
        p.name,
        p.memo,
        { value: names.get(p.accountId) ?? p.accountId, id: p.accountId },
        p.amount > 0 ? money(p.amount) : '',
        p.amount < 0 ? money(-p.amount) : '',
      ),
    );
    const total = round2(sum(postings.filter((p) => p.amount > 0).map((p) => p.amount)));
    rows.push(
      section(
        cells(first.date, { value: first.txnType, id: first.txnId }, first.docNumber, first.name, first.memo, '', '', ''),
        lines,
        cells('', '', '', '', '', '', money(total), money(total)),
      ),
    );
  }
  return report(ctx, JOURNAL_COLUMNS, rows);
}

/** TransactionListByCustomer / TransactionListByVendor: the transaction list grouped by name, with a total each. */
export function transactionListBy(ctx: ReportContext, kind: 'Customer' | 'Vendor'): Report {
  const groups = new Map<string, ListedTransaction[]>();
  for (const entry of listedTransactions(ctx)) {
    if (entry.name?.kind !== kind) continue;
    groups.set(entry.name.value, [...(groups.get(entry.name.value) ?? []), entry]);
  }
  const list = kind === 'Customer' ? ctx.company.entities.Customer : ctx.company.entities.Vendor;
  const rows: Row[] = [];
  for (const record of list) {
    const entries = groups.get(String(record.Id));
    if (!entries) continue;
    const name = String(record.DisplayName);
    const total = sum(entries.map((e) => Number((e.row.ColData as Array<{ value: string }>)[8]?.value ?? 0)));
    rows.push(
      section(
        cells({ value: name, id: String(record.Id) }, '', '', '', '', '', '', '', ''),
        entries.map((e) => e.row),
        cells(`Total for ${name}`, '', '', '', '', '', '', '', money(total)),
      ),
    );
  }
  return report(ctx, TRANSACTION_LIST_COLUMNS, rows);
}

const INCOME_TYPES = new Set(['Income']);

/** ClassSales / DepartmentSales: income per class (or location) over the period; sales without one are "Not Specified". */
export function segmentSales(ctx: ReportContext, by: 'class' | 'department'): Report {
  const types = accountTypes(ctx);
  const field = by === 'class' ? 'classId' : 'departmentId';
  const list = by === 'class' ? ctx.company.entities.Class : ctx.company.entities.Department;
  const sales = ctx.postings.filter((p) => inPeriod(ctx.period)(p) && INCOME_TYPES.has(types.get(p.accountId) ?? ''));
  const amount = (test: (p: Posting) => boolean) => round2(-sum(sales.filter(test).map((p) => p.amount)));
  const rows: Row[] = [];
  for (const record of list) {
    const total = amount((p) => p[field] === record.Id);
    if (total !== 0) rows.push(dataRow({ value: String(record.Name), id: String(record.Id) }, money(total)));
  }
  const unassigned = amount((p) => p[field] === undefined);
  if (unassigned !== 0) rows.push(dataRow('Not Specified', money(unassigned)));
  if (rows.length > 0) rows.push(summaryRow('GrandTotal', 'TOTAL', money(amount(() => true))));
  return report(ctx, [column('', by === 'class' ? 'Class' : 'Department'), column('Total', 'Money', 'total')], rows);
}

/** InventoryValuationSummary: items that track quantity on hand, with their value (the firm keeps no inventory). */
export function inventoryValuationSummary(ctx: ReportContext): Report {
  const day = asOfDate(ctx);
  const stocked = ctx.company.entities.Item.filter((item) => item.Type === 'Inventory' && item.TrackQtyOnHand === true);
  const rows: Row[] = stocked.map((item) => {
    const qty = Number(item.QtyOnHand ?? 0);
    const cost = Number(item.PurchaseCost ?? 0);
    return dataRow({ value: String(item.Name), id: String(item.Id) }, String(item.Sku ?? ''), String(qty), money(qty * cost), money(cost));
  });
  if (rows.length > 0) rows.push(summaryRow('GrandTotal', 'TOTAL', '', '', money(0)));
  const columns = [
    column('', 'ProductsAndService'),
    column('SKU', 'String', 'sku'),
    column('Qty', 'Money', 'qty_on_hand'),
    column('Asset Value', 'Money', 'asset_value'),
    column('Calc. Avg', 'Money', 'calc_avg'),
  ];
  return report(ctx, columns, rows, { StartPeriod: day, EndPeriod: day });
}

/** TaxSummary: gross, non-taxable and taxable sales and the tax collected for one agency (agency_id). */
export function taxSummary(ctx: ReportContext): Report {
  const agencies = ctx.company.entities.TaxAgency;
  const asked = ctx.query.get('agency_id');
  const agency = asked === null ? agencies[0] : agencies.find((a) => a.Id === asked);
  if (!agency) throw invalidParameter('agency_id', `"${asked}" is not a tax agency of this company`);
  const types = accountTypes(ctx);
  const sales = ctx.postings.filter(
    (p) => inPeriod(ctx.period)(p) && p.itemId !== undefined && INCOME_TYPES.has(types.get(p.accountId) ?? ''),
  );
  const gross = round2(-sum(sales.map((p) => p.amount)));
  const taxable = round2(-sum(sales.filter((p) => p.taxable).map((p) => p.amount)));
  const tax = round2(
    sum(
      [...ctx.company.entities.Invoice, ...ctx.company.entities.SalesReceipt]
        .filter((t) => String(t.TxnDate) >= ctx.period.start && String(t.TxnDate) <= ctx.period.end)
        .map((t) => Number((t.TxnTaxDetail as Json | undefined)?.TotalTax ?? 0)),
    ),
  );
  const rows: Row[] = [
    section(
      cells({ value: String(agency.DisplayName), id: String(agency.Id) }, '', '', '', ''),
      [dataRow('San Diego County (8.75%)', money(gross), money(gross - taxable), money(taxable), money(tax))],
      cells(`Total ${agency.DisplayName}`, money(gross), money(gross - taxable), money(taxable), money(tax)),
    ),
  ];
  const columns = [
    column('', 'TaxRate'),
    column('Gross Sales', 'Money', 'gross_sales'),
    column('Non-Taxable Sales', 'Money', 'nontaxable_sales'),
    column('Taxable Sales', 'Money', 'taxable_sales'),
    column('Tax Amount', 'Money', 'tax_amount'),
  ];
  return report(ctx, columns, rows, { TaxAgency: String(agency.Id) });
}
