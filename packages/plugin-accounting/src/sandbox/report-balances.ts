import type { Json } from './company.js';
import { addDays } from './dates.js';
import { isBalanceSheet, nature, type Posting } from './ledger.js';
import {
  type AmountColumn,
  accountCell,
  add,
  amountColumns,
  cells,
  column,
  dataRow,
  money,
  netIncome,
  type Report,
  type ReportContext,
  type Row,
  report,
  section,
  sum,
  summaryRow,
} from './report-kit.js';

// The balance reports: BalanceSheet (as of the end of the period, or of each period column), TrialBalance and
// CashFlow (indirect method: net income, changes in working capital, investing and financing).

interface SheetNode {
  title: string;
  group: string;
  types?: string[];
  children?: SheetNode[];
  total: string;
}

const BALANCE_SHEET: SheetNode[] = [
  {
    title: 'ASSETS',
    group: 'TotalAssets',
    total: 'TOTAL ASSETS',
    children: [
      {
        title: 'Current Assets',
        group: 'CurrentAssets',
        total: 'Total Current Assets',
        children: [
          { title: 'Bank Accounts', group: 'BankAccounts', types: ['Bank'], total: 'Total Bank Accounts' },
          { title: 'Accounts Receivable', group: 'AR', types: ['Accounts Receivable'], total: 'Total Accounts Receivable' },
          {
            title: 'Other Current Assets',
            group: 'OtherCurrentAssets',
            types: ['Other Current Asset'],
            total: 'Total Other Current Assets',
          },
        ],
      },
      { title: 'Fixed Assets', group: 'FixedAssets', types: ['Fixed Asset'], total: 'Total Fixed Assets' },
    ],
  },
  {
    title: 'LIABILITIES AND EQUITY',
    group: 'TotalLiabilitiesAndEquity',
    total: 'TOTAL LIABILITIES AND EQUITY',
    children: [
      {
        title: 'Liabilities',
        group: 'Liabilities',
        total: 'Total Liabilities',
        children: [
          {
            title: 'Current Liabilities',
            group: 'CurrentLiabilities',
            total: 'Total Current Liabilities',
            children: [
              { title: 'Accounts Payable', group: 'AP', types: ['Accounts Payable'], total: 'Total Accounts Payable' },
              { title: 'Credit Cards', group: 'CreditCards', types: ['Credit Card'], total: 'Total Credit Cards' },
              {
                title: 'Other Current Liabilities',
                group: 'OtherCurrentLiabilities',
                types: ['Other Current Liability'],
                total: 'Total Other Current Liabilities',
              },
            ],
          },
          {
            title: 'Long-Term Liabilities',
            group: 'LongTermLiabilities',
            types: ['Long Term Liability'],
            total: 'Total Long-Term Liabilities',
          },
        ],
      },
      { title: 'Equity', group: 'Equity', types: ['Equity'], total: 'Total Equity' },
    ],
  },
];

const fiscalYearStart = (date: string) => `${date.slice(0, 4)}-01-01`;

/** Balance-sheet balances as of a day; Retained Earnings takes prior years' profit, and Net Income is this year's. */
export function balancesAsOf(ctx: ReportContext, day: string): { byAccount: Map<string, number>; netIncome: number } {
  const byAccount = new Map<string, number>();
  const accounts = new Map(ctx.company.entities.Account.map((a) => [String(a.Id), a]));
  for (const p of ctx.postings) {
    const account = accounts.get(p.accountId);
    if (!account || p.date > day || !isBalanceSheet(account)) continue;
    byAccount.set(p.accountId, (byAccount.get(p.accountId) ?? 0) + p.amount * nature(account));
  }
  const yearStart = fiscalYearStart(day);
  const retained = ctx.company.entities.Account.find((a) => a.AccountSubType === 'RetainedEarnings');
  const prior = netIncome(ctx, (p) => p.date < yearStart);
  if (retained && prior !== 0) byAccount.set(String(retained.Id), (byAccount.get(String(retained.Id)) ?? 0) + prior);
  return { byAccount, netIncome: netIncome(ctx, (p) => p.date >= yearStart && p.date <= day) };
}

export function balanceSheet(ctx: ReportContext): Report {
  const all = amountColumns(ctx);
  const periodic = ['Month', 'Quarter', 'Year', 'Week', 'Days'].includes(ctx.columnsBy) && all.length > 1;
  const columns = periodic ? all.filter((c) => c.key !== 'total') : [{ title: 'Total', key: 'total', test: () => true }];
  const ends = columns.map((c) => (c.key === 'total' ? ctx.period.end : lastDay(ctx, c)));
  const asOf = ends.map((day) => balancesAsOf(ctx, day));
  const build = (node: SheetNode): { row: Row; values: number[] } => {
    const rows: Row[] = [];
    let values = ends.map(() => 0);
    for (const child of node.children ?? []) {
      const built = build(child);
      rows.push(built.row);
      values = add(values, built.values);
    }
    for (const account of ctx.company.entities.Account.filter((a) => node.types?.includes(String(a.AccountType)))) {
      const amounts = asOf.map((b) => b.byAccount.get(String(account.Id)) ?? 0);
      if (amounts.every((v) => Math.abs(v) < 0.005)) continue;
      rows.push(dataRow(accountCell(account), ...amounts.map(money)));
      values = add(values, amounts);
    }
    if (node.group === 'Equity') {
      const income = asOf.map((b) => b.netIncome);
      rows.push(dataRow('Net Income', ...income.map(money)));
      values = add(values, income);
    }
    return { row: section(cells(node.title, ...ends.map(() => '')), rows, cells(node.total, ...values.map(money)), node.group), values };
  };
  const rows = BALANCE_SHEET.map((node) => build(node).row);
  return report(ctx, [column('', 'Account'), ...columns.map((c) => column(c.title, 'Money', c.key))], rows);
}

