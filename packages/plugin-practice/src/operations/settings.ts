import { defineOperation, Params, Type } from '@portico/core/plugin';
import { Bool, Fields, Text } from '../schemas.js';
import { family, fieldsNote } from './kit/rows.js';

// Settings: the firm's account-wide settings in Clio — its currencies, its billing settings (rounding, taxes) and the
// text snippets its users type.

const BILLING_FIELDS = 'id,rounding,rounded_duration,tax_rate,secondary_tax_rate,use_utbms_codes,currency';
export const getBillingSettings = defineOperation({
  name: 'get_billing_settings',
  method: 'GET',
  path: '/settings/billing',
  summary: 'Get the firm’s billing settings (time rounding, taxes, currency)',
  description:
    'Returns the firm’s billing settings (time rounding, taxes, currency, UTBMS use); with duration, rounded_duration says how a time entry of that length is rounded. ' +
    fieldsNote({ fields: BILLING_FIELDS }),
  params: Params({
    duration: Type.Optional(Type.String({ description: 'A duration such as 3h or 2:15: the answer then says how it is rounded.' })),
    fields: Type.Optional(Fields(BILLING_FIELDS)),
  }),
  upstream: (p) => {
    const query = Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined)) as Record<string, string>;
    return { method: 'GET', path: '/settings/billing.json', ...(Object.keys(query).length > 0 ? { query } : {}) };
  },
});

export const settings = family(
  [
    {
      key: 'currencies',
      path: '/currencies',
      clio: '/currencies',
      record: ['currency', 'currencies'],
      summaries: {
        list: 'List the currencies bills and rates can be in',
      },
      verbs: ['list'],
      about: 'The currencies of the account.',
      fields: 'id,code,sign',
      text: {
        list: 'Lists the currencies the account can use for bills, rates and bank accounts. Their ids go into currency_id and currency fields.',
      },
    },
    {
      key: 'text_snippets',
      path: '/settings/text_snippets',
      clio: '/settings/text_snippets',
      record: ['text_snippet', 'text_snippets'],
      summaries: {
        list: 'List text snippets (typing shortcuts that expand to text)',
        get: 'Get a text snippet (typing shortcut)',
        create: 'Add a text snippet (typing shortcut)',
        update: 'Change a text snippet (typing shortcut)',
        delete: 'Delete a text snippet (typing shortcut)',
      },
      verbs: ['list', 'get', 'create', 'update', 'delete'],
      about: 'Text snippets: abbreviations that expand to longer text as users type.',
      fields: 'id,phrase,snippet,whole_word',
      order: 'id(asc)',
      filters: {
        query: Text('Wildcard search in snippet or phrase.'),
      },
      body: {
        phrase: Text('The shortcut typed to expand the snippet.'),
        snippet: Text('The text the shortcut expands to.'),
        whole_word: Bool('Expand only when the phrase is typed as a whole word.'),
      },
      required: ['snippet', 'phrase'],
      text: {
        list: 'Lists text snippets, the abbreviations that expand to longer text as users type in Clio; query searches them.',
        get: 'Returns one text snippet with its shortcut phrase and the text it expands to; the id comes from list_text_snippets.',
        create: 'Creates a text snippet: phrase (the shortcut) and snippet (the text it expands to) are required.',
        update: 'Changes a text snippet’s shortcut or expanded text (id from list_text_snippets).',
        delete: 'Deletes a text snippet (id from list_text_snippets); the shortcut no longer expands. Answers 204 with no body.',
      },
    },
  ],
  getBillingSettings,
);
