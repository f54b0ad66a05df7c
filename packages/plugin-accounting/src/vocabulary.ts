import { defineVocabulary } from '@portico/core';

/** QuickBooks' words, as a bookkeeper uses them: what search_methods reads a query with. */
export const quickBooksVocabulary = defineVocabulary({
  names: ['QuickBooks', 'QBO', 'Quick Books', 'Intuit'],
  cues: [
    'a/r aging',
    'ar aging',
    'a/p aging',
    'ap aging',
    'profit and loss',
    'balance sheet',
    'trial balance',
    'chart of accounts',
    'general ledger',
    'vendor bill',
    'purchase order',
    'sales receipt',
    'journal entry',
    'journal entries',
  ],
  kinds: ['books', 'bookkeeping', 'bookkeeper', 'accountant', 'ledger'],
});
