import { defineVocabulary } from '@portico/core/plugin';

/** Notion's words, as people at a firm use them: what search_methods reads a query with. */
export const notionVocabulary = defineVocabulary({
  names: ['Notion'],
  cues: ['workspace page', 'wiki page', 'notion page', 'database row', 'content block'],
  kinds: ['wiki', 'knowledge', 'handbook'],
  synonyms: {
    item: ['product', 'service', 'charge'],
    page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge'],
    block: [
      'paragraph',
      'line',
      'content',
      'text',
      'bullet',
      'heading',
      'typo',
      'written',
      'bottom',
      'end',
      'checkbox',
      'subpage',
      'toggle',
      'callout',
      'todo',
      'quote',
      'divider',
      'contents',
    ],
    database: ['table', 'db', 'tracker'],
    property: ['column', 'value'],
    // Notion's help pages: a deleted page goes to the trash, and comes back from it.
    archive: ['trash', 'trashed', 'restore'],
    query: ['filter', 'filtered', 'sorted'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
  },
  phrases: {
    'knowledge base': 'page search',
    '(titled|by title|title contains)': 'search title',
    '(which|what) integration': 'me bot',
    'to-do': 'block',
    '(add|new) (a )?(new )?(property|column|field) to': 'update database column',
    'open rate': 'stat',
  },
});
