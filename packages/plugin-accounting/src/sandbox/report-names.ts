import type { Json, Ref } from './company.js';
import { daysBetween } from './dates.js';
import {
  accountTypes,
  amountColumns,
  asOfDate,
  type Cell,
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
import { round2 } from './transactions.js';

// Reports by customer, vendor and product: sales and income (from the basis's postings), and balances and aging of
// open invoices and bills. A/R and A/P exist only on the accrual basis, so the balance reports are empty on Cash;
// aging reports take no basis on QuickBooks and age the open documents whatever the basis.

const INCOME_TYPES = new Set(['Income', 'Other Income']);
const EXPENSE_TYPES = new Set(['Expense', 'Other Expense', 'Cost of Goods Sold']);

/** Sales (or expenses) per name, one column per period or a Total: CustomerSales and VendorExpenses. */
function byName(ctx: ReportContext, kind: 'customer' | 'vendor'): Report {
  const types = accountTypes(ctx);
  const columns = amountColumns(ctx).filter((c) => !['Customers', 'Vendors'].includes(ctx.columnsBy) || c.key === 'total');
  const list = kind === 'customer' ? ctx.company.entities.Customer : ctx.company.entities.Vendor;
  const field = kind === 'customer' ? 'customerId' : 'vendorId';
  const counts = kind === 'customer' ? (t: string) => INCOME_TYPES.has(t) && t !== 'Other Income' : (t: string) => EXPENSE_TYPES.has(t);
  const sign = kind === 'customer' ? -1 : 1;
  const totals = columns.map(() => 0);
  const rows: Row[] = [];
  for (const record of list) {
    const mine = ctx.postings.filter((p) => p[field] === record.Id && counts(types.get(p.accountId) ?? ''));
    const values = columns.map((c) => round2(sign * mine.filter(c.test).reduce((s, p) => s + p.amount, 0)));
    if (values.every((v) => v === 0)) continue;
    values.forEach((v, i) => {
      totals[i] = (totals[i] ?? 0) + v;
    });
    rows.push(dataRow({ value: String(record.DisplayName), id: String(record.Id) }, ...values.map(money)));
  }
  rows.push(summaryRow('GrandTotal', 'TOTAL', ...totals.map(money)));
  const first = kind === 'customer' ? column('', 'Customer') : column('', 'Vendor');
  return report(ctx, [first, ...columns.map((c) => column(c.title, 'Money', c.key))], rows);
}

export const customerSales = (ctx: ReportContext) => byName(ctx, 'customer');
export const vendorExpenses = (ctx: ReportContext) => byName(ctx, 'vendor');

/** CustomerIncome: income, expenses billed to the customer and the difference, per customer. */
export function customerIncome(ctx: ReportContext): Report {
  const types = accountTypes(ctx);
  const during = ctx.postings.filter(inPeriod(ctx.period));
  const rows: Row[] = [];
  const total = [0, 0];
  for (const customer of ctx.company.entities.Customer) {
    const mine = during.filter((p) => p.customerId === customer.Id);
    const income = -mine.filter((p) => INCOME_TYPES.has(types.get(p.accountId) ?? '')).reduce((s, p) => s + p.amount, 0);
    const expenses = mine.filter((p) => EXPENSE_TYPES.has(types.get(p.accountId) ?? '')).reduce((s, p) => s + p.amount, 0);
    if (round2(income) === 0 && round2(expenses) === 0) continue;
    total[0] = (total[0] as number) + income;
    total[1] = (total[1] as number) + expenses;
    rows.push(
      dataRow({ value: String(customer.DisplayName), id: String(customer.Id) }, money(income), money(expenses), money(income - expenses)),
    );
  }
  rows.push(
    summaryRow(
      'GrandTotal',
      'TOTAL',
      money(total[0] as number),
      money(total[1] as number),
      money((total[0] as number) - (total[1] as number)),
    ),
  );
  return report(
    ctx,
    [
      column('', 'Customer'),
      column('Income', 'Money', 'income'),
      column('Expenses', 'Money', 'expenses'),
      column('Net Income', 'Money', 'net_income'),
    ],
    rows,
  );
}

/** ItemSales: quantity, amount, share of sales and average price per product/service. */
export function itemSales(ctx: ReportContext): Report {
  const types = accountTypes(ctx);
  const sales = ctx.postings.filter(
    (p) => inPeriod(ctx.period)(p) && p.itemId !== undefined && INCOME_TYPES.has(types.get(p.accountId) ?? ''),
  );
  const grand = -sales.reduce((s, p) => s + p.amount, 0);
  let quantity = 0;
  const rows: Row[] = [];
  for (const item of ctx.company.entities.Item) {
    const mine = sales.filter((p) => p.itemId === item.Id);
    if (mine.length === 0) continue;
    const qty = round2(mine.reduce((s, p) => s + (p.qty ?? 0), 0));
    const amount = -mine.reduce((s, p) => s + p.amount, 0);
    quantity += qty;
    rows.push(
      dataRow(
        { value: String(item.Name), id: String(item.Id) },
        String(qty),
        money(amount),
        grand === 0 ? '0.00 %' : `${((amount / grand) * 100).toFixed(2)} %`,
        qty === 0 ? '' : money(amount / qty),
      ),
    );
  }
  rows.push(
    summaryRow(
      'GrandTotal',
      'TOTAL',
      String(round2(quantity)),
      money(grand),
      rows.length > 0 ? '100.00 %' : '',
      quantity === 0 ? '' : money(grand / quantity),
    ),
  );
  const columns = [
    column('', 'ProductsAndService'),
    column('Quantity', 'Money', 'qty'),
    column('Amount', 'Money', 'amount'),
    column('% of Sales', 'Money', 'pct_sales'),
    column('Avg Price', 'Money', 'avg_price'),
  ];
  return report(ctx, columns, rows);
}

// ---- open documents: receivables and payables -----------------------------------------------------------------------

interface OpenItem {
  txn: Json;
  type: string;
  nameId: string;
  name: string;
  date: string;
  due: string;
  amount: number;
  open: number;
}

/** Invoices and credit memos (or bills and vendor credits) open on a day, with what was paid by then. */
function openItems(ctx: ReportContext, side: 'AR' | 'AP', day: string): OpenItem[] {
  const e = ctx.company.entities;
  const [docs, credits, payments, nameField, docType, creditType] =
    side === 'AR'
      ? ([e.Invoice, e.CreditMemo, e.Payment, 'CustomerRef', 'Invoice', 'Credit Memo'] as const)
      : ([e.Bill, e.VendorCredit, e.BillPayment, 'VendorRef', 'Bill', 'Vendor Credit'] as const);
  const filter = side === 'AR' ? ctx.customers : ctx.vendors;
  const paid = new Map<string, number>();
  for (const payment of payments) {
    if (String(payment.TxnDate) > day) continue;
    for (const line of payment.Line as Json[]) {
      const id = String(((line.LinkedTxn as Json[])[0] as Json).TxnId);
      paid.set(id, (paid.get(id) ?? 0) + Number(line.Amount));
    }
  }
  const items: OpenItem[] = [];
  const push = (txn: Json, type: string, amount: number, open: number) => {
    const name = txn[nameField] as Ref;
    if (filter && !filter.has(name.value)) return;
    if (String(txn.TxnDate) > day || Math.abs(open) < 0.005) return;
    items.push({
      txn,
      type,
      nameId: name.value,
      name: String(name.name),
      date: String(txn.TxnDate),
      due: String(txn.DueDate ?? txn.TxnDate),
      amount,
      open: round2(open),
    });
  };
  for (const doc of docs) push(doc, docType, Number(doc.TotalAmt), Number(doc.TotalAmt) - (paid.get(String(doc.Id)) ?? 0));
  for (const credit of credits) push(credit, creditType, -Number(credit.TotalAmt), -Number(credit.TotalAmt));
  return items.sort((a, b) => a.name.localeCompare(b.name) || a.date.localeCompare(b.date));
}

const BUCKETS: Array<[string, string, number, number]> = [
  ['Current', 'current', -Infinity, 0],
  ['1 - 30', '0_30', 1, 30],
  ['31 - 60', '31_60', 31, 60],
  ['61 - 90', '61_90', 61, 90],
  ['91 and over', '91_over', 91, Infinity],
];
const bucketOf = (item: OpenItem, day: string) =>
  BUCKETS.findIndex(([, , from, to]) => daysBetween(item.due, day) >= from && daysBetween(item.due, day) <= to);

/** CustomerBalance / VendorBalance: the open balance per name (none on the Cash basis, which has no A/R or A/P). */
export function balanceSummary(ctx: ReportContext, side: 'AR' | 'AP'): Report {
  const day = asOfDate(ctx);
  const items = ctx.basis === 'Cash' ? [] : openItems(ctx, side, day);
  const totals = new Map<string, [string, number]>();
  for (const item of items) totals.set(item.nameId, [item.name, (totals.get(item.nameId)?.[1] ?? 0) + item.open]);
  const rows: Row[] = [...totals].map(([id, [name, total]]) => dataRow({ value: name, id }, money(total)));
  rows.push(summaryRow('GrandTotal', 'TOTAL', money(items.reduce((s, i) => s + i.open, 0))));
  return report(ctx, [column('', side === 'AR' ? 'Customer' : 'Vendor'), column('Total', 'Money', 'total')], rows, { EndPeriod: day });
}

const docCell = (item: OpenItem): Cell => ({ value: item.type, id: String(item.txn.Id) });

/** CustomerBalanceDetail / VendorBalanceDetail: the open documents per name with a running balance. */
export function balanceDetail(ctx: ReportContext, side: 'AR' | 'AP'): Report {
  const day = asOfDate(ctx);
  const items = ctx.basis === 'Cash' ? [] : openItems(ctx, side, day);
  const rows: Row[] = [];
  let grand = 0;
  for (const id of [...new Set(items.map((i) => i.nameId))]) {
    const mine = items.filter((i) => i.nameId === id);
    let running = 0;
    const lines = mine.map((item) => {
      running += item.open;
      return dataRow(
        item.date,
        docCell(item),
        String(item.txn.DocNumber ?? ''),
        item.due,
        money(item.amount),
        money(item.open),
        money(running),
      );
    });
    grand += running;
    rows.push(
      section(
        cells({ value: (mine[0] as OpenItem).name, id }, '', '', '', '', '', ''),
        lines,
        cells(`Total for ${(mine[0] as OpenItem).name}`, '', '', '', money(sum(mine.map((i) => i.amount))), money(running), ''),
      ),
    );
  }
  rows.push(summaryRow('GrandTotal', 'TOTAL', '', '', '', money(sum(items.map((i) => i.amount))), money(grand), ''));
  const columns = keyedColumns(
    'Date:tx_date',
    'Transaction Type:txn_type',
    'Num:doc_num',
    'Due Date:due_date',
    'Amount:subt_amount',
    'Open Balance:subt_open_bal',
    'Balance:rbal_open_bal',
  );
  return report(ctx, columns, rows, { EndPeriod: day });
}

/** AgedReceivables / AgedPayables: open balance per name in aging buckets of days past due. */
export function agingSummary(ctx: ReportContext, side: 'AR' | 'AP'): Report {
  const day = asOfDate(ctx);
  const items = openItems(ctx, side, day);
  const totals = BUCKETS.map(() => 0);
  const rows: Row[] = [];
  for (const id of [...new Set(items.map((i) => i.nameId))]) {
    const mine = items.filter((i) => i.nameId === id);
    const values = BUCKETS.map(() => 0);
    for (const item of mine) values[bucketOf(item, day)] = (values[bucketOf(item, day)] ?? 0) + item.open;
    values.forEach((v, i) => {
      totals[i] = (totals[i] ?? 0) + v;
    });
    rows.push(dataRow({ value: (mine[0] as OpenItem).name, id }, ...values.map((v) => (v === 0 ? '' : money(v))), money(sum(values))));
  }
  rows.push(summaryRow('GrandTotal', 'TOTAL', ...totals.map(money), money(sum(totals))));
  const columns = [
    column('', side === 'AR' ? 'Customer' : 'Vendor'),
    ...BUCKETS.map(([title, key]) => column(title, 'Money', key)),
    column('Total', 'Money', 'total'),
  ];
  return report(ctx, columns, rows, { StartPeriod: day, EndPeriod: day });
}

/** AgedReceivableDetail / AgedPayableDetail: the open documents grouped by aging bucket. */
export function agingDetail(ctx: ReportContext, side: 'AR' | 'AP'): Report {
  const day = asOfDate(ctx);
  const items = openItems(ctx, side, day);
  const rows: Row[] = [];
  BUCKETS.forEach(([title], index) => {
    const mine = items.filter((i) => bucketOf(i, day) === index).sort((a, b) => a.date.localeCompare(b.date));
    if (mine.length === 0) return;
    const label = index === 0 ? 'Current' : `${title} days past due`;
    const lines = mine.map((item) =>
      dataRow(
        item.date,
        docCell(item),
        String(item.txn.DocNumber ?? ''),
        { value: item.name, id: item.nameId },
        item.due,
        String(Math.max(0, daysBetween(item.due, day))),
        money(item.amount),
        money(item.open),
      ),
    );
    rows.push(
      section(
        cells(label, '', '', '', '', '', '', ''),
        lines,
        cells(`Total for ${label}`, '', '', '', '', '', money(sum(mine.map((i) => i.amount))), money(sum(mine.map((i) => i.open)))),
      ),
    );
  });
  rows.push(
    summaryRow('GrandTotal', 'TOTAL', '', '', '', '', '', money(sum(items.map((i) => i.amount))), money(sum(items.map((i) => i.open)))),
  );
  const name = side === 'AR' ? 'Customer:cust_name' : 'Vendor:vend_name';
  const columns = keyedColumns(
    'Date:tx_date',
    'Transaction Type:txn_type',
    'Num:doc_num',
    name,
    'Due Date:due_date',
    'Past Due:past_due',
    'Amount:subt_amount',
    'Open Balance:subt_open_bal',
  );
  return report(ctx, columns, rows, { StartPeriod: day, EndPeriod: day });
}
