import { CommaList, DateTimeString, defineOperation, FreeObject, Params, Type } from '@portico/core/plugin';
import { CDC_ENTITIES } from '../schemas.js';
import { companyGet, companyPath } from '../upstream.js';
import { defineFind } from './kit/find.js';

// The company itself: its information record and preferences (each read directly, or searched like any entity), and
// change data capture over its books.

export const getCompanyInfo = defineOperation({
  name: 'get_company_info',
  method: 'GET',
  path: '/company-info',
  summary: 'Get the connected company’s name, address and fiscal year',
  description:
    'Returns the QuickBooks company this connection reaches, which answers "which books am I connected to?": CompanyName, ' +
    'LegalName, CompanyAddr, Country, Email, WebAddr, FiscalYearStartMonth, CompanyStartDate, SupportedLanguages and NameValue ' +
    'details (industry, subscription). Its fiscal year start is what the fiscal date_macro values of the reports count from.',
  params: Params({}),
  response: Type.Object(
    { CompanyInfo: FreeObject({ description: 'The company record' }), time: Type.Optional(Type.String()) },
    { description: "QuickBooks' answer, unchanged" },
  ),
  upstream: (_params, ctx) => {
    const company = companyPath(ctx.connection);
    return companyGet(ctx.connection, ctx.settings, `/companyinfo/${company.slice(company.lastIndexOf('/') + 1)}`);
  },
  example: {},
});

export const getPreferences = defineOperation({
  name: 'get_preferences',
  method: 'GET',
  path: '/company-preferences',
  summary: 'Get the company’s QuickBooks settings (preferences)',
  description:
    'Returns the company’s settings: AccountingInfoPrefs (fiscal year, class and location tracking, book close date), ' +
    'ProductAndServicesPrefs, SalesFormsPrefs (custom fields, default terms), VendorAndPurchasesPrefs, TaxPrefs, CurrencyPrefs ' +
    '(home currency, multicurrency), ReportPrefs (default report basis Cash or Accrual) and TimeTrackingPrefs. find_preferences ' +
    'searches the same record with a query; this reads it directly.',
  params: Params({}),
  response: Type.Object(
    { Preferences: FreeObject({ description: 'The preferences record' }), time: Type.Optional(Type.String()) },
    { description: "QuickBooks' answer, unchanged" },
  ),
  upstream: (_params, ctx) => companyGet(ctx.connection, ctx.settings, '/preferences'),
  example: {},
});

export const changeDataCapture = defineOperation({
  name: 'change_data_capture',
  method: 'GET',
  path: '/cdc',
  summary: 'List what changed in the books since a date (change data capture)',
  description:
    'Lists what changed in the books recently: every record of the given entities (comma-separated, e.g. Invoice,Customer,Payment) created, changed or ' +
    'deleted since changed_since (an ISO-8601 timestamp with time zone, at most 30 days ago — QuickBooks refuses older ones). ' +
    'Deleted records come back with status "Deleted" and only their Id. QuickBooks returns at most 1000 records per entity: if ' +
    'an entity reaches 1000, ask again from a later changed_since, or use find_* with MetaData.LastUpdatedTime. Returns ' +
    "QuickBooks' CDCResponse unchanged (one QueryResponse per entity).",
  params: Params({
    entities: CommaList(CDC_ENTITIES, {
      description: 'Entities to report on, comma-separated (an array is joined).',
      examples: ['Invoice,Customer'],
    }),
    changed_since: DateTimeString({
      description: 'Only changes after this moment (ISO-8601 with time zone, within the last 30 days).',
      examples: ['2025-06-01T00:00:00Z'],
    }),
  }),
  response: Type.Object(
    {
      CDCResponse: Type.Array(FreeObject(), { description: 'One entry holding QueryResponse arrays, one per entity' }),
      time: Type.Optional(Type.String()),
    },
    { description: "QuickBooks' answer, unchanged" },
  ),
  upstream: (params, ctx) =>
    companyGet(ctx.connection, ctx.settings, '/cdc', { entities: params.entities, changedSince: params.changed_since }),
  example: { entities: 'Invoice,Customer', changed_since: '2025-06-01T00:00:00Z' },
});

export const findCompanyInfos = defineFind({
  name: 'find_company_infos',
  path: '/company-infos',
  preferred: 'get_company_info',
  entity: 'CompanyInfo',
  summary: 'Find the company information record with a query',
  about:
    'Finds the company information record (a company has exactly one) with CompanyName, LegalName, addresses, Country and FiscalYearStartMonth. get_company_info reads it directly and is simpler.',
  where: "CompanyName LIKE '%'",
});

export const findPreferences = defineFind({
  name: 'find_preferences',
  path: '/preferences',
  entity: 'Preferences',
  summary: 'Find the company preferences record with a query',
  about:
    'Finds the company preferences record (there is one), with the accounting, sales, vendor, tax, currency and report settings. get_preferences reads it directly and is simpler.',
  where: "MetaData.LastUpdatedTime >= '2025-01-01'",
});
