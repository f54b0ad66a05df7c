import { defineFind, type FindSpec } from './find.js';

/**
 * The entity searches. The first 29 are the catalog's (its names and paths); the last 6 are the other entities
 * QuickBooks' query endpoint serves that bookkeeping work needs (vendors, vendor credits, transfers, currencies,
 * customer types, exchange rates).
 */
export const FIND_SPECS: readonly FindSpec[] = [
  {
    name: 'find_accounts',
    path: '/accounts',
    entity: 'Account',
    plural: 'accounts of the chart of accounts',
    about:
      'Searches the chart of accounts: each account has Name, FullyQualifiedName, AccountType (Bank, Income, Expense…), ' +
      'AccountSubType, Classification, CurrentBalance and Active. Account ids are what report filters (account) take.',
    where: "AccountType = 'Bank' AND Active = true",
  },
  {
    name: 'find_attachables',
    path: '/attachables',
    entity: 'Attachable',
    plural: 'attachments and notes',
    about:
      'Searches attachments (receipts, files) and notes linked to transactions and names: FileName, ContentType, Size, Note and the records they belong to.',
    where: "ContentType = 'application/pdf'",
  },
  {
    name: 'find_bills',
    path: '/bills',
    entity: 'Bill',
    plural: 'bills (vendor invoices to pay)',
    about: 'Searches bills: amounts owed to vendors, with VendorRef, TxnDate, DueDate, TotalAmt, Balance (unpaid part) and line items.',
    where: "Balance > '0' AND DueDate < '2025-07-01'",
  },
  {
    name: 'find_bill_payments',
    path: '/bill-payments',
    entity: 'BillPayment',
    plural: 'bill payments',
    about:
      'Searches payments made against bills (by check or credit card): VendorRef, TxnDate, TotalAmt, PayType and the bills they settle.',
    where: "TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_budgets',
    path: '/budgets',
    entity: 'Budget',
    plural: 'budgets',
    about: 'Searches budgets: Name, StartDate, EndDate, BudgetType and BudgetEntryType, with one amount per account and period.',
    where: 'Active = true',
  },
  {
    name: 'find_classes',
    path: '/classes',
    entity: 'Class',
    plural: 'classes',
    about:
      'Searches classes, the tags companies use to track segments (locations, programs, product lines): Name, FullyQualifiedName, SubClass, Active.',
    where: "Name LIKE 'Estate%'",
  },
  {
    name: 'find_company_infos',
    path: '/company-infos',
    entity: 'CompanyInfo',
    plural: 'company information records',
    about:
      'Searches the company information record (there is one): CompanyName, LegalName, addresses, Country, FiscalYearStartMonth. get_company_info reads it directly.',
    where: "CompanyName LIKE '%'",
  },
  {
    name: 'find_credit_memos',
    path: '/credit-memos',
    entity: 'CreditMemo',
    plural: 'credit memos',
    about: 'Searches credit memos given to customers (returns, refunds owed, goodwill): CustomerRef, TxnDate, TotalAmt, RemainingCredit.',
    where: "TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_customers',
    path: '/customers',
    entity: 'Customer',
    plural: 'customers',
    about:
      'Searches customers (and their jobs/sub-customers): DisplayName, CompanyName, PrimaryEmailAddr, Balance (open receivables), ' +
      'Active, Job. Customer ids are what invoices, payments and report filters (customer) refer to.',
    where: "DisplayName LIKE 'Harbor%' AND Active = true",
  },
  {
    name: 'find_departments',
    path: '/departments',
    entity: 'Department',
    plural: 'departments (locations)',
    about: 'Searches departments, shown as "locations" in QuickBooks: Name, FullyQualifiedName, SubDepartment, Active.',
    where: 'Active = true',
  },
  {
    name: 'find_deposits',
    path: '/deposits',
    entity: 'Deposit',
    plural: 'bank deposits',
    about: 'Searches bank deposits: DepositToAccountRef, TxnDate, TotalAmt and the payments or other funds they group.',
    where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
  },
  {
    name: 'find_employees',
    path: '/employees',
    entity: 'Employee',
    plural: 'employees',
    about:
      'Searches employees: DisplayName, GivenName, FamilyName, PrimaryEmailAddr, HiredDate, Active (payroll details are not part of this API).',
    where: 'Active = true',
  },
  {
    name: 'find_estimates',
    path: '/estimates',
    entity: 'Estimate',
    plural: 'estimates (quotes)',
    about:
      'Searches estimates sent to customers: CustomerRef, TxnDate, ExpirationDate, TotalAmt and TxnStatus (Pending, Accepted, Closed, Rejected).',
    where: "TxnStatus = 'Pending'",
  },
  {
    name: 'find_invoices',
    path: '/invoices',
    entity: 'Invoice',
    plural: 'invoices',
    about:
      'Searches invoices: DocNumber, CustomerRef, TxnDate, DueDate, TotalAmt, Balance (what is still unpaid), EmailStatus and ' +
      "line items. Unpaid invoices: Balance > '0'; one customer: CustomerRef = '<customer id>'.",
    where: "Balance > '0' AND TxnDate >= '2025-01-01' ORDERBY DueDate",
  },
  {
    name: 'find_items',
    path: '/items',
    entity: 'Item',
    plural: 'products and services',
    about:
      'Searches products and services: Name, Sku, Type (Inventory, NonInventory, Service, Group, Category), UnitPrice, QtyOnHand, Active.',
    where: "Type = 'Service' AND Active = true",
  },
  {
    name: 'find_journal_codes',
    path: '/journal-codes',
    entity: 'JournalCode',
    plural: 'journal codes',
    about:
      'Searches journal codes (France-based companies only): Name, Type (Expenses, Sales, Bank, Nouveaux, Wages, Cash, Others), Active.',
    where: 'Active = true',
  },
  {
    name: 'find_journal_entries',
    path: '/journal-entries',
    entity: 'JournalEntry',
    plural: 'journal entries',
    about: 'Searches journal entries: DocNumber, TxnDate, Adjustment and their debit and credit lines by account.',
    where: "TxnDate >= '2025-01-01' AND TxnDate <= '2025-03-31'",
  },
  {
    name: 'find_payments',
    path: '/payments',
    entity: 'Payment',
    plural: 'customer payments',
    about:
      'Searches payments received from customers: CustomerRef, TxnDate, TotalAmt, UnappliedAmt, PaymentMethodRef and the invoices they pay.',
    where: "TxnDate >= '2025-06-01'",
  },
  {
    name: 'find_payment_methods',
    path: '/payment-methods',
    entity: 'PaymentMethod',
    plural: 'payment methods',
    about: 'Searches payment methods (Cash, Check, Visa…): Name, Type (CREDIT_CARD or NON_CREDIT_CARD), Active.',
    where: "Type = 'CREDIT_CARD'",
  },
  {
    name: 'find_preferences',
    path: '/preferences',
    entity: 'Preferences',
    plural: 'company preferences',
    about:
      'Searches the company preferences record (there is one): accounting, sales, vendor, tax, currency and report settings. get_preferences reads it directly.',
    where: "MetaData.LastUpdatedTime >= '2025-01-01'",
  },
  {
    name: 'find_purchases',
    path: '/purchases',
    entity: 'Purchase',
    plural: 'purchases (expenses, checks, card charges)',
    about:
      'Searches expenses paid at once: PaymentType (Cash, Check, CreditCard), AccountRef (paid from), EntityRef (payee), TxnDate, TotalAmt.',
    where: "PaymentType = 'CreditCard' AND TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_purchase_orders',
    path: '/purchase-orders',
    entity: 'PurchaseOrder',
    plural: 'purchase orders',
    about: 'Searches purchase orders sent to vendors: VendorRef, TxnDate, TotalAmt, POStatus (Open or Closed).',
    where: "POStatus = 'Open'",
  },
  {
    name: 'find_refund_receipts',
    path: '/refund-receipts',
    entity: 'RefundReceipt',
    plural: 'refund receipts',
    about: 'Searches refunds paid back to customers: CustomerRef, TxnDate, TotalAmt, DepositToAccountRef (paid from).',
    where: "TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_sales_receipts',
    path: '/sales-receipts',
    entity: 'SalesReceipt',
    plural: 'sales receipts',
    about: 'Searches sales paid on the spot (no invoice): CustomerRef, TxnDate, TotalAmt, PaymentMethodRef, DepositToAccountRef.',
    where: "TxnDate >= '2025-01-01' ORDERBY TxnDate DESC",
  },
  {
    name: 'find_tax_agencies',
    path: '/tax-agencies',
    entity: 'TaxAgency',
    plural: 'tax agencies',
    about:
      'Searches the agencies sales tax is paid to: DisplayName, TaxTrackedOnSales, TaxTrackedOnPurchases. Their ids are what report_tax_summary takes.',
    where: "DisplayName LIKE 'California%'",
  },
  {
    name: 'find_tax_codes',
    path: '/tax-codes',
    entity: 'TaxCode',
    plural: 'tax codes',
    about: 'Searches sales tax codes: Name, Description, Taxable, TaxGroup, Active, and the rates they apply to sales and purchases.',
    where: 'Active = true',
  },
  {
    name: 'find_tax_rates',
    path: '/tax-rates',
    entity: 'TaxRate',
    plural: 'tax rates',
    about: 'Searches sales tax rates: Name, RateValue (percent), AgencyRef, Active.',
    where: 'Active = true',
  },
  {
    name: 'find_terms',
    path: '/terms',
    entity: 'Term',
    plural: 'payment terms',
    about: 'Searches payment terms (Net 30, Due on receipt…): Name, Type (STANDARD or DATE_DRIVEN), DueDays, DiscountPercent, Active.',
    where: "Name LIKE 'Net%'",
  },
  {
    name: 'find_time_activities',
    path: '/time-activities',
    entity: 'TimeActivity',
    plural: 'time activities (timesheet entries)',
    about:
      'Searches timesheet entries: NameOf (Employee or Vendor), EmployeeRef or VendorRef, CustomerRef, TxnDate, Hours, Minutes, BillableStatus.',
    where: "TxnDate >= '2025-05-01' ORDERBY TxnDate DESC",
  },
  // ---- beyond the catalog: the other entities of the query endpoint ----
  {
    name: 'find_company_currencies',
    path: '/company-currencies',
    entity: 'CompanyCurrency',
    plural: 'company currencies',
    about: 'Searches the currencies a multicurrency company uses besides its home currency: Code, Name, Active.',
    where: 'Active = true',
  },
  {
    name: 'find_customer_types',
    path: '/customer-types',
    entity: 'CustomerType',
    plural: 'customer types',
    about: 'Searches customer types, the categories customers can be grouped by (wholesale, retail…): Name, Active.',
    where: 'Active = true',
  },
  {
    name: 'find_transfers',
    path: '/transfers',
    entity: 'Transfer',
    plural: 'transfers between accounts',
    about: 'Searches transfers of money between two balance-sheet accounts: FromAccountRef, ToAccountRef, Amount, TxnDate.',
    where: "TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_vendors',
    path: '/vendors',
    entity: 'Vendor',
    plural: 'vendors (suppliers)',
    about:
      'Searches vendors: DisplayName, CompanyName, PrimaryEmailAddr, Balance (what the company owes them), Vendor1099, Active. ' +
      'Vendor ids are what bills, purchases and report filters (vendor) refer to.',
    where: "DisplayName LIKE 'Office%' AND Active = true",
  },
  {
    name: 'find_vendor_credits',
    path: '/vendor-credits',
    entity: 'VendorCredit',
    plural: 'vendor credits',
    about: 'Searches credits received from vendors (returns, refunds due): VendorRef, TxnDate, TotalAmt, Balance.',
    where: "TxnDate >= '2025-01-01'",
  },
  {
    name: 'find_exchange_rates',
    path: '/exchange-rates',
    entity: 'ExchangeRate',
    plural: 'exchange rates',
    about: 'Searches the exchange rates of a multicurrency company: SourceCurrencyCode, TargetCurrencyCode, Rate, AsOfDate.',
    where: "SourceCurrencyCode = 'EUR' AND AsOfDate = '2025-06-30'",
  },
];

export const findOperations = FIND_SPECS.map(defineFind);
