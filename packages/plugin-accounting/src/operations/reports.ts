import type { ReportParamName } from '../schemas.js';
import { defineReport, type ReportSpec } from './kit/report.js';

/** The catalog's report parameters: "start_date (string, YYYY-MM-DD), end_date (string, YYYY-MM-DD), accounting_method (Cash or Accrual)". */
const CATALOG: readonly ReportParamName[] = ['start_date', 'end_date', 'accounting_method'];
const PERIOD: readonly ReportParamName[] = ['start_date', 'end_date', 'date_macro', 'accounting_method'];
const SEGMENTS: readonly ReportParamName[] = ['customer', 'vendor', 'item', 'class', 'department'];
const AGING: readonly ReportParamName[] = ['report_date', 'date_macro', 'aging_method', 'num_periods', 'aging_period', 'past_due'];
const DETAIL: readonly ReportParamName[] = ['columns', 'sort_by', 'sort_order'];
const DUE: readonly ReportParamName[] = ['start_duedate', 'end_duedate'];
const FY = { start_date: '2025-01-01', end_date: '2025-06-30' };

export const REPORT_SPECS: readonly ReportSpec[] = [
  // ---- the catalog's five ----
  {
    name: 'report_item_sales',
    path: '/reports/item-sales',
    report: 'ItemSales',
    title: 'Sales by Product/Service Summary',
    about: 'Quantity, amount, share of sales and average price per product or service over a period.',
    params: CATALOG,
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_customer_income',
    path: '/reports/customer-income',
    report: 'CustomerIncome',
    title: 'Income by Customer Summary',
    about:
      'Income, expenses and net income per customer over a period: which customers (clients) are profitable once the costs ' +
      'of serving them are taken off, and which lose money.',
    params: CATALOG,
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_customer_balance',
    path: '/reports/customer-balance',
    report: 'CustomerBalance',
    title: 'Customer Balance Summary',
    about: 'What each customer owes (open invoices less credits).',
    params: CATALOG,
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_customer_balance_detail',
    path: '/reports/customer-balance-detail',
    report: 'CustomerBalanceDetail',
    title: 'Customer Balance Detail',
    about: 'The open transactions behind each customer balance, with dates, amounts and running balance.',
    params: CATALOG,
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_aged_receivables',
    path: '/reports/aged-receivables',
    report: 'AgedReceivables',
    title: 'A/R Aging Summary',
    about:
      'Unpaid customer balances split by how long they are overdue (current, 1-30, 31-60, 61-90, over 90 days): who still owes ' +
      'the company money (clients, customers) and how late each balance is. QuickBooks ages as ' +
      'of today; the catalog’s start_date, end_date and accounting_method are passed on as given.',
    params: CATALOG,
    example: { ...FY, accounting_method: 'Accrual' },
  },
  // ---- beyond the catalog: the reports accountants open most ----
  {
    name: 'report_profit_and_loss',
    path: '/reports/profit-and-loss',
    report: 'ProfitAndLoss',
    title: 'Profit and Loss (income statement)',
    about:
      'Income, cost of goods sold, expenses and net income over a period: how much the business made (its profit or loss, ' +
      'earnings) in a month, quarter or year. summarize_column_by splits it by month, quarter, customer, class…',
    params: [...PERIOD, 'summarize_column_by', ...SEGMENTS, 'adjusted_gain_loss', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual', summarize_column_by: 'Month' },
  },
  {
    name: 'report_profit_and_loss_detail',
    path: '/reports/profit-and-loss-detail',
    report: 'ProfitAndLossDetail',
    title: 'Profit and Loss Detail',
    about: 'Every transaction behind the profit and loss figures, by account, with date, type, name, memo and amount.',
    params: [...PERIOD, 'customer', 'vendor', 'employee', 'account', 'account_type', 'class', 'department', 'payment_method', ...DETAIL],
    example: { date_macro: 'Last Month', accounting_method: 'Accrual' },
  },
  {
    name: 'report_balance_sheet',
    path: '/reports/balance-sheet',
    report: 'BalanceSheet',
    title: 'Balance Sheet',
    about:
      'Assets, liabilities and equity at the end of the period: what the company owns (bank accounts, receivables, ' +
      'equipment) and what it owes (bills, loans, credit cards) on a given day, and its net worth. summarize_column_by ' +
      'compares months, quarters or years.',
    params: [...PERIOD, 'summarize_column_by', ...SEGMENTS, 'adjusted_gain_loss', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_trial_balance',
    path: '/reports/trial-balance',
    report: 'TrialBalance',
    title: 'Trial Balance',
    about: 'Debit and credit balance of every account: the check that the books balance, and the starting point of year-end work.',
    params: [...PERIOD, 'summarize_column_by', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_trial_balance_fr',
    path: '/reports/trial-balance-fr',
    report: 'TrialBalanceFR',
    title: 'Trial Balance (France)',
    about: 'The trial balance in the layout French companies file (Balance générale).',
    params: [...PERIOD, 'summarize_column_by', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_cash_flow',
    path: '/reports/cash-flow',
    report: 'CashFlow',
    title: 'Statement of Cash Flows',
    about: 'Cash in and out over a period from operating, investing and financing activities.',
    params: ['start_date', 'end_date', 'date_macro', 'summarize_column_by', ...SEGMENTS, 'sort_order'],
    example: { ...FY },
  },
  {
    name: 'report_general_ledger_detail',
    path: '/reports/general-ledger-detail',
    report: 'GeneralLedger',
    title: 'General Ledger',
    about:
      'Every transaction of every account (or of the accounts given, e.g. a bank account) with opening balance, each ' +
      'posting as a debit or credit, and running balance: the activity of an account over a period.',
    params: [...PERIOD, 'account', 'account_type', 'source_account', 'customer', 'vendor', 'class', 'department', ...DETAIL],
    example: { date_macro: 'Last Month', account: '1' },
  },
  {
    name: 'report_journal_report',
    path: '/reports/journal-report',
    report: 'JournalReport',
    title: 'Journal',
    about: 'Every transaction of the period as journal lines (account, debit, credit): what an accountant reviews before closing.',
    params: ['start_date', 'end_date', 'date_macro', ...DETAIL],
    example: { date_macro: 'Last Month' },
  },
  {
    name: 'report_account_list_detail',
    path: '/reports/account-list-detail',
    report: 'AccountList',
    title: 'Account List',
    about: 'The chart of accounts as a report: name, type, detail type, description and balance of each account.',
    params: ['account_type', 'account_status', ...DETAIL],
    example: { account_status: 'Not_Deleted' },
  },
  {
    name: 'report_aged_receivable_detail',
    path: '/reports/aged-receivable-detail',
    report: 'AgedReceivableDetail',
    title: 'A/R Aging Detail',
    about: 'Every unpaid customer invoice with its due date and days overdue, grouped by aging bucket: what to chase first.',
    params: [...AGING, 'customer', 'term', ...DUE, ...DETAIL],
    example: { report_date: '2025-06-30', aging_method: 'Report_Date', past_due: '30' },
  },
  {
    name: 'report_aged_payables',
    path: '/reports/aged-payables',
    report: 'AgedPayables',
    title: 'A/P Aging Summary',
    about: 'What the company owes each vendor, split by how long it is overdue.',
    params: [...AGING, 'vendor', 'columns', 'sort_order'],
    example: { report_date: '2025-06-30', aging_method: 'Report_Date' },
  },
  {
    name: 'report_aged_payable_detail',
    path: '/reports/aged-payable-detail',
    report: 'AgedPayableDetail',
    title: 'A/P Aging Detail',
    about:
      'Every unpaid supplier bill with its due date and days past due, grouped by aging bucket (current, 1-30, 31-60, ' +
      '61-90, over 90 days overdue): which bills to pay first.',
    params: [...AGING, 'vendor', 'term', ...DUE, ...DETAIL],
    example: { report_date: '2025-06-30', num_periods: '4', aging_period: '30' },
  },
  {
    name: 'report_vendor_balance',
    path: '/reports/vendor-balance',
    report: 'VendorBalance',
    title: 'Vendor Balance Summary',
    about: 'What the company owes each vendor (supplier) right now, or on a report_date: unpaid bills less credits.',
    params: ['report_date', 'date_macro', 'accounting_method', 'appaid', 'summarize_column_by', 'vendor', 'department', 'sort_order'],
    example: { report_date: '2025-06-30' },
  },
  {
    name: 'report_vendor_balance_detail',
    path: '/reports/vendor-balance-detail',
    report: 'VendorBalanceDetail',
    title: 'Vendor Balance Detail',
    about: 'The unpaid bills and credits behind each vendor balance, with due dates and running balance.',
    params: [
      'report_date',
      'date_macro',
      'accounting_method',
      'appaid',
      'vendor',
      'term',
      'department',
      ...DUE,
      'duedate_macro',
      ...DETAIL,
    ],
    example: { report_date: '2025-06-30', appaid: 'Unpaid' },
  },
  {
    name: 'report_vendor_expenses',
    path: '/reports/vendor-expenses',
    report: 'VendorExpenses',
    title: 'Expenses by Vendor Summary',
    about: 'Total spent with each vendor (supplier) over a period: where the money goes, and the spend per supplier.',
    params: [...PERIOD, 'summarize_column_by', 'customer', 'vendor', 'class', 'department', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_customer_sales',
    path: '/reports/customer-sales',
    report: 'CustomerSales',
    title: 'Sales by Customer Summary',
    about: 'Total sales per customer over a period: the best customers, by revenue.',
    params: [...PERIOD, 'summarize_column_by', 'customer', 'item', 'class', 'department', 'sort_order'],
    example: { ...FY, accounting_method: 'Accrual' },
  },
  {
    name: 'report_department_sales',
    path: '/reports/department-sales',
    report: 'DepartmentSales',
    title: 'Sales by Department (location)',
    about: 'Sales per department (location) over a period.',
    params: [...PERIOD, 'customer', 'item', 'class', 'department', 'sort_order'],
    example: { ...FY },
  },
  {
    name: 'report_class_sales',
    path: '/reports/class-sales',
    report: 'ClassSales',
    title: 'Sales by Class',
    about: 'Sales per class (segment, program, product line) over a period.',
    params: [...PERIOD, 'customer', 'item', 'class', 'department', 'sort_order'],
    example: { ...FY },
  },
  {
    name: 'report_inventory_valuation_summary',
    path: '/reports/inventory-valuation-summary',
    report: 'InventoryValuationSummary',
    title: 'Inventory Valuation Summary',
    about: 'Quantity on hand, average cost and asset value of each inventory item.',
    params: ['start_date', 'end_date', 'date_macro', 'item', 'summarize_column_by', 'sort_order'],
    example: { date_macro: 'Today' },
  },
  {
    name: 'report_tax_summary',
    path: '/reports/tax-summary',
    report: 'TaxSummary',
    title: 'Sales Tax Summary',
    about: 'Taxable and non-taxable sales and the tax collected for one tax agency (agency_id from find_tax_agencies) over a period.',
    params: [...PERIOD, 'agency_id', 'sort_order'],
    example: { ...FY, agency_id: '1' },
  },
  {
    name: 'report_transaction_list',
    path: '/reports/transaction-list',
    report: 'TransactionList',
    title: 'Transaction List by Date',
    about:
      'Every transaction of a period, one row each (date, type, number, name, memo, account, amount), filterable by type, name and status.',
    params: [
      'start_date',
      'end_date',
      'date_macro',
      'transaction_type',
      'customer',
      'vendor',
      'department',
      'term',
      'payment_method',
      'arpaid',
      'appaid',
      ...DUE,
      'duedate_macro',
      'group_by',
      ...DETAIL,
    ],
    example: { date_macro: 'Last Month', transaction_type: 'Invoice,Payment' },
  },
  {
    name: 'report_transaction_list_with_splits',
    path: '/reports/transaction-list-with-splits',
    report: 'TransactionListWithSplits',
    title: 'Transaction List with Splits',
    about: 'Every transaction of a period with each of its lines (the split across accounts): how each amount was coded.',
    params: ['start_date', 'end_date', 'date_macro', 'transaction_type', 'payment_method', 'group_by', ...DETAIL],
    example: { date_macro: 'Last Month' },
  },
  {
    name: 'report_transaction_list_by_customer',
    path: '/reports/transaction-list-by-customer',
    report: 'TransactionListByCustomer',
    title: 'Transaction List by Customer',
    about: 'Every transaction of a period grouped by customer: a customer’s complete history.',
    params: ['start_date', 'end_date', 'date_macro', 'customer', 'transaction_type', 'payment_method', 'term', 'department', ...DETAIL],
    example: { date_macro: 'This Fiscal Year-to-date', customer: '1' },
  },
  {
    name: 'report_transaction_list_by_vendor',
    path: '/reports/transaction-list-by-vendor',
    report: 'TransactionListByVendor',
    title: 'Transaction List by Vendor',
    about: 'Every transaction of a period grouped by vendor: a vendor’s complete history.',
    params: ['start_date', 'end_date', 'date_macro', 'vendor', 'transaction_type', 'payment_method', 'term', 'department', ...DETAIL],
    example: { date_macro: 'This Fiscal Year-to-date', vendor: '1' },
  },
];

export const reportOperations = REPORT_SPECS.map(defineReport);
