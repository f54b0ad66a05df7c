import type { Json, Ref } from './company.js';
import { isBalanceSheet, nature, type Posting } from './ledger.js';
import { balancesAsOf } from './report-balances.js';
import {
  type AmountColumn,
  accountCell,
  add,
  amountColumns,
  asOfDate,
  cells,
  column,
  dataRow,
  keyedColumns,
  money,
  netIncome,
  type Report,
  type ReportContext,
  type Row,
  report,
  section,
  sub,
  sum,
  summaryRow,
} from './report-kit.js';

// The income statement and the ledgers: ProfitAndLoss, ProfitAndLossDetail, GeneralLedger, AccountList and
// TransactionList, all computed from the postings of the requested basis (balances are in report-balances.ts).

/** The natural-sign amount of each account for each column. */
function amountsByAccount(ctx: ReportContext, columns: AmountColumn[]): Map<string, number[]> {
  const result = new Map<string, number[]>();
  const accounts = new Map(ctx.company.entities.Account.map((a) => [String(a.Id), a]));
  for (const p of ctx.postings) {
    const account = accounts.get(p.accountId);
    if (!account) continue;
    const row = result.get(p.accountId) ?? columns.map(() => 0);
    columns.forEach((col, i) => {
      if (col.test(p)) row[i] = (row[i] ?? 0) + p.amount * nature(account);
    });
    result.set(p.accountId, row);
  }
  return result;
}

const PL_SECTIONS: Array<[string, string, string]> = [
  ['Income', 'Income', 'Income'],
  ['Cost of Goods Sold', 'COGS', 'Cost of Goods Sold'],
  ['Expenses', 'Expenses', 'Expense'],
  ['Other Income', 'OtherIncome', 'Other Income'],
  ['Other Expenses', 'OtherExpenses', 'Other Expense'],
];

export function profitAndLoss(ctx: ReportContext): Report {
  const columns = amountColumns(ctx);
  const amounts = amountsByAccount(ctx, columns);
  const zero = columns.map(() => 0);
  const totals: Record<string, number[]> = {};
  const rows: Row[] = [];
  const emit = (title: string, group: string, type: string) => {
    const accounts = ctx.company.entities.Account.filter((a) => a.AccountType === type && amounts.get(String(a.Id))?.some((v) => v !== 0));
    const total = accounts.reduce((acc, a) => add(acc, amounts.get(String(a.Id)) ?? zero), zero);
    totals[group] = total;
    if (accounts.length === 0 && group !== 'Income') return;
    const lines = accounts.map((a) => dataRow(accountCell(a), ...(amounts.get(String(a.Id)) ?? zero).map(money)));
    rows.push(section(cells(title, ...zero.map(() => '')), lines, cells(`Total ${title}`, ...total.map(money)), group));
  };
  const [income, cogs, expenses, otherIncome, otherExpenses] = PL_SECTIONS;
  emit(...(income as [string, string, string]));
  emit(...(cogs as [string, string, string]));
  const gross = sub(totals.Income ?? zero, totals.COGS ?? zero);
  rows.push(summaryRow('GrossProfit', 'Gross Profit', ...gross.map(money)));
  emit(...(expenses as [string, string, string]));
  const operating = sub(gross, totals.Expenses ?? zero);
  rows.push(summaryRow('NetOperatingIncome', 'Net Operating Income', ...operating.map(money)));
  emit(...(otherIncome as [string, string, string]));
  emit(...(otherExpenses as [string, string, string]));
  const other = sub(totals.OtherIncome ?? zero, totals.OtherExpenses ?? zero);
  rows.push(summaryRow('NetOtherIncome', 'Net Other Income', ...other.map(money)));
  rows.push(summaryRow('NetIncome', 'Net Income', ...add(operating, other).map(money)));
  const noData = ctx.postings.every((p) => !columns.some((c) => c.test(p)));
  const built = report(ctx, [column('', 'Account'), ...columns.map((c) => column(c.title, 'Money', c.key))], rows);
  built.Header.Option = [
    { Name: 'AccountingStandard', Value: 'GAAP' },
    { Name: 'NoReportData', Value: String(noData) },
  ];
  return built;
}

const DETAIL_COLUMNS = [
  column('Date', 'tx_date', 'tx_date'),
  column('Transaction Type', 'txn_type', 'txn_type'),
  column('Num', 'doc_num', 'doc_num'),
  column('Name', 'name', 'name'),
  column('Memo/Description', 'memo', 'memo'),
  column('Split', 'split_acc', 'split_acc'),
  column('Amount', 'subt_nat_amount', 'subt_nat_amount'),
  column('Balance', 'rbal_nat_amount', 'rbal_nat_amount'),
];

