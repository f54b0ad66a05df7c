import { defineVocabulary } from '@portico/core';

/** Clio's words, as people at a firm use them: what search_methods reads a query with. */
export const clioVocabulary = defineVocabulary({
  names: ['Clio', 'Clio Manage'],
  cues: ['activity category', 'activity categories', 'utbms', 'trust request', 'court rule'],
});
