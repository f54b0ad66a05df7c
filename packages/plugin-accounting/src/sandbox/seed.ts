import { FIRM, firmPerson, formatPhone, shiftSeededDates } from '@portico/core/testing/emulator';
import { ACCT, base, type Entities, type Json, nameLists, SANDBOX_COMPANY_NAME, SANDBOX_REALM_ID } from './company.js';
import { AUTHORED_TODAY } from './dates.js';
import { balance, isBalanceSheet, ledger } from './ledger.js';
import { round2, transactions } from './transactions.js';

// The whole seeded company: name lists, transactions, the company's settings (CompanyInfo, Preferences), a budget
// and attachments, with the balances QuickBooks keeps on accounts, customers and vendors computed from the books.

export interface Company {
  realmId: string;
  entities: Entities;
}

const ADDRESS = {
  Id: '1',
  Line1: FIRM.street,
  City: FIRM.city,
  CountrySubDivisionCode: FIRM.state,
  PostalCode: FIRM.postalCode,
  Country: 'US',
};

function companyInfo(realmId: string): Json {
  return {
    ...base('1', '2019-03-01', 8, '2025-06-02'),
    CompanyName: SANDBOX_COMPANY_NAME,
    LegalName: 'Harlow & Pike, Limited Liability Partnership',
    CompanyAddr: ADDRESS,
    CustomerCommunicationAddr: ADDRESS,
    LegalAddr: ADDRESS,
    PrimaryPhone: { FreeFormNumber: formatPhone(FIRM.mainLine) },
    Email: { Address: firmPerson('bookkeeper').email },
    WebAddr: { URI: FIRM.website },
    CompanyStartDate: '2019-03-01',
    FiscalYearStartMonth: 'January',
    Country: 'US',
    SupportedLanguages: 'en',
    DefaultTimeZone: 'America/Los_Angeles',
    NameValue: [
      { Name: 'NeoEnabled', Value: 'true' },
      { Name: 'IndustryType', Value: 'Legal Services' },
      { Name: 'IndustryCode', Value: '541110' },
      { Name: 'CompanyType', Value: 'Partnership' },
      { Name: 'SubscriptionStatus', Value: 'SUBSCRIBED' },
      { Name: 'OfferingSku', Value: 'QuickBooks Online Plus' },
      { Name: 'PayrollFeature', Value: 'false' },
      { Name: 'AccountantFeature', Value: 'false' },
      { Name: 'QBOIndustryType', Value: 'Legal Services' },
      { Name: 'ItemCategoriesFeature', Value: 'true' },
      { Name: 'AssignedTime', Value: '2019-03-01T10:14:00-08:00' },
      { Name: 'RealmId', Value: realmId },
    ],
  };
}

function preferences(): Json {
  return {
    ...base('1', '2019-03-01', 8, '2025-01-04'),
    AccountingInfoPrefs: {
      TrackDepartments: true,
      DepartmentTerminology: 'Location',
      ClassTrackingPerTxn: false,
      ClassTrackingPerTxnLine: true,
      CustomerTerminology: 'Clients',
      FirstMonthOfFiscalYear: 'January',
      TaxYearMonth: 'January',
      TaxForm: '6',
      UseAccountNumbers: true,
    },
    ProductAndServicesPrefs: { ForSales: true, ForPurchase: true, QuantityWithPriceAndRate: true, QuantityOnHand: false },
    SalesFormsPrefs: {
      AllowDeposit: false,
      AllowDiscount: true,
      AllowEstimates: true,
      AllowServiceDate: true,
      AllowShipping: false,
      AutoApplyCredit: true,
      CustomTxnNumbers: true,
      DefaultTerms: { value: '3' },
      DefaultCustomerMessage: 'Thank you for your business. Payment is due per the engagement letter.',
      ETransactionEnabledStatus: 'NotApplicable',
      UsingPriceLevels: false,
      UsingProgressInvoicing: false,
    },
    EmailMessagesPrefs: {
      InvoiceMessage: { Subject: `Invoice [Invoice No.] from ${SANDBOX_COMPANY_NAME}`, Message: 'Please find your invoice attached.' },
      EstimateMessage: { Subject: `Estimate [Estimate No.] from ${SANDBOX_COMPANY_NAME}`, Message: 'Please review the attached estimate.' },
    },
    VendorAndPurchasesPrefs: {
      TrackingByCustomer: true,
      BillableExpenseTracking: true,
      DefaultTerms: { value: '3' },
      DefaultMarkup: 0,
      POCustomField: [],
    },
    TimeTrackingPrefs: {
      UseServices: true,
      BillCustomers: true,
      ShowBillRateToAll: false,
      WorkWeekStartDate: 'Monday',
      MarkTimeEntriesBillable: true,
    },
    TaxPrefs: { UsingSalesTax: true, PartnerTaxEnabled: true, TaxGroupCodeRef: { value: '1' } },
    CurrencyPrefs: { MultiCurrencyEnabled: true, HomeCurrency: { value: 'USD' } },
    ReportPrefs: { ReportBasis: 'Accrual', CalcAgingReportFromTxnDate: false },
    OtherPrefs: {
      NameValue: [
        { Name: 'SalesFormsPrefs.DefaultCustomerMessage', Value: 'Thank you for your business.' },
        { Name: 'DTXCopyMemo', Value: 'false' },
      ],
    },
  };
}

