import { definePlugin, packageVersion } from '@portico/core/plugin';
import { quickBooksEvents } from './events.js';
import { identify } from './identify.js';
import { findAccounts, findBudgets, findDeposits, findJournalCodes, findJournalEntries, findTransfers } from './operations/accounts.js';
import { changeDataCapture, findCompanyInfos, findPreferences, getCompanyInfo, getPreferences } from './operations/company.js';
import { findCompanyCurrencies, findExchangeRates } from './operations/currencies.js';
import { findEmployees, findTimeActivities } from './operations/employees.js';
import { findAttachables, findClasses, findDepartments, findItems, findPaymentMethods, findTerms } from './operations/lists.js';
import { findBillPayments, findBills, findPurchaseOrders, findPurchases, findVendorCredits, findVendors } from './operations/purchases.js';
import { reportOperations } from './operations/reports.js';
import {
  findCreditMemos,
  findCustomers,
  findCustomerTypes,
  findEstimates,
  findInvoices,
  findPayments,
  findRefundReceipts,
  findSalesReceipts,
} from './operations/sales.js';
import { findTaxAgencies, findTaxCodes, findTaxRates } from './operations/taxes.js';
import { baseUrlFor, inspect, oauth2, settingsSchema, USERINFO_HOSTS } from './upstream.js';
import { quickBooksVocabulary } from './vocabulary.js';

const PLUGIN_VERSION = packageVersion(import.meta.url);

/**
 * The entity searches. The first 29 are the catalog's (its names, paths and order); the last 6 are the other entities
 * QuickBooks' query endpoint serves that bookkeeping work needs (company currencies, customer types, transfers, vendors,
 * vendor credits, exchange rates).
 */
const findOperations = [
  findAccounts,
  findAttachables,
  findBills,
  findBillPayments,
  findBudgets,
  findClasses,
  findCompanyInfos,
  findCreditMemos,
  findCustomers,
  findDepartments,
  findDeposits,
  findEmployees,
  findEstimates,
  findInvoices,
  findItems,
  findJournalCodes,
  findJournalEntries,
  findPayments,
  findPaymentMethods,
  findPreferences,
  findPurchases,
  findPurchaseOrders,
  findRefundReceipts,
  findSalesReceipts,
  findTaxAgencies,
  findTaxCodes,
  findTaxRates,
  findTerms,
  findTimeActivities,
  findCompanyCurrencies,
  findCustomerTypes,
  findTransfers,
  findVendors,
  findVendorCredits,
  findExchangeRates,
];

export const quickbooksPlugin = definePlugin({
  service: 'quickbooks',
  displayName: 'QuickBooks',
  version: PLUGIN_VERSION,
  description:
    'QuickBooks Online accounting (API v3), read-only: search customers, vendors, invoices, bills, payments, accounts and the other ' +
    "entities with QuickBooks' query filters; run the financial reports (profit and loss, balance sheet, trial balance, cash flow, " +
    'general ledger, aging, sales and expenses); read the company information and preferences; list recent changes.',
  contract: 1,
  upstream: {
    baseUrl: baseUrlFor,
    inspect,
    // identify asks Intuit's userinfo (accounts.platform.intuit.com) who connected, with the connection's token
    egressHosts: USERINFO_HOSTS,
    // Intuit's throttles per company (realm): 10 requests at once, 10 a second, 500 a minute (README, Limits).
    limits: { concurrency: 10, perSecond: 10, perMinute: 500 },
    // Intuit's idempotency key: a write repeated with the same requestid (at most 50 characters, unique per company)
    // is answered as the first and applied once. The gateway puts one on every request of a call that is not a GET.
    idempotencyKey: { query: 'requestid', maxLength: 50 },
  },
  auth: {
    token: {
      description:
        'An Intuit OAuth 2.0 access token for the QuickBooks Online Accounting scope, with the company (realm) id as a connection ' +
        'fact: portico connect quickbooks --token - --meta realmId=<company id> [--meta environment=sandbox]. Access tokens last an ' +
        'hour and a pasted one is not refreshed: prefer the OAuth connection (--oauth).',
    },
    oauth2,
  },
  settings: settingsSchema,
  operations: [...findOperations, ...reportOperations, getCompanyInfo, getPreferences, changeDataCapture],
  vocabulary: quickBooksVocabulary,
  sandbox: () => import('./sandbox/index.js'),
  identify,
  events: quickBooksEvents,
});

export default quickbooksPlugin;

export { parseWhere, selectStatement, WhereSyntaxError } from './operations/kit/where.js';
