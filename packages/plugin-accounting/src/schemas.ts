import { BooleanString, DateString, EXPECTS, IntegerString, StringEnum, type TSchema, Type } from '@portico/core/plugin';

// ---- value sets (QuickBooks Reports API) -------------------------------------------------------------------------------

export const ACCOUNTING_METHODS = ['Cash', 'Accrual'] as const;

export const DATE_MACROS = [
  'Today',
  'Yesterday',
  'This Week',
  'Last Week',
  'This Week-to-date',
  'Last Week-to-date',
  'Next Week',
  'Next 4 Weeks',
  'This Month',
  'Last Month',
  'This Month-to-date',
  'Last Month-to-date',
  'Next Month',
  'This Fiscal Quarter',
  'Last Fiscal Quarter',
  'This Fiscal Quarter-to-date',
  'Last Fiscal Quarter-to-date',
  'Next Fiscal Quarter',
  'This Fiscal Year',
  'Last Fiscal Year',
  'This Fiscal Year-to-date',
  'Last Fiscal Year-to-date',
  'Next Fiscal Year',
] as const;

export const SUMMARIZE_COLUMN_BY = [
  'Total',
  'Month',
  'Week',
  'Days',
  'Quarter',
  'Year',
  'Customers',
  'Vendors',
  'Classes',
  'Departments',
  'Employees',
  'ProductsAndServices',
] as const;

export const SORT_ORDERS = ['ascend', 'descend'] as const;
export const AGING_METHODS = ['Report_Date', 'Current'] as const;
export const PAID_STATUSES = ['All', 'Paid', 'Unpaid'] as const;
export const ACCOUNT_STATUSES = ['Deleted', 'Not_Deleted'] as const;

export const ACCOUNT_TYPES = [
  'AccountsPayable',
  'AccountsReceivable',
  'Bank',
  'CostOfGoodsSold',
  'CreditCard',
  'Equity',
  'Expense',
  'FixedAsset',
  'Income',
  'LongTermLiability',
  'NonPosting',
  'OtherAsset',
  'OtherCurrentAsset',
  'OtherCurrentLiability',
  'OtherExpense',
  'OtherIncome',
] as const;

export const GROUP_BY = [
  'Name',
  'Account',
  'Transaction_Type',
  'Customer',
  'Vendor',
  'Employee',
  'Location',
  'Payment_Method',
  'Day',
  'Week',
  'Month',
  'Quarter',
  'Year',
  'Fiscal_Year',
  'Fiscal_Quarter',
  'None',
] as const;

/** Entities change data capture reports on. */
export const CDC_ENTITIES = [
  'Account',
  'Bill',
  'BillPayment',
  'Budget',
  'Class',
  'CreditMemo',
  'Customer',
  'Department',
  'Deposit',
  'Employee',
  'Estimate',
  'Invoice',
  'Item',
  'JournalCode',
  'JournalEntry',
  'Payment',
  'PaymentMethod',
  'Purchase',
  'PurchaseOrder',
  'RefundReceipt',
  'SalesReceipt',
  'TaxAgency',
  'Term',
  'TimeActivity',
  'Transfer',
  'Vendor',
  'VendorCredit',
] as const;

// ---- report parameters -------------------------------------------------------------------------------------------------

const ids = (what: string, from: string) =>
  Type.String({
    pattern: '^[0-9]+(,[0-9]+)*$',
    maxLength: 2000,
    [EXPECTS]: 'one or more ids separated by commas',
    description: `Only ${what}: one or more ${from} ids, comma-separated.`,
    examples: ['1,2'],
  });

const date = (description: string, example: string) => DateString({ description, examples: [example] });

const names = (description: string, example: string) =>
  Type.String({
    pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$',
    maxLength: 1000,
    [EXPECTS]: 'lowercase column names separated by commas',
    description,
    examples: [example],
  });

/**
 * Every report parameter the plugin knows, typed as QuickBooks documents it; each report takes the subset QuickBooks
 * lists for it. Names are QuickBooks' own and travel upstream unchanged.
 */
