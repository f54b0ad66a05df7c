import { defineVocabulary } from '@portico/core/plugin';

/** Notion's words, as people at a firm use them: what search_methods reads a query with. */
export const notionVocabulary = defineVocabulary({
  names: ['Notion'],
  cues: ['workspace page', 'wiki page', 'notion page', 'database row', 'content block'],
  kinds: ['wiki', 'knowledge', 'handbook'],
  synonyms: {
    item: ['product', 'service', 'charge'],
    page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge'],
    block: ['paragraph', 'line', 'content', 'text', 'bullet', 'heading', 'typo', 'written', 'bottom', 'end', 'checkbox', 'subpage'],
    database: ['table', 'db', 'tracker'],
    property: ['column', 'value'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
  },
  phrases: {
    'knowledge base': 'page search',
    'open rate': 'stat',
  },
});
