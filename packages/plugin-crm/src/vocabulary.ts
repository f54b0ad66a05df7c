import { defineVocabulary } from '@portico/core';

/** Lawmatics' words, as an intake coordinator uses them: what search_methods reads a query with. */
export const lawmaticsVocabulary = defineVocabulary({
  names: ['Lawmatics'],
  cues: ['pnc', 'potential new client', 'intake form', 'drip campaign', 'sub status', 'sub-status'],
});
