import { defineVocabulary } from '@portico/core/plugin';

/** Notion's words, as people at a firm use them: what search_methods reads a query with. */
export const notionVocabulary = defineVocabulary({
  names: ['Notion'],
  // Notion's help pages: databases (db) are Notion's alone among the applications a firm connects.
  cues: [
    'database',
    'databases',
    'db',
    'workspace page',
    'wiki page',
    'notion page',
    'database row',
    'content block',
    'teamspace',
    'board view',
    'gallery view',
  ],
  kinds: ['wiki', 'knowledge', 'handbook'],
  // "the holiday schedule page", "the cases database": the words before the noun are its name.
  named: ['page', 'database', 'wiki'],
  synonyms: {
    item: ['product', 'service', 'charge'],
    page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge', 'subpage', 'entry', 'entries'],
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
      'toggle',
      'callout',
      'todo',
      'quote',
      'divider',
      'contents',
      // Notion's help pages: images, embeds and videos are blocks of a page too.
      'image',
      'picture',
      'embed',
      'video',
    ],
    database: ['table', 'db', 'tracker'],
    property: ['column', 'value', 'field', 'assignee'],
    // Notion's help pages: a deleted page goes to the trash, and comes back from it.
    archive: ['trash', 'trashed', 'restore', 'recover', 'undelete'],
    query: ['filter', 'filtered', 'sorted'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
  },
  phrases: {
    'knowledge base': 'page search',
    '(titled|by title|title contains)': 'search title',
    // "find the page called Office procedures": a page looked for by its title.
    '(find|search|look for|locate|where is) ([a-z-]+ ){0,3}(page|database|doc)s? (called|named|name)': 'search title',
    // Notion's help pages: content is added at the end of a page.
    '(to|at|on) the (bottom|end) of (the |a |this |that |our |my )?([a-z-]+ ){0,3}(page|doc|document|faq|wiki|handbook|checklist|notes)s?':
      'append block children',
    '(which|what) integration': 'me bot',
    'to-do': 'block',
    '(add|new) (a |an )?(new )?([a-z-]+ ){0,2}(property|column|field) to': 'update database column',
    // Notion's help pages: what a page says is its content (its blocks).
    '(what|whats)( is)? (written )?(on|in) (the|a|this|our) ([a-z-]+ ){0,4}(page|doc|wiki)': 'read content block children',
    '(where|whose) [a-z]+ (is|are|equals)': 'filter',
    'open rate': 'stat',
    // Notion's help pages: a deleted page goes to the trash (archived), whence it is restored.
    '(delete|remove|trash|discard) (a |the |this |that |an |our |my )?([a-z-]+ ){0,3}(sub-?)?page': 'archive page',
    '(move|send|put) (a |the |this |that |an |our |my )?([a-z-]+ ){0,3}(sub-?)?pages? to (the )?trash': 'archive page',
    // A database's select options and its properties' types are its schema.
    '(select|status|multi-select) (property )?options': 'database property',
    'options? (of|in|on) (the |a )?([a-z-]+ )?(select|status|multi-select)': 'database property',
    '(property|column) types?': 'database property',
    // Notion's help pages: a database is seen through views (table, board, calendar…), its rows as cards.
    '(board|table|calendar|gallery|timeline|list) views?': 'query database',
    'cards? (on|in|of|to) (the |a |this |our )?([a-z-]+ ){0,2}(board|kanban)': 'page database',
    '(kanban|board) (cards?|columns?)': 'page database',
    // A database's rows are shown as cards ("the Marquez intake card").
    '(the|this|that) ([a-z-]+ ){0,3}(?<!credit |contact |business |gift )cards?': 'page database',
    // "is there a page for…", "do we have a doc on…": a page looked for.
    '(is there|are there|do we have|where is|where are) (a |an |any )?(page|doc|wiki|database)s?': 'search',
    // The pages of a workspace are found through search; a page's sub-pages are blocks of its content.
    '(list|all|every|which|what) ([a-z-]+ ){0,2}pages\\b': 'search',
    '(recently (edited|updated|changed)|recent|latest|last edited) pages': 'search',
    "(page|page's) (sub-?pages|child pages|children)": 'block children',
    '(sub-?pages|child pages) (of|in|under|inside)': 'block children',
    '(pages?|databases?) (can |does |do )?(the |our |this |my )?(integration|connection) (see|access|reach)': 'search shared',
  },
});
