import { defineVocabulary } from '@portico/core';

/** CallRail's words, as people at a firm use them: what search_methods reads a query with. */
export const callRailVocabulary = defineVocabulary({
  names: ['CallRail', 'Call Rail'],
  cues: ['call tracking', 'tracking number', 'call volume', 'lead score', 'call recording'],
});
