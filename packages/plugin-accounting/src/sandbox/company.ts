import { FIRM, type FirmPerson, firmClient, firmPerson, formatPhone, STORY, zonedTimestamp } from '@portico/core/testing/emulator';
import { ACCT, accountName, accounts } from './accounts.js';
import { base, type Json, refTo, USD } from './records.js';

export { ACCT } from './accounts.js';
export { addMonths, base, type Json, metaData, type Ref, refTo } from './records.js';

// The seeded company's name lists and settings: Harlow & Pike LLP (@portico/core/testing's firm) on QuickBooks
// Online Plus, with a chart of accounts for a firm, its clients, vendors, staff, services and sales-tax setup. The
// transactions are in transactions.ts; everything is built fresh on every start and on POST /__sandbox/reset.

/** The realm (company id) of the seeded company, as QuickBooks hands it out in the OAuth redirect. */
export const SANDBOX_REALM_ID = '9341453172851203';

export const ENTITY_NAMES = [
  'Account',
  'Attachable',
  'Bill',
  'BillPayment',
  'Budget',
  'Class',
  'CompanyCurrency',
  'CompanyInfo',
  'CreditMemo',
  'Customer',
  'CustomerType',
  'Department',
  'Deposit',
  'Employee',
  'Estimate',
  'ExchangeRate',
  'Invoice',
  'Item',
  'JournalCode',
  'JournalEntry',
  'Payment',
  'PaymentMethod',
  'Preferences',
  'Purchase',
  'PurchaseOrder',
  'RefundReceipt',
  'SalesReceipt',
  'TaxAgency',
  'TaxCode',
  'TaxRate',
  'Term',
  'TimeActivity',
  'Transfer',
  'Vendor',
  'VendorCredit',
] as const;

export type EntityName = (typeof ENTITY_NAMES)[number];
export type Entities = Record<EntityName, Json[]>;

const CREATED = '2024-12-16';

// ---- customers and vendors ------------------------------------------------------------------------------------------

// The firm's clients (@portico/core/testing) as QuickBooks customers: [firm client, matter class id, customer type id,
// terms id]. Customer 2 is Rosa Delgado, the client of the story: her invoice 1014 is paid, 1029 half paid and overdue.
const CUSTOMERS: Array<[string, string, string, string]> = [
  ['Northwind Traders', '2', '2', '3'],
  [STORY.client.name, '1', '1', '2'],
  ['Bayview Properties', '2', '2', '3'],
  ['Samuel Okafor', '3', '1', '1'],
  ["O'Connell Family Trust", '3', '1', '2'],
  ['Mission Street Bakery', '1', '2', '3'],
  ['Golden Gate Senior Living', '1', '3', '3'],
  ['Javier & Lucia Reyes', '3', '1', '2'],
  ['Pinnacle Logistics', '1', '2', '3'],
  ['Eleanor Vance', '1', '1', '1'],
  ['Blue Heron Studios', '2', '2', '2'],
  ['Theodore Banks', '3', '1', '1'],
  ['Presidio Robotics', '2', '2', '3'],
  ['Bay Area Food Bank', '2', '3', '3'],
  ['Henry Whitfield', '1', '1', '2'],
  // a client since her matter opened, with no invoice yet (a contingency case, billed at its end)
  ['Lucia Moreno', '1', '1', '1'],
];

const email = (name: string) =>
  `${name
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '')}@example.com`;

function customers(): Json[] {
  return CUSTOMERS.map(([name, classId, typeId, termId], i) => {
    const { name: display, company, first: given, last: family, email, phone, city } = firmClient(name);
    return {
      ...base(String(i + 1), `2024-12-${16 + i}`, 10),
      DisplayName: display,
      FullyQualifiedName: display,
      PrintOnCheckName: company ?? display,
      ...(company ? { CompanyName: company } : {}),
      GivenName: given,
      FamilyName: family,
      PrimaryEmailAddr: { Address: email },
      PrimaryPhone: { FreeFormNumber: formatPhone(phone) },
      BillAddr: {
        Id: String(100 + i),
        Line1: `${120 + i * 41} ${['Mission St', 'Broadway', 'Geary Blvd', 'Telegraph Ave'][i % 4]}`,
        City: city,
        CountrySubDivisionCode: 'CA',
        PostalCode: String(94102 + i * 7),
      },
      Job: false,
      BillWithParent: false,
      IsProject: false,
      Taxable: false,
      Active: i !== 14,
      Balance: 0,
      BalanceWithJobs: 0,
      CurrencyRef: USD,
      PreferredDeliveryMethod: 'Email',
      SalesTermRef: { value: termId },
      CustomerTypeRef: { value: typeId },
      Notes: `Matter class ${['Litigation', 'Corporate', 'Estate Planning'][Number(classId) - 1]}`,
    };
  });
}

/** The class (practice group) of each customer's matters, by customer id. */
export const CUSTOMER_CLASS: Record<string, string> = Object.fromEntries(CUSTOMERS.map((c, i) => [String(i + 1), c[1]]));

