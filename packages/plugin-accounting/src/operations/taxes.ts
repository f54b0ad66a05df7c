import { defineFind } from './kit/find.js';

// Sales tax: the agencies it is paid to, the tax codes and the rates they apply.

export const findTaxAgencies = defineFind({
  name: 'find_tax_agencies',
  path: '/tax-agencies',
  entity: 'TaxAgency',
  summary: 'Find the agencies sales tax is paid to',
  about:
    'Finds tax agencies, the authorities the company pays sales tax to, with DisplayName, TaxTrackedOnSales and TaxTrackedOnPurchases. Their ids are the agency_id of report_tax_summary.',
  where: "DisplayName LIKE 'California%'",
});

export const findTaxCodes = defineFind({
  name: 'find_tax_codes',
  path: '/tax-codes',
  entity: 'TaxCode',
  summary: 'Find sales tax codes and the rates they apply',
  about: 'Finds sales tax codes with Name, Description, Taxable, TaxGroup, Active and the rates they apply to sales and purchases.',
  where: 'Active = true',
});

export const findTaxRates = defineFind({
  name: 'find_tax_rates',
  path: '/tax-rates',
  entity: 'TaxRate',
  summary: 'Find sales tax rates and their agencies',
  about: 'Finds sales tax rates with Name, RateValue (a percentage), AgencyRef and Active.',
  where: 'Active = true',
});
