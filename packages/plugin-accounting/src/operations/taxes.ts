import { defineFind } from './kit/find.js';

// Sales tax: the agencies it is paid to, the tax codes and the rates they apply.

export const findTaxAgencies = defineFind({
  name: 'find_tax_agencies',
  path: '/tax-agencies',
  entity: 'TaxAgency',
  plural: 'tax agencies',
  about:
    'Searches the agencies sales tax is paid to: DisplayName, TaxTrackedOnSales, TaxTrackedOnPurchases. Their ids are what report_tax_summary takes.',
  where: "DisplayName LIKE 'California%'",
});

export const findTaxCodes = defineFind({
  name: 'find_tax_codes',
  path: '/tax-codes',
  entity: 'TaxCode',
  plural: 'tax codes',
  about: 'Searches sales tax codes: Name, Description, Taxable, TaxGroup, Active, and the rates they apply to sales and purchases.',
  where: 'Active = true',
});

export const findTaxRates = defineFind({
  name: 'find_tax_rates',
  path: '/tax-rates',
  entity: 'TaxRate',
  plural: 'tax rates',
  about: 'Searches sales tax rates: Name, RateValue (percent), AgencyRef, Active.',
  where: 'Active = true',
});