function budget(): Json {
  const monthly: Array<[string, string, number]> = [
    [ACCT.legalFees, 'Legal Fees', 19000],
    [ACCT.flatFees, 'Flat Fee Income', 4000],
    [ACCT.rent, 'Rent', 3800],
    [ACCT.research, 'Legal Research', 389],
    [ACCT.payrollExpense, 'Payroll Expenses', 9000],
    [ACCT.supplies, 'Office Supplies', 200],
  ];
  return {
    ...base('1', '2024-12-20', 15),
    Name: 'FY2025 Operating Budget',
    StartDate: '2025-01-01',
    EndDate: '2025-12-31',
    BudgetType: 'ProfitAndLoss',
    BudgetEntryType: 'Monthly',
    Active: true,
    BudgetDetail: Array.from({ length: 12 }, (_, m) =>
      monthly.map(([id, name, amount]) => ({
        BudgetDate: `2025-${String(m + 1).padStart(2, '0')}-01`,
        Amount: amount,
        AccountRef: { value: id, name },
      })),
    ).flat(),
  };
}

function attachables(realmId: string): Json[] {
  const files: Array<[string, string, number, string, string, string]> = [
    ['engagement-letter-harborview.pdf', 'application/pdf', 182_044, 'Signed engagement letter', 'Customer', '1'],
    ['invoice-1003-time-detail.pdf', 'application/pdf', 64_210, 'Time detail for invoice 1003', 'Invoice', '3'],
    ['office-depot-receipt-0114.jpg', 'image/jpeg', 243_871, 'Receipt', 'Purchase', '1'],
    ['expert-report-invoice.pdf', 'application/pdf', 98_330, 'Expert witness invoice', 'Bill', '8'],
  ];
  return files.map(([file, type, size, note, entity, id], i) => ({
    ...base(String(i + 1), '2025-02-01', 9 + i),
    FileName: file,
    ContentType: type,
    Size: size,
    Note: note,
    FileAccessUri: `/v3/company/${realmId}/download/${5000000000000000 + i}`,
    AttachableRef: [{ EntityRef: { type: entity, value: id }, IncludeOnSend: false }],
  }));
}

/**
 * The seeded company of a realm, with balances that match its books. The books are written against AUTHORED_TODAY
 * and every date in them is moved onto the sandbox clock, so that what was due ten days before that day is due ten
 * days before today.
 */
export function seedCompany(realmId = SANDBOX_REALM_ID): Company {
  const lists = nameLists();
  const entities: Entities = {
    ...lists,
    ...transactions(lists),
    CompanyInfo: [companyInfo(realmId)],
    Preferences: [preferences()],
    Budget: [budget()],
    Attachable: attachables(realmId),
  };
  const books = ledger(entities, 'Accrual');
  for (const account of entities.Account) {
    const current = isBalanceSheet(account) ? balance(books, account) : 0;
    account.CurrentBalance = current;
    account.CurrentBalanceWithSubAccounts = current;
  }
  const open = (list: Json[], field: string, id: unknown) =>
    list.filter((t) => (t[field] as { value: string }).value === id).reduce((sum, t) => sum + Number(t.Balance ?? 0), 0);
  for (const customer of entities.Customer) {
    customer.Balance = round2(open(entities.Invoice, 'CustomerRef', customer.Id) - open(entities.CreditMemo, 'CustomerRef', customer.Id));
    customer.BalanceWithJobs = customer.Balance;
  }
  for (const vendor of entities.Vendor) {
    vendor.Balance = round2(open(entities.Bill, 'VendorRef', vendor.Id) - open(entities.VendorCredit, 'VendorRef', vendor.Id));
  }
  shiftSeededDates(entities, AUTHORED_TODAY);
  return { realmId, entities };
}
