import { defineFind } from './kit/find.js';

// Multicurrency: the currencies a company uses besides its home currency, and their exchange rates.

export const findCompanyCurrencies = defineFind({
  name: 'find_company_currencies',
  path: '/company-currencies',
  entity: 'CompanyCurrency',
  summary: 'Find the foreign currencies the company uses',
  about: 'Finds the currencies a multicurrency company uses besides its home currency, with Code, Name and Active.',
  where: 'Active = true',
});

export const findExchangeRates = defineFind({
  name: 'find_exchange_rates',
  path: '/exchange-rates',
  entity: 'ExchangeRate',
  summary: 'Find currency exchange rates by date',
  about: 'Finds the exchange rates of a multicurrency company, with SourceCurrencyCode, TargetCurrencyCode, Rate and AsOfDate.',
  where: "SourceCurrencyCode = 'EUR' AND AsOfDate = '2025-06-30'",
});
