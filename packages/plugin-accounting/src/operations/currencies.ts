import { defineFind } from './kit/find.js';

// Multicurrency: the currencies a company uses besides its home currency, and their exchange rates.

export const findCompanyCurrencies = defineFind({
  name: 'find_company_currencies',
  path: '/company-currencies',
  entity: 'CompanyCurrency',
  plural: 'company currencies',
  about: 'Searches the currencies a multicurrency company uses besides its home currency: Code, Name, Active.',
  where: 'Active = true',
});

export const findExchangeRates = defineFind({
  name: 'find_exchange_rates',
  path: '/exchange-rates',
  entity: 'ExchangeRate',
  plural: 'exchange rates',
  about: 'Searches the exchange rates of a multicurrency company: SourceCurrencyCode, TargetCurrencyCode, Rate, AsOfDate.',
  where: "SourceCurrencyCode = 'EUR' AND AsOfDate = '2025-06-30'",
});