/** The last day of a period column (the balance sheet shows balances at the end of each). */
function lastDay(ctx: ReportContext, col: AmountColumn): string {
  let day = ctx.period.end;
  while (day >= ctx.period.start && !col.test({ date: day } as Posting)) day = addDays(day, -1);
  return day;
}

export function trialBalance(ctx: ReportContext): Report {
  const { start, end } = ctx.period;
  const rows: Row[] = [];
  let debits = 0;
  let credits = 0;
  const retained = ctx.company.entities.Account.find((a) => a.AccountSubType === 'RetainedEarnings');
  for (const account of ctx.company.entities.Account) {
    const inScope = isBalanceSheet(account) ? (p: Posting) => p.date <= end : (p: Posting) => p.date >= start && p.date <= end;
    let signed = sum(ctx.postings.filter((p) => p.accountId === account.Id && inScope(p)).map((p) => p.amount));
    if (account === retained) signed -= netIncome(ctx, (p) => p.date < start);
    if (Math.abs(signed) < 0.005) continue;
    if (signed > 0) debits += signed;
    else credits -= signed;
    rows.push(dataRow(accountCell(account), signed > 0 ? money(signed) : '', signed < 0 ? money(-signed) : ''));
  }
  rows.push(summaryRow('GrandTotal', 'TOTAL', money(debits), money(credits)));
  return report(ctx, [column('', 'Account'), column('Debit', 'Money', 'debit'), column('Credit', 'Money', 'credit')], rows);
}

export function cashFlow(ctx: ReportContext): Report {
  const { start, end } = ctx.period;
  const opening = balancesAsOf(ctx, addDays(start, -1)).byAccount;
  const closing = balancesAsOf(ctx, end).byAccount;
  const change = (account: Json) => (closing.get(String(account.Id)) ?? 0) - (opening.get(String(account.Id)) ?? 0);
  const income = netIncome(ctx, (p) => p.date >= start && p.date <= end);
  const accounts = ctx.company.entities.Account;
  const lines = (types: string[]) =>
    accounts
      .filter((a) => types.includes(String(a.AccountType)) && a.AccountSubType !== 'RetainedEarnings')
      .map((a) => ({ account: a, amount: a.Classification === 'Asset' ? -change(a) : change(a) }))
      .filter((l) => Math.abs(l.amount) >= 0.005);
  const adjustments = lines(['Accounts Receivable', 'Other Current Asset', 'Accounts Payable', 'Credit Card', 'Other Current Liability']);
  const investing = lines(['Fixed Asset', 'Other Asset']);
  const financing = lines(['Long Term Liability', 'Equity']);
  const total = (ls: typeof adjustments) => sum(ls.map((l) => l.amount));
  const operating = income + total(adjustments);
  const rowsOf = (ls: typeof adjustments) => ls.map((l) => dataRow(accountCell(l.account), money(l.amount)));
  const cash = (balances: Map<string, number>) =>
    sum(accounts.filter((a) => a.AccountType === 'Bank').map((a) => balances.get(String(a.Id)) ?? 0));
  const rows: Row[] = [
    section(
      cells('OPERATING ACTIVITIES', ''),
      [
        dataRow('Net Income', money(income)),
        section(
          cells('Adjustments to reconcile Net Income to Net Cash provided by operations:', ''),
          rowsOf(adjustments),
          cells('Total Adjustments to reconcile Net Income to Net Cash provided by operations:', money(total(adjustments))),
          'OperatingAdjustments',
        ),
      ],
      cells('Net cash provided by operating activities', money(operating)),
      'OperatingActivities',
    ),
  ];
  if (investing.length > 0)
    rows.push(
      section(
        cells('INVESTING ACTIVITIES', ''),
        rowsOf(investing),
        cells('Net cash provided by investing activities', money(total(investing))),
        'InvestingActivities',
      ),
    );
  if (financing.length > 0)
    rows.push(
      section(
        cells('FINANCING ACTIVITIES', ''),
        rowsOf(financing),
        cells('Net cash provided by financing activities', money(total(financing))),
        'FinancingActivities',
      ),
    );
  rows.push(summaryRow('CashIncrease', 'Net cash increase for period', money(operating + total(investing) + total(financing))));
  rows.push(summaryRow('BeginningCash', 'Cash at beginning of period', money(cash(opening))));
  rows.push(summaryRow('EndingCash', 'Cash at end of period', money(cash(closing))));
  return report(ctx, [column('', 'Account'), column('Total', 'Money', 'total')], rows);
}
