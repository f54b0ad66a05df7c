import type { SandboxServer } from '@portico/core/plugin';
import { pinSandboxClock } from '@portico/core/testing/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORED_TODAY, REPORT_NAMES, SANDBOX_REALM_ID, SANDBOX_TOKEN, startSandbox } from './index.js';

// The assertions below name days of the calendar the books were written on: the sandbox clock is pinned to it.
pinSandboxClock(AUTHORED_TODAY);

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely in tests
type Body = Record<string, any>;

let sandbox: SandboxServer;

async function get(path: string): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${sandbox.url}/v3/company/${SANDBOX_REALM_ID}${path}`, {
    headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function reportOf(name: string, params: Record<string, string> = {}): Promise<Body> {
  const { status, body } = await get(`/reports/${name}?${new URLSearchParams({ minorversion: '75', ...params })}`);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
}

async function all(entity: string): Promise<Body[]> {
  const { body } = await get(`/query?query=${encodeURIComponent(`SELECT * FROM ${entity} MAXRESULTS 1000`)}`);
  return body.QueryResponse[entity] ?? [];
}

const total = (list: Body[], field = 'TotalAmt') => Math.round(list.reduce((s, r) => s + Number(r[field]), 0) * 100) / 100;

/** The Summary (or Data) row of a group, searched through nested sections. */
function group(rows: Body[], name: string): Body | undefined {
  for (const row of rows) {
    if (row.group === name) return row;
    const inner = row.Rows?.Row ? group(row.Rows.Row, name) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
const summaryValue = (report: Body, name: string, column = 1) => Number(group(report.Rows.Row, name)?.Summary.ColData[column].value);

const H1 = { start_date: '2025-01-01', end_date: '2025-06-30' };

beforeAll(async () => {
  sandbox = await startSandbox({ latencyMs: 0 });
});
afterAll(() => sandbox?.close());

describe('reports', () => {
  it('answers every report on both bases in QuickBooks’ Header/Columns/Rows shape', async () => {
    expect(REPORT_NAMES).toHaveLength(29);
    for (const name of REPORT_NAMES) {
      for (const basis of ['Cash', 'Accrual']) {
        const body = await reportOf(name, { ...H1, accounting_method: basis });
        expect(body.Header, name).toMatchObject({ ReportName: name, ReportBasis: basis, Currency: 'USD' });
        expect(body.Header.Time).toBeTypeOf('string');
        expect(body.Header.StartPeriod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(body.Header.EndPeriod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(body.Columns.Column.length, name).toBeGreaterThan(1);
        for (const col of body.Columns.Column) expect(Object.keys(col)).toEqual(expect.arrayContaining(['ColTitle', 'ColType']));
        expect(Array.isArray(body.Rows.Row), name).toBe(true);
      }
    }
  });

  it('ProfitAndLoss: accrual counts invoices when issued, cash counts payments when received', async () => {
    const [invoices, payments, receipts, refunds, memos] = await Promise.all(
      ['Invoice', 'Payment', 'SalesReceipt', 'RefundReceipt', 'CreditMemo'].map(all),
    );
    const accrual = await reportOf('ProfitAndLoss', { ...H1, accounting_method: 'Accrual' });
    const cash = await reportOf('ProfitAndLoss', { ...H1, accounting_method: 'Cash' });
    const sales = total(receipts as Body[]) - total(refunds as Body[]);
    expect(summaryValue(accrual, 'Income')).toBeCloseTo(total(invoices as Body[]) + sales - total(memos as Body[]), 2);
    expect(summaryValue(cash, 'Income')).toBeCloseTo(total(payments as Body[]) + sales, 2);
    expect(summaryValue(accrual, 'Income')).toBeGreaterThan(summaryValue(cash, 'Income'));
    expect(summaryValue(accrual, 'NetIncome')).not.toBe(summaryValue(cash, 'NetIncome'));
    const monthly = await reportOf('ProfitAndLoss', { ...H1, summarize_column_by: 'Month' });
    expect(monthly.Columns.Column.map((c: Body) => c.ColTitle)).toEqual([
      '',
      'Jan 2025',
      'Feb 2025',
      'Mar 2025',
      'Apr 2025',
      'May 2025',
      'Jun 2025',
      'Total',
    ]);
    expect(summaryValue(monthly, 'NetIncome', 7)).toBeCloseTo(summaryValue(accrual, 'NetIncome'), 2);
  });

  it('BalanceSheet balances on both bases; A/R and A/P exist only on accrual', async () => {
    for (const basis of ['Accrual', 'Cash']) {
      const sheet = await reportOf('BalanceSheet', { ...H1, accounting_method: basis });
      expect(summaryValue(sheet, 'TotalAssets')).toBeCloseTo(summaryValue(sheet, 'TotalLiabilitiesAndEquity'), 2);
      expect(group(sheet.Rows.Row, 'AR')?.Rows !== undefined).toBe(basis === 'Accrual');
    }
    const trial = await reportOf('TrialBalance', { ...H1, accounting_method: 'Cash' });
    const grand = group(trial.Rows.Row, 'GrandTotal')?.Summary.ColData;
    expect(grand[1].value).toBe(grand[2].value);
  });

  it('customer and vendor balances match the open documents on accrual and are empty on cash', async () => {
    const [invoices, memos, bills, credits] = await Promise.all(['Invoice', 'CreditMemo', 'Bill', 'VendorCredit'].map(all));
    const open = total(invoices as Body[], 'Balance') - total(memos as Body[], 'Balance');
    expect(summaryValue(await reportOf('CustomerBalance', { accounting_method: 'Accrual' }), 'GrandTotal')).toBeCloseTo(open, 2);
    expect(summaryValue(await reportOf('CustomerBalance', { accounting_method: 'Cash' }), 'GrandTotal')).toBe(0);
    expect(summaryValue(await reportOf('AgedReceivables'), 'GrandTotal', 6)).toBeCloseTo(open, 2);
    const payable = total(bills as Body[], 'Balance') - total(credits as Body[], 'Balance');
    expect(summaryValue(await reportOf('VendorBalance'), 'GrandTotal')).toBeCloseTo(payable, 2);
    expect(summaryValue(await reportOf('AgedPayables'), 'GrandTotal', 6)).toBeCloseTo(payable, 2);
    const cashSales = await reportOf('CustomerSales', { ...H1, accounting_method: 'Cash' });
    const accrualSales = await reportOf('CustomerSales', { ...H1, accounting_method: 'Accrual' });
    expect(summaryValue(cashSales, 'GrandTotal')).toBeLessThan(summaryValue(accrualSales, 'GrandTotal'));
    const one = await reportOf('CustomerSales', { ...H1, customer: '2' });
    expect(one.Rows.Row.filter((r: Body) => r.type === 'Data').map((r: Body) => r.ColData[0].value)).toEqual(['Rosa Delgado']);
  });

  it('the journal, transactions with splits and by name, sales by class and location, tax and inventory', async () => {
    const journal = await reportOf('JournalReport', H1);
    const grand = group(journal.Rows.Row, 'GrandTotal')?.Summary.ColData;
    expect(Number(grand[6].value)).toBeGreaterThan(0);
    expect(grand[6].value).toBe(grand[7].value);
    const splits = await reportOf('TransactionListWithSplits', { date_macro: 'Last Month' });
    for (const entry of splits.Rows.Row as Body[]) {
      expect(entry.Header.ColData[0].value).toMatch(/^2025-05-/);
      expect(entry.Summary.ColData[6].value).toBe(entry.Summary.ColData[7].value);
    }
    const byCustomer = await reportOf('TransactionListByCustomer', { ...H1, customer: '2' });
    expect(byCustomer.Rows.Row.map((r: Body) => r.Header.ColData[0].value)).toEqual(['Rosa Delgado']);
    const byVendor = await reportOf('TransactionListByVendor', H1);
    expect(byVendor.Rows.Row.length).toBeGreaterThan(3);
    const onlyInvoices = await reportOf('TransactionList', { ...H1, transaction_type: 'Invoice' });
    expect(onlyInvoices.Rows.Row).toHaveLength(40);
    const ledger = await reportOf('GeneralLedger', { ...H1, account: '1' });
    expect(ledger.Rows.Row.map((r: Body) => r.Header.ColData[0].value)).toEqual(['Operating Checking']);

    const accrualIncome = summaryValue(await reportOf('ProfitAndLoss', { ...H1, accounting_method: 'Accrual' }), 'Income');
    for (const name of ['ClassSales', 'DepartmentSales']) {
      const accrual = await reportOf(name, { ...H1, accounting_method: 'Accrual' });
      expect(summaryValue(accrual, 'GrandTotal'), name).toBeCloseTo(accrualIncome, 2);
      const cash = await reportOf(name, { ...H1, accounting_method: 'Cash' });
      expect(summaryValue(cash, 'GrandTotal'), name).toBeLessThan(summaryValue(accrual, 'GrandTotal'));
    }
    const tax = await reportOf('TaxSummary', { ...H1, agency_id: '1' });
    expect(tax.Rows.Row[0].Summary.ColData.map((c: Body) => c.value).slice(3)).toEqual(['0.00', '0.00']);
    expect((await get('/reports/TaxSummary?agency_id=9')).status).toBe(400);
    const inventory = await reportOf('InventoryValuationSummary');
    expect(inventory.Header.Option).toContainEqual({ Name: 'NoReportData', Value: 'true' });
    expect((await reportOf('TrialBalanceFR', H1)).Rows).toEqual((await reportOf('TrialBalance', H1)).Rows);
  });

  it('honours date_macro and refuses bad dates, methods and report names with a Fault', async () => {
    const lastMonth = await reportOf('ProfitAndLoss', { date_macro: 'Last Month' });
    expect(lastMonth.Header).toMatchObject({ StartPeriod: '2025-05-01', EndPeriod: '2025-05-31', DateMacro: 'last month' });
    const defaults = await reportOf('ProfitAndLoss');
    expect(defaults.Header).toMatchObject({ StartPeriod: '2025-01-01', EndPeriod: '2025-06-30', ReportBasis: 'Accrual' });
    const bad: Array<Record<string, string>> = [
      { start_date: '2025-13-01' },
      { end_date: '06/30/2025' },
      { accounting_method: 'Modified' },
      { date_macro: 'Someday' },
      { start_date: '2025-06-01', end_date: '2025-01-01' },
    ];
    for (const params of bad) {
      const { status, body } = await get(`/reports/ProfitAndLoss?${new URLSearchParams(params)}`);
      expect(status, JSON.stringify(params)).toBe(400);
      expect(body.Fault.type).toBe('ValidationFault');
    }
    expect((await get('/reports/NoSuchReport')).status).toBe(400);
  });
});
