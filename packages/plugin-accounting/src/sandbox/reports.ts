import { type Json, SANDBOX_REALM_ID } from './company.js';
import { isValidDate } from './dates.js';
import { invalidParameter, QboFault } from './errors.js';
import { balanceSheet, cashFlow, trialBalance } from './report-balances.js';
import { type Report, type ReportContext, reportContext } from './report-kit.js';
import {
  inventoryValuationSummary,
  journalReport,
  segmentSales,
  taxSummary,
  transactionListBy,
  transactionListWithSplits,
  trialBalanceFr,
} from './report-lists.js';
import {
  agingDetail,
  agingSummary,
  balanceDetail,
  balanceSummary,
  customerIncome,
  customerSales,
  itemSales,
  vendorExpenses,
} from './report-names.js';
import { accountList, generalLedger, profitAndLoss, profitAndLossDetail, transactionList } from './report-statements.js';
import type { Company } from './seed.js';

// `GET /v3/company/{realmId}/reports/{ReportName}`: the reports the sandbox builds from its books, each with the
// period QuickBooks defaults to when no dates are sent (its `date_macro`).

type Builder = (ctx: ReportContext) => Report;

const REPORTS: Record<string, [Builder, string]> = {
  ProfitAndLoss: [profitAndLoss, 'This Fiscal Year-to-date'],
  ProfitAndLossDetail: [profitAndLossDetail, 'This Month-to-date'],
  BalanceSheet: [balanceSheet, 'This Fiscal Year-to-date'],
  TrialBalance: [trialBalance, 'This Fiscal Year-to-date'],
  CashFlow: [cashFlow, 'This Fiscal Year-to-date'],
  GeneralLedger: [generalLedger, 'This Month-to-date'],
  AccountList: [accountList, 'All Dates'],
  TransactionList: [transactionList, 'This Month-to-date'],
  CustomerSales: [customerSales, 'This Fiscal Year-to-date'],
  CustomerIncome: [customerIncome, 'This Fiscal Year-to-date'],
  ItemSales: [itemSales, 'This Fiscal Year-to-date'],
  VendorExpenses: [vendorExpenses, 'This Fiscal Year-to-date'],
  CustomerBalance: [(ctx) => balanceSummary(ctx, 'AR'), 'Today'],
  CustomerBalanceDetail: [(ctx) => balanceDetail(ctx, 'AR'), 'Today'],
  AgedReceivables: [(ctx) => agingSummary(ctx, 'AR'), 'Today'],
  AgedReceivableDetail: [(ctx) => agingDetail(ctx, 'AR'), 'Today'],
  VendorBalance: [(ctx) => balanceSummary(ctx, 'AP'), 'Today'],
  VendorBalanceDetail: [(ctx) => balanceDetail(ctx, 'AP'), 'Today'],
  AgedPayables: [(ctx) => agingSummary(ctx, 'AP'), 'Today'],
  AgedPayableDetail: [(ctx) => agingDetail(ctx, 'AP'), 'Today'],
  TrialBalanceFR: [trialBalanceFr, 'This Fiscal Year-to-date'],
  JournalReport: [journalReport, 'This Month-to-date'],
  TransactionListWithSplits: [transactionListWithSplits, 'This Month-to-date'],
  TransactionListByCustomer: [(ctx) => transactionListBy(ctx, 'Customer'), 'This Month-to-date'],
  TransactionListByVendor: [(ctx) => transactionListBy(ctx, 'Vendor'), 'This Month-to-date'],
  ClassSales: [(ctx) => segmentSales(ctx, 'class'), 'This Fiscal Year-to-date'],
  DepartmentSales: [(ctx) => segmentSales(ctx, 'department'), 'This Fiscal Year-to-date'],
  TaxSummary: [taxSummary, 'This Fiscal Year-to-date'],
  InventoryValuationSummary: [inventoryValuationSummary, 'Today'],
};

/** The report names the sandbox answers (QuickBooks' spelling; the path is matched case-insensitively). */
export const REPORT_NAMES = Object.keys(REPORTS);

export function runReport(company: Company, name: string, query: URLSearchParams): Json {
  const canonical = REPORT_NAMES.find((n) => n.toLowerCase() === name.toLowerCase());
  if (!canonical) {
    throw new QboFault(400, 'ValidationFault', {
      Message: 'Unsupported Operation',
      Detail: `Operation Report ${name} is not supported by the sandbox (realm ${SANDBOX_REALM_ID}). Reports: ${REPORT_NAMES.join(', ')}`,
      code: '500',
    });
  }
  const reportDate = query.get('report_date');
  if (reportDate !== null && !isValidDate(reportDate))
    throw invalidParameter('report_date', `"${reportDate}" is not a date in yyyy-MM-dd format`);
  const [build, defaultMacro] = REPORTS[canonical] as [Builder, string];
  return build(reportContext(company, canonical, query, defaultMacro)) as unknown as Json;
}
