import { base, type Json, USD } from './records.js';

// The seeded company's chart of accounts: what a small law firm keeps (operating, trust and reserve accounts, A/R and
// A/P, fixed assets, a credit card, trust and payroll liabilities, a loan, partners' equity, fee income and the
// costs of running a practice). CurrentBalance is filled in from the books by seed.ts.

const CREATED = '2024-12-16';

// [name, AccountType, AccountSubType, AcctNum, description]
const ACCOUNTS: Array<[string, string, string, string, string]> = [
  ['Operating Checking', 'Bank', 'Checking', '1000', 'Pacific Western Bank operating account'],
  ['Client Trust Account (IOLTA)', 'Bank', 'TrustAccounts', '1010', 'Client funds held in trust'],
  ['Money Market Savings', 'Bank', 'MoneyMarket', '1020', 'Reserve account'],
  ['Accounts Receivable (A/R)', 'Accounts Receivable', 'AccountsReceivable', '1100', 'Unpaid client invoices'],
  ['Undeposited Funds', 'Other Current Asset', 'UndepositedFunds', '1200', 'Client payments not yet deposited'],
  ['Prepaid Expenses', 'Other Current Asset', 'PrepaidExpenses', '1300', 'Prepaid insurance and subscriptions'],
  ['Furniture and Equipment', 'Fixed Asset', 'FurnitureAndFixtures', '1500', 'Office furniture, computers'],
  ['Accumulated Depreciation', 'Fixed Asset', 'AccumulatedDepreciation', '1510', 'Depreciation of furniture and equipment'],
  ['Accounts Payable (A/P)', 'Accounts Payable', 'AccountsPayable', '2000', 'Unpaid vendor bills'],
  ['Firm Credit Card', 'Credit Card', 'CreditCard', '2100', 'Amex business card'],
  ['Client Trust Liability', 'Other Current Liability', 'TrustAccountsLiabilities', '2200', 'Client funds owed back'],
  ['Payroll Liabilities', 'Other Current Liability', 'PayrollTaxPayable', '2300', 'Withheld and employer payroll taxes'],
  ['Equipment Loan', 'Long Term Liability', 'NotesPayable', '2700', 'Five-year loan for office build-out'],
  ['Opening Balance Equity', 'Equity', 'OpeningBalanceEquity', '3000', 'Opening balances'],
  ['Partner Capital', 'Equity', 'PartnersEquity', '3100', 'Capital contributed by the partners'],
  ['Retained Earnings', 'Equity', 'RetainedEarnings', '3900', 'Earnings of prior years'],
  ['Legal Fees', 'Income', 'ServiceFeeIncome', '4000', 'Hourly fees'],
  ['Flat Fee Income', 'Income', 'ServiceFeeIncome', '4100', 'Flat-fee engagements'],
  ['Reimbursed Case Costs', 'Income', 'OtherPrimaryIncome', '4200', 'Costs billed back to clients'],
  ['Interest Earned', 'Other Income', 'InterestEarned', '4900', 'Bank interest'],
  ['Case Costs', 'Cost of Goods Sold', 'OtherCostsOfServiceCos', '5000', 'Filing fees, court reporters, experts'],
  ['Rent', 'Expense', 'RentOrLeaseOfBuildings', '6000', 'Office lease'],
  ['Legal Research', 'Expense', 'DuesSubscriptions', '6100', 'Westlaw subscription'],
  ['Malpractice Insurance', 'Expense', 'Insurance', '6200', 'Professional liability insurance'],
  ['Office Supplies', 'Expense', 'OfficeGeneralAdministrativeExpenses', '6300', 'Supplies and postage'],
  ['Payroll Expenses', 'Expense', 'PayrollExpenses', '6400', 'Wages and employer taxes'],
  ['Utilities', 'Expense', 'Utilities', '6500', 'Power, internet, phones'],
  ['Travel', 'Expense', 'Travel', '6600', 'Mileage, parking, travel to hearings'],
  ['Meals', 'Expense', 'EntertainmentMeals', '6700', 'Client meals'],
  ['Bank Charges', 'Expense', 'BankCharges', '6800', 'Bank and card fees'],
  ['Depreciation', 'Other Expense', 'Depreciation', '7000', 'Depreciation expense'],
];

const CLASSIFICATION: Record<string, string> = {
  Bank: 'Asset',
  'Accounts Receivable': 'Asset',
  'Other Current Asset': 'Asset',
  'Fixed Asset': 'Asset',
  'Accounts Payable': 'Liability',
  'Credit Card': 'Liability',
  'Other Current Liability': 'Liability',
  'Long Term Liability': 'Liability',
  Equity: 'Equity',
  Income: 'Revenue',
  'Other Income': 'Revenue',
  'Cost of Goods Sold': 'Expense',
  Expense: 'Expense',
  'Other Expense': 'Expense',
};

/** Account ids by role, for the transactions and the reports. */
export const ACCT = {
  checking: '1',
  trust: '2',
  savings: '3',
  ar: '4',
  undeposited: '5',
  prepaid: '6',
  furniture: '7',
  accumulatedDepreciation: '8',
  ap: '9',
  card: '10',
  trustLiability: '11',
  payroll: '12',
  loan: '13',
  openingEquity: '14',
  capital: '15',
  retained: '16',
  legalFees: '17',
  flatFees: '18',
  reimbursed: '19',
  interest: '20',
  caseCosts: '21',
  rent: '22',
  research: '23',
  insurance: '24',
  supplies: '25',
  payrollExpense: '26',
  utilities: '27',
  travel: '28',
  meals: '29',
  bankCharges: '30',
  depreciation: '31',
} as const;

export function accounts(): Json[] {
  return ACCOUNTS.map(([name, type, subType, number, description], i) => ({
    ...base(String(i + 1), CREATED, 8),
    Name: name,
    FullyQualifiedName: name,
    AcctNum: number,
    Description: description,
    SubAccount: false,
    Active: true,
    Classification: CLASSIFICATION[type],
    AccountType: type,
    AccountSubType: subType,
    CurrentBalance: 0,
    CurrentBalanceWithSubAccounts: 0,
    CurrencyRef: USD,
  }));
}

/** The name of a seeded account by id. */
export const accountName = (id: string): string => ACCOUNTS[Number(id) - 1]?.[0] ?? id;