// [display name, company, given, family, 1099, terms id, account number]
const VENDORS: Array<[string, string, string, string, boolean, string, string]> = [
  ['Landmark Office Properties', 'Landmark Office Properties LLC', 'Carol', 'Hughes', false, '1', 'L-2210'],
  ['Thomson Reuters (Westlaw)', 'Thomson Reuters', 'Accounts', 'Receivable', false, '3', 'WL-88213'],
  ['Lawyers Mutual Insurance', 'Lawyers Mutual Insurance Co.', 'Dana', 'Pruitt', false, '3', 'LM-40032'],
  ['Pacific Court Reporters', 'Pacific Court Reporters Inc.', 'Nina', 'Alvarez', true, '2', ''],
  ['Dr. Elena Marsh', '', 'Elena', 'Marsh', true, '3', ''],
  ['Office Depot', 'Office Depot, Inc.', 'Store', '1074', false, '1', 'OD-5521'],
  ['Pacific Gas and Electric', 'PG&E', 'Customer', 'Service', false, '2', '4410-223-91'],
  ['Superior Court of San Francisco', 'Superior Court of California, County of San Francisco', 'Clerk', 'Office', false, '1', ''],
];

function vendors(): Json[] {
  return VENDORS.map(([display, company, given, family, is1099, termId, accountNumber], i) => ({
    ...base(String(i + 1), CREATED, 11),
    DisplayName: display,
    PrintOnCheckName: company || display,
    ...(company ? { CompanyName: company } : {}),
    GivenName: given,
    FamilyName: family,
    PrimaryEmailAddr: { Address: email(display) },
    PrimaryPhone: { FreeFormNumber: `(628) 555-${String(120 + i).padStart(4, '0')}` },
    BillAddr: {
      Id: String(200 + i),
      Line1: `${400 + i * 17} Commerce Way`,
      City: 'San Francisco',
      CountrySubDivisionCode: 'CA',
      PostalCode: '94105',
    },
    ...(accountNumber ? { AcctNum: accountNumber } : {}),
    Vendor1099: is1099,
    TermRef: { value: termId },
    Active: true,
    Balance: 0,
    CurrencyRef: USD,
  }));
}

// ---- services, staff and small lists --------------------------------------------------------------------------------

// [name, unit price, income account id, description]
const ITEMS: Array<[string, number, string, string]> = [
  // the firm's rates (a partner's line is billed at that partner's own rate)
  ['Partner Time', firmPerson('partner').rate, ACCT.legalFees, 'Legal services, partner (per hour)'],
  ['Associate Time', firmPerson('associate').rate, ACCT.legalFees, 'Legal services, associate (per hour)'],
  ['Paralegal Time', firmPerson('paralegal').rate, ACCT.legalFees, 'Paralegal services (per hour)'],
  ['Estate Plan Package', 2400, ACCT.flatFees, 'Will, revocable trust, powers of attorney'],
  ['LLC Formation', 1500, ACCT.flatFees, 'Entity formation and operating agreement'],
  ['Initial Consultation', 250, ACCT.legalFees, 'One-hour initial consultation'],
  ['Filing Fee Reimbursement', 435, ACCT.reimbursed, 'Court filing fees advanced for the client'],
  ['Document Copies', 0.25, ACCT.reimbursed, 'Copies and binding (per page)'],
];

export const ITEM = {
  partner: '1',
  associate: '2',
  paralegal: '3',
  estate: '4',
  llc: '5',
  consult: '6',
  filing: '7',
  copies: '8',
} as const;

function items(): Json[] {
  return ITEMS.map(([name, price, income, description], i) => ({
    ...base(String(i + 1), CREATED, 12),
    Name: name,
    FullyQualifiedName: name,
    Description: description,
    Active: true,
    SubItem: false,
    Level: 0,
    Type: i === 7 ? 'NonInventory' : 'Service',
    UnitPrice: price,
    Taxable: i === 7,
    TrackQtyOnHand: false,
    IncomeAccountRef: refTo({ Id: income, Name: accountName(income) }),
    ...(i === 6 ? { ExpenseAccountRef: refTo({ Id: ACCT.caseCosts, Name: 'Case Costs' }) } : {}),
  }));
}

// The firm's staff on the payroll (the partners are owners): [role, cost rate]
const EMPLOYEES: Array<[FirmPerson['role'], number]> = [
  ['associate', 95],
  ['paralegal', 38],
  ['intake', 32],
  ['bookkeeper', 34],
];
/** [given, family, title, cost rate, bill rate (the firm's rate; 0: not a timekeeper)] */
const staff = (): Array<[string, string, string, number, number]> => [
  ...EMPLOYEES.map(([role, cost]): [string, string, string, number, number] => {
    const p = firmPerson(role);
    return [p.first, p.last, p.title, cost, p.rate];
  }),
  ['Elliot', 'Marsh', 'Contract Attorney', 90, 0],
];