/** Rows of an account's postings with a running balance (natural sign), starting from `opening`. */
function postingRows(account: Json, postings: Posting[], opening: number): { rows: Row[]; total: number; closing: number } {
  let running = opening;
  let total = 0;
  const rows = postings.map((p) => {
    const amount = p.amount * nature(account);
    running += amount;
    total += amount;
    return dataRow(p.date, { value: p.txnType, id: p.txnId }, p.docNumber, p.name, p.memo, p.split, money(amount), money(running));
  });
  return { rows, total, closing: running };
}

export function profitAndLossDetail(ctx: ReportContext): Report {
  const inRange = (p: Posting) => p.date >= ctx.period.start && p.date <= ctx.period.end;
  const rows: Row[] = [];
  for (const [title, group, type] of PL_SECTIONS) {
    const accountSections: Row[] = [];
    let total = 0;
    for (const account of ctx.company.entities.Account.filter((a) => a.AccountType === type)) {
      const postings = ctx.postings.filter((p) => p.accountId === account.Id && inRange(p));
      if (postings.length === 0) continue;
      const built = postingRows(account, postings, 0);
      total += built.total;
      accountSections.push(
        section(
          cells(accountCell(account), '', '', '', '', '', '', ''),
          built.rows,
          cells(`Total for ${account.Name}`, '', '', '', '', '', money(built.total), ''),
        ),
      );
    }
    if (accountSections.length > 0)
      rows.push(
        section(
          cells(title, '', '', '', '', '', '', ''),
          accountSections,
          cells(`Total ${title}`, '', '', '', '', '', money(total), ''),
          group,
        ),
      );
  }
  rows.push(summaryRow('NetIncome', 'Net Income', '', '', '', '', '', money(netIncome(ctx, inRange)), ''));
  return report(ctx, DETAIL_COLUMNS, rows);
}

export function generalLedger(ctx: ReportContext): Report {
  const { start, end } = ctx.period;
  const rows: Row[] = [];
  const only = ctx.query
    .get('account')
    ?.split(',')
    .map((id) => id.trim());
  for (const account of ctx.company.entities.Account.filter((a) => !only || only.includes(String(a.Id)))) {
    const mine = ctx.postings.filter((p) => p.accountId === account.Id);
    const before = isBalanceSheet(account) ? sum(mine.filter((p) => p.date < start).map((p) => p.amount * nature(account))) : 0;
    const during = mine.filter((p) => p.date >= start && p.date <= end);
    if (during.length === 0 && Math.abs(before) < 0.005) continue;
    const built = postingRows(account, during, before);
    const opening = isBalanceSheet(account) ? [dataRow('Beginning Balance', '', '', '', '', '', '', money(before))] : [];
    rows.push(
      section(
        cells(accountCell(account), '', '', '', '', '', '', ''),
        [...opening, ...built.rows],
        cells(`Total for ${account.Name}`, '', '', '', '', '', money(built.total), money(built.closing)),
      ),
    );
  }
  return report(ctx, DETAIL_COLUMNS, rows);
}

export function accountList(ctx: ReportContext): Report {
  const day = asOfDate(ctx);
  const { byAccount } = balancesAsOf(ctx, day);
  const rows = ctx.company.entities.Account.map((a) =>
    dataRow(
      accountCell(a),
      String(a.AccountType),
      String(a.AccountSubType),
      String(a.Description ?? ''),
      isBalanceSheet(a) ? money(byAccount.get(String(a.Id)) ?? 0) : '',
    ),
  );
  const columns = [
    column('Account', 'account_name', 'account_name'),
    column('Type', 'account_type', 'account_type'),
    column('Detail Type', 'detail_acc_type', 'detail_acc_type'),
    column('Description', 'account_desc', 'account_desc'),
    column('Balance', 'account_bal', 'account_bal'),
  ];
  return report(ctx, columns, rows);
}

/** One transaction of a transaction list: its date, its row, and the customer or vendor it names. */
export interface ListedTransaction {
  date: string;
  row: Row;
  entity: string;
  txnId: string;
  name?: Ref & { kind: 'Customer' | 'Vendor' | 'Employee' | 'Other' };
}

export const TRANSACTION_LIST_COLUMNS = keyedColumns(
  'Date:tx_date',
  'Transaction Type:txn_type',
  'Num:doc_num',
  'Posting:is_no_post',
  'Name:name',
  'Memo/Description:memo',
  'Account:account_name',
  'Split:other_account',
  'Amount:subt_nat_amount',
);

