import { defineVocabulary } from '@portico/core';

/** Notion's words, as people at a firm use them: what search_methods reads a query with. */
export const notionVocabulary = defineVocabulary({
  names: ['Notion'],
  cues: ['workspace page', 'wiki page', 'notion page', 'database row', 'content block'],
  kinds: ['wiki', 'knowledge', 'handbook'],
});