function employees(): Json[] {
  return staff().map(([given, family, title, cost, rate], i) => ({
    ...base(String(i + 1), CREATED, 13),
    GivenName: given,
    FamilyName: family,
    DisplayName: `${given} ${family}`,
    PrintOnCheckName: `${given} ${family}`,
    Title: title,
    PrimaryEmailAddr: { Address: `${given.toLowerCase()}@${FIRM.domain}` },
    EmployeeNumber: `E-${101 + i}`,
    HiredDate: `20${19 + i}-0${1 + i}-15`,
    BillableTime: rate > 0,
    ...(rate > 0 ? { BillRate: rate } : {}),
    CostRate: cost,
    Active: true,
  }));
}

const named = (names: string[], hour: number, extra: (name: string, i: number) => Json = () => ({})): Json[] =>
  names.map((name, i) => ({ ...base(String(i + 1), CREATED, hour), Name: name, Active: true, ...extra(name, i) }));

/** Every name list, keyed by entity. */
export function nameLists(): Pick<
  Entities,
  | 'Account'
  | 'Customer'
  | 'Vendor'
  | 'Item'
  | 'Employee'
  | 'Class'
  | 'Department'
  | 'Term'
  | 'PaymentMethod'
  | 'CustomerType'
  | 'TaxAgency'
  | 'TaxRate'
  | 'TaxCode'
  | 'CompanyCurrency'
  | 'ExchangeRate'
  | 'JournalCode'
> {
  return {
    Account: accounts(),
    Customer: customers(),
    Vendor: vendors(),
    Item: items(),
    Employee: employees(),
    Class: named(['Litigation', 'Corporate', 'Estate Planning'], 14, (name) => ({ FullyQualifiedName: name, SubClass: false })),
    Department: named(['Downtown Office', 'Oakland Office'], 14, (name) => ({ FullyQualifiedName: name, SubDepartment: false })),
    Term: named(['Due on receipt', 'Net 15', 'Net 30'], 15, (_, i) => ({ Type: 'STANDARD', DueDays: [0, 15, 30][i] })),
    PaymentMethod: named(['Cash', 'Check', 'Credit Card', 'ACH'], 15, (_, i) => ({ Type: i === 2 ? 'CREDIT_CARD' : 'NON_CREDIT_CARD' })),
    CustomerType: named(['Individual', 'Business', 'Nonprofit'], 15),
    TaxAgency: [
      {
        ...base('1', CREATED, 16),
        DisplayName: 'California Department of Tax and Fee Administration',
        TaxTrackedOnSales: true,
        TaxTrackedOnPurchases: false,
        TaxRegistrationNumber: '102-345678',
      },
    ],
    TaxRate: named(['California', 'San Francisco County District'], 16, (_, i) => ({
      RateValue: [6, 2.625][i],
      AgencyRef: { value: '1' },
      SpecialTaxType: 'NONE',
      DisplayType: 'ReadOnly',
      Description: 'Sales tax',
    })),
    TaxCode: named(['San Francisco County'], 16, () => ({
      Description: 'San Francisco County sales tax',
      Taxable: true,
      TaxGroup: true,
      SalesTaxRateList: {
        TaxRateDetail: [
          { TaxRateRef: { value: '1', name: 'California' }, TaxTypeApplicable: 'TaxOnAmount', TaxOrder: 0 },
          { TaxRateRef: { value: '2', name: 'San Francisco County District' }, TaxTypeApplicable: 'TaxOnAmount', TaxOrder: 0 },
        ],
      },
      PurchaseTaxRateList: { TaxRateDetail: [] },
    })),
    CompanyCurrency: [
      { ...base('1', CREATED, 17), Code: 'CAD', Name: 'Canadian Dollar', Active: true },
      { ...base('2', CREATED, 17), Code: 'EUR', Name: 'Euro', Active: true },
      { ...base('3', CREATED, 17), Code: 'MXN', Name: 'Mexican Peso', Active: false },
    ],
    ExchangeRate: [
      ['CAD', 0.7312, '2025-06-30'],
      ['EUR', 1.1715, '2025-06-30'],
      ['MXN', 0.0531, '2025-06-30'],
      ['CAD', 0.7264, '2025-03-31'],
      ['EUR', 1.0813, '2025-03-31'],
    ].map(([code, rate, asOf], i) => ({
      Id: String(i + 1),
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      SourceCurrencyCode: code,
      TargetCurrencyCode: 'USD',
      Rate: rate,
      AsOfDate: asOf,
      MetaData: { LastUpdatedTime: zonedTimestamp(String(asOf), '00:00') },
    })),
    JournalCode: named(['Sales', 'Purchases', 'Bank', 'General'], 17, (name) => ({
      Type: name === 'General' ? 'Others' : name,
      Description: `${name} journal`,
    })),
  };
}

export const SANDBOX_COMPANY_NAME = FIRM.name;