/** Every transaction dated in the period (narrowed to the customers / vendors asked for), in date order. */
export function listedTransactions(ctx: ReportContext): ListedTransaction[] {
  const { start, end } = ctx.period;
  const posted = new Map<string, Posting[]>();
  for (const p of ctx.postings) posted.set(`${p.entity}/${p.txnId}`, [...(posted.get(`${p.entity}/${p.txnId}`) ?? []), p]);
  const e = ctx.company.entities;
  const kinds: Array<[string, Json[], string]> = [
    ['Invoice', e.Invoice, 'Invoice'],
    ['Payment', e.Payment, 'Payment'],
    ['SalesReceipt', e.SalesReceipt, 'Sales Receipt'],
    ['RefundReceipt', e.RefundReceipt, 'Refund'],
    ['CreditMemo', e.CreditMemo, 'Credit Memo'],
    ['Estimate', e.Estimate, 'Estimate'],
    ['Deposit', e.Deposit, 'Deposit'],
    ['Bill', e.Bill, 'Bill'],
    ['BillPayment', e.BillPayment, 'Bill Payment'],
    ['VendorCredit', e.VendorCredit, 'Vendor Credit'],
    ['Purchase', e.Purchase, 'Expense'],
    ['PurchaseOrder', e.PurchaseOrder, 'Purchase Order'],
    ['Transfer', e.Transfer, 'Transfer'],
    ['JournalEntry', e.JournalEntry, 'Journal Entry'],
  ];
  const wanted = (txn: Json) => {
    const names = [txn.CustomerRef, txn.VendorRef, txn.EntityRef].map((r) => (r as Ref | undefined)?.value);
    if (ctx.customers && !names.some((n) => n && ctx.customers?.has(n))) return false;
    return !ctx.vendors || names.some((n) => n && ctx.vendors?.has(n));
  };
  // transaction_type: QuickBooks' type names (Invoice, Payment, Check, JournalEntry…), spaces and case ignored.
  const types = ctx.query
    .get('transaction_type')
    ?.split(',')
    .map((t) => t.trim().toLowerCase());
  const squash = (text: string) => text.replace(/[^A-Za-z]/g, '').toLowerCase();
  const entries: ListedTransaction[] = [];
  for (const [entity, list, label] of kinds) {
    for (const txn of list.filter((t) => String(t.TxnDate) >= start && String(t.TxnDate) <= end && wanted(t))) {
      const postings = posted.get(`${entity}/${txn.Id}`) ?? [];
      const main = postings[0];
      if (types && ![entity, label, main?.txnType ?? ''].some((name) => types.includes(squash(name)))) continue;
      const name = nameOf(txn);
      const accountName = main ? String(e.Account.find((a) => a.Id === main.accountId)?.Name ?? '') : '';
      const amount =
        Number(txn.TotalAmt ?? txn.Amount ?? 0) *
        (['RefundReceipt', 'CreditMemo', 'BillPayment', 'VendorCredit', 'Purchase'].includes(entity) ? -1 : 1);
      entries.push({
        date: String(txn.TxnDate),
        entity,
        txnId: String(txn.Id),
        ...(name ? { name } : {}),
        row: dataRow(
          String(txn.TxnDate),
          { value: main?.txnType ?? label, id: String(txn.Id) },
          String(txn.DocNumber ?? ''),
          postings.length > 0 ? 'Yes' : 'No',
          name?.name ?? '',
          String(txn.PrivateNote ?? ''),
          accountName,
          main?.split ?? '',
          money(amount),
        ),
      });
    }
  }
  return entries.sort((a, b) => a.date.localeCompare(b.date));
}

/** The name a transaction is for: its customer, its vendor, or the payee of an expense. */
function nameOf(txn: Json): ListedTransaction['name'] | undefined {
  if (txn.CustomerRef) return { ...(txn.CustomerRef as Ref), kind: 'Customer' };
  if (txn.VendorRef) return { ...(txn.VendorRef as Ref), kind: 'Vendor' };
  const payee = txn.EntityRef as (Ref & { type?: string }) | undefined;
  if (!payee) return undefined;
  const kind = payee.type === 'Customer' || payee.type === 'Vendor' || payee.type === 'Employee' ? payee.type : 'Other';
  return { value: payee.value, ...(payee.name !== undefined ? { name: payee.name } : {}), kind };
}

/** TransactionList: every transaction dated in the period; Posting says whether it posts on the report's basis. */
export function transactionList(ctx: ReportContext): Report {
  return report(
    ctx,
    TRANSACTION_LIST_COLUMNS,
    listedTransactions(ctx).map((entry) => entry.row),
  );
}