export const REPORT_PARAMS = {
  start_date: date('First day of the report period (YYYY-MM-DD). Give end_date with it; or use date_macro instead.', '2025-01-01'),
  end_date: date('Last day of the report period (YYYY-MM-DD), not before start_date. Give start_date with it.', '2025-06-30'),
  accounting_method: StringEnum(ACCOUNTING_METHODS, {
    description: "Cash or Accrual basis (default: the company's report preference).",
    examples: ['Accrual'],
  }),
  date_macro: StringEnum(DATE_MACROS, {
    description: 'A named period relative to today, instead of start_date/end_date (QuickBooks default: This Fiscal Year-to-date).',
    examples: ['Last Month'],
  }),
  summarize_column_by: StringEnum(SUMMARIZE_COLUMN_BY, {
    description: 'One column per period or per customer, vendor, class, department, employee or product (default Total: one column).',
    examples: ['Month'],
  }),
  sort_order: StringEnum(SORT_ORDERS, { description: 'Row order: ascend or descend.', examples: ['descend'] }),
  customer: ids('these customers', 'customer (find_customers)'),
  vendor: ids('these vendors', 'vendor (find_vendors)'),
  employee: ids('these employees', 'employee (find_employees)'),
  item: ids('these products or services', 'item (find_items)'),
  class: ids('these classes', 'class (find_classes)'),
  department: ids('these departments (locations)', 'department (find_departments)'),
  account: ids('these accounts', 'account (find_accounts)'),
  source_account: ids('transactions posted from these accounts', 'account (find_accounts)'),
  term: ids('these payment terms', 'term (find_terms)'),
  payment_method: ids('these payment methods', 'payment method (find_payment_methods)'),
  agency_id: ids('this tax agency', 'tax agency (find_tax_agencies)'),
  account_type: StringEnum(ACCOUNT_TYPES, { description: 'Only accounts of this type.', examples: ['Bank'] }),
  account_status: StringEnum(ACCOUNT_STATUSES, {
    description: 'Deleted (inactive) or Not_Deleted accounts (default: both).',
    examples: ['Not_Deleted'],
  }),
  adjusted_gain_loss: BooleanString({
    description: '"true" to include unrealized currency gains and losses (multicurrency companies).',
    examples: ['true'],
  }),
  report_date: date('The day the report is computed as of (YYYY-MM-DD; default today).', '2025-06-30'),
  aging_method: StringEnum(AGING_METHODS, {
    description: 'Age from the report date (Report_Date) or from today (Current).',
    examples: ['Report_Date'],
  }),
  num_periods: IntegerString({
    minimum: 1,
    maximum: 99,
    description: 'Number of aging columns (default 4).',
    examples: ['4'],
  }),
  aging_period: IntegerString({
    minimum: 1,
    maximum: 365,
    description: 'Days in each aging column (default 30).',
    examples: ['30'],
  }),
  past_due: IntegerString({
    minimum: 0,
    maximum: 9999,
    description: 'Only amounts at least this many days past due.',
    examples: ['30'],
  }),
  arpaid: StringEnum(PAID_STATUSES, { description: 'Receivables: All, Paid or Unpaid transactions.', examples: ['Unpaid'] }),
  appaid: StringEnum(PAID_STATUSES, { description: 'Payables: All, Paid or Unpaid transactions.', examples: ['Unpaid'] }),
  start_duedate: date('First due date to include (YYYY-MM-DD). Give end_duedate with it.', '2025-06-01'),
  end_duedate: date('Last due date to include (YYYY-MM-DD). Give start_duedate with it.', '2025-06-30'),
  duedate_macro: StringEnum(DATE_MACROS, {
    description: 'A named period of due dates, instead of start_duedate/end_duedate.',
    examples: ['This Month'],
  }),
  transaction_type: Type.String({
    pattern: '^[A-Za-z]+(,[A-Za-z]+)*$',
    maxLength: 500,
    [EXPECTS]: 'transaction type names separated by commas',
    description: 'Only these transaction types, comma-separated (Invoice, Bill, Payment, Check, Deposit, JournalEntry, SalesReceipt…).',
    examples: ['Invoice,Payment'],
  }),
  group_by: StringEnum(GROUP_BY, { description: 'How rows are grouped.', examples: ['Customer'] }),
  columns: names(
    'Columns to include, comma-separated QuickBooks column names (e.g. tx_date,doc_num,name,memo,subt_nat_amount).',
    'tx_date,doc_num,name',
  ),
  sort_by: Type.String({
    pattern: '^[a-z0-9_]+$',
    maxLength: 100,
    [EXPECTS]: 'one lowercase column name',
    description: 'Column the rows are sorted by (a QuickBooks column name, e.g. tx_date).',
    examples: ['tx_date'],
  }),
} satisfies Record<string, TSchema>;

export type ReportParamName = keyof typeof REPORT_PARAMS;
