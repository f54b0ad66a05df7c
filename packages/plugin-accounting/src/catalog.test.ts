import { type CatalogDifferences, type CatalogOperation, type CatalogParam, compareWithCatalog } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { quickbooksPlugin } from './index.js';

// The Integration Operation Catalog's accounting table: the 34 operations it shows, typed as the catalog types them.
// "Search parameters (all find_* operations): where (string, SQL-like WHERE clause), limit (string, default 1000),
// offset (string, start position for paging), fetchAll (string, true fetches every page)."
// "Reports ... Parameters: start_date (string, YYYY-MM-DD), end_date (string, YYYY-MM-DD), accounting_method (Cash or
// Accrual)." The other 33 of the 67 are "not shown" and are not compared.

const str: CatalogParam = { type: 'string' };
const search = {
  where: str,
  limit: { type: 'string', default: '1000' },
  offset: str,
  fetchAll: str,
} as const;
const reportParams = {
  start_date: str,
  end_date: str,
  accounting_method: { type: 'string', enum: ['Cash', 'Accrual'] },
} as const;

const FINDS: Array<[string, string]> = [
  ['find_accounts', '/accounts'],
  ['find_attachables', '/attachables'],
  ['find_bills', '/bills'],
  ['find_bill_payments', '/bill-payments'],
  ['find_budgets', '/budgets'],
  ['find_classes', '/classes'],
  ['find_company_infos', '/company-infos'],
  ['find_credit_memos', '/credit-memos'],
  ['find_customers', '/customers'],
  ['find_departments', '/departments'],
  ['find_deposits', '/deposits'],
  ['find_employees', '/employees'],
  ['find_estimates', '/estimates'],
  ['find_invoices', '/invoices'],
  ['find_items', '/items'],
  ['find_journal_codes', '/journal-codes'],
  ['find_journal_entries', '/journal-entries'],
  ['find_payments', '/payments'],
  ['find_payment_methods', '/payment-methods'],
  ['find_preferences', '/preferences'],
  ['find_purchases', '/purchases'],
  ['find_purchase_orders', '/purchase-orders'],
  ['find_refund_receipts', '/refund-receipts'],
  ['find_sales_receipts', '/sales-receipts'],
  ['find_tax_agencies', '/tax-agencies'],
  ['find_tax_codes', '/tax-codes'],
  ['find_tax_rates', '/tax-rates'],
  ['find_terms', '/terms'],
  ['find_time_activities', '/time-activities'],
];

const REPORTS: Array<[string, string]> = [
  ['report_item_sales', '/reports/item-sales'],
  ['report_customer_income', '/reports/customer-income'],
  ['report_customer_balance', '/reports/customer-balance'],
  ['report_customer_balance_detail', '/reports/customer-balance-detail'],
  ['report_aged_receivables', '/reports/aged-receivables'],
];

const CATALOG: CatalogOperation[] = [
  ...FINDS.map(([name, path]): CatalogOperation => ({ name, method: 'GET', path, params: search })),
  ...REPORTS.map(([name, path]): CatalogOperation => ({ name, method: 'GET', path, params: reportParams })),
];

/**
 * Intended differences from the catalog, each with its reason: every find_* also takes select (QuickBooks SELECT
 * columns), so that an assistant can ask for the fields it needs rather than whole records.
 */
const DIFFERENCES: CatalogDifferences = Object.fromEntries(
  FINDS.map(([name]) => [`${name}.select:extra`, 'field selection: the columns an assistant needs, not whole records']),
);

describe('the accounting catalog', () => {
  it('shows 34 operations: 29 searches and 5 reports', () => {
    expect(CATALOG).toHaveLength(34);
  });

  it('matches the declared operations, except for the listed differences', () => {
    expect(compareWithCatalog(quickbooksPlugin, CATALOG)).toEqual(
      Object.fromEntries(Object.keys(DIFFERENCES).map((key) => [key, expect.any(String)])),
    );
  });

  it('declares the 33 the catalog counts but does not show, for 67 in all', () => {
    const shown = new Set(CATALOG.map((row) => row.name));
    expect(quickbooksPlugin.operations.filter((o) => !shown.has(o.name))).toHaveLength(33);
  });
});
