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
    // Notion is the firm's wiki: no other application a firm connects is one.
    'wiki',
    'kanban',
    // Notion's help pages: a database's entries are its rows (no other application a firm connects has rows); "in a
    // row" is no row of a database.
    'new row',
    'the row',
    'this row',
    'that row',
    'the * row',
    'the * * row',
    'row for',
    'row from',
    'rows where',
    'rows of',
    // Notion's help pages: properties hold relations, rollups and formulas.
    'rollup',
    'relation property',
  ],
  kinds: ['wiki', 'knowledge', 'handbook'],
  // "the holiday schedule page", "the cases database": the words before the noun are its name.
  named: ['page', 'database', 'wiki'],
  synonyms: {
    item: ['product', 'service', 'charge'],
    page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge', 'subpage', 'entry', 'entries'],
    block: [
      // A page's body (its text) is its blocks.
      'body',
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
    // Notion's help pages: a database is shown as a table, a board (kanban), a list or a tracker.
    database: ['table', 'db', 'tracker', 'board', 'kanban'],
    // Notion's help pages: a formula is a kind of property (relations and rollups are named in the operations' texts).
    property: ['column', 'value', 'field', 'assignee', 'formula'],
    // Notion's help pages: the sidebar lists the pages of a workspace, found through search.
    search: ['sidebar'],
    // Notion's help pages: a deleted page goes to the trash, and comes back from it.
    archive: ['trash', 'trashed', 'restore', 'recover', 'undelete'],
    query: ['filter', 'filtered', 'sorted'],
    stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
  },
  phrases: {
    'knowledge base': 'page search',
    // Notion's help pages: comments on a page gather in discussions, a comment thread each.
    '(comment|discussion) threads?': 'comment',
    '(titled|by title|title contains)': 'search title',
    // "find the page called Office procedures": a page looked for by its title.
    '(find|search|look for|locate|where is) ([a-z-]+ ){0,3}(page|database|doc)s? (called|named|name)': 'search title',
    // Notion's help pages: content is added at the end of a page.
    '(to|at|on) the (bottom|end) of (the |a |this |that |our |my )?([a-z0-9/-]+ ){0,3}(page|doc|document|faq|wiki|handbook|checklist|notes)s?':
      'append block children',
    '(which|what) integration': 'me bot',
    'to-do': 'block',
    // A new column, or a new option of a select or status column, changes the database's schema.
    '(add|new) (a |an )?(new )?([a-z-]+ ){0,2}(property|column|field) to': 'update database column',
    '(add|new) (a |an )?(new )?("?[a-z-]+"? ){0,2}options? (to|in|on|for) (the|a|this|that|our)': 'update database column',
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
    // "where did the page go", "I can't find the page": a page missing from the sidebar is looked for.
    '(where (did|has|have)|(ca|can|could) not find|cannot find) (the |a |an |that |this |our |my )?("?[a-z0-9-]+"? ){0,4}(page|doc|database|wiki|note)s?\\b':
      'search',
    // "is there anything in the wiki about…", "what does our handbook say about…": the wiki's pages are searched.
    '(in|on|through) (the |our |a )?(wiki|handbook|knowledge base)\\b': 'search page',
    // A page's name is its title ("rename the page", "the page's name").
    '(page|database|doc|document) (name|title)|(name|title) of (the |a |this |that |our )?([a-z-]+ ){0,3}(page|database|doc)': 'page title',
    // Notion's help pages: a select or status option is renamed, added or removed in the database's properties.
    '(rename|recolor|add|remove|delete) (the |a |an |this |that )?("?[a-z-]+"? ){1,3}(status|select|multi-select|tag) option|(rename|recolor) (the |a |an |this |that )?("?[a-z-]+"? ){1,2}(status|option|select)\\b':
      'update database property',
    // "the Related Cases relation on the memo", "the rollup on the matter page": one property of a page, its complete value.
    '(relation|rollup|formula)s? (on|of|in|for) (the|a|this|that|our)\\b': 'page property',
    // "intakes from the Referrals table", "cases on the litigation board": what is in a database is its rows, queried.
    '(from|in|on) (the|our|a|this|that) ([a-z-]+ ){0,3}(table|board|db|database)\\b': 'query database',
    // Notion's help pages: notes written under a heading of a page (meeting notes, an agenda) are appended to it.
    '(under|below|beneath) (the |a |this |that |our |my |today |yesterday )?([a-z-]+ ){0,3}(notes|agenda|minutes|heading|section|checklist)\\b':
      'append block children',
    '(pages?|databases?) (can |does |do )?(the |our |this |my )?(integration|connection) (see|access|reach)': 'search shared',
  },
});
