/**
 * The words of search_methods: how the people who ask (a paralegal, a bookkeeper, an intake coordinator) say what the
 * operations' texts say in the applications' words. Generic vocabulary only: no entry names one operation.
 */

/** Words too common to tell operations apart. */
export const STOP = new Set(
  (
    'a an the of for to in on at by with and or from into my our your me i we us is are be been was were it its this that ' +
    'these those all any some how do does did can could would should please want need s t there here so as about up not ' +
    'out off has have had just also then them they their his her he she you yet still if when whose what which ' +
    'where why whom ' +
    // when, not what: dates are the filters of a call, not words that tell operations apart
    'today yesterday tomorrow last next week month year quarter morning afternoon monday tuesday wednesday thursday ' +
    'friday saturday sunday since ago recently recent currently now days weeks months years quarters ' +
    // how many, not what
    'one two three four five six seven eight nine ten twelve many much'
  ).split(' '),
);

/**
 * word of the applications → the words people use for it. Read in the query only: a query word stands for each word
 * it is listed under (see queryTerms in search-intent.ts). Verbs of intent are not here: search-intent.ts reads them.
 */
export const SYNONYMS: Record<string, string[]> = {
  user: [
    'who',
    'person',
    'people',
    'member',
    'teammate',
    'colleague',
    'employee',
    'staff',
    'lawyer',
    'attorney',
    'paralegal',
    'associate',
    'login',
    'everyone',
    'works',
  ],
  setting: ['preference', 'preferences', 'configuration', 'config', 'configure', 'default', 'defaults'],
  version: ['revision', 'revisions', 'previous', 'earlier'],
  visibility: ['see', 'visible', 'access', 'share', 'hide', 'hidden', 'unhide'],
  task: ['todo', 'assign', 'chase', 'follow', 'followup', 'checklist', 'due'],
  template: ['checklist', 'workflow', 'standard'],
  reminder: ['remind', 'alert'],
  stop: ['pause', 'paused', 'halt'],
  status: ['stage'],
  note: ['jot', 'memo'],
  file: ['upload', 'attachment', 'document', 'pdf', 'spreadsheet'],
  archive: ['zip'],
  folder: ['directory'],
  comment: ['discussion', 'remark'],
  timeseries: ['trend', 'daily', 'weekly', 'monthly', 'hourly', 'over', 'time', 'chart', 'per'],
  summarize: ['summary', 'total', 'count', 'aggregate', 'breakdown', 'statistic', 'many', 'number'],
  tag: ['flag', 'label', 'tagged'],
  webhook: ['notify', 'callback'],
  integration: ['connected', 'connection', 'connect', 'tool', 'tools', 'zapier'],
  log: ['audit', 'viewed', 'accessed', 'trail', 'feed'],
  me: ['am', 'myself'],
  current: ['am', 'myself'],
  change: ['changed', 'modified', 'since', 'sync'],
  capture: ['changed', 'modified', 'sync'],
  type: ['category', 'kind'],
};

/**
 * Phrases read before single words: "time entry" is Clio's activity, "potential client" a prospect. The phrase's own
 * words still count; these add the words the applications use.
 */
export const PHRASES: Array<[string, string]> = [
  ['to do', 'task todo'],
  ['to-do', 'task todo'],
  ['follow up', 'task'],
  ['who am i', 'me current'],
  ['connected as', 'me current'],
  ['logged in', 'me current'],
  ['phone number', 'phone number'],
  ['look like', 'preview'],
  ['custom field', 'custom field'],
  ['how many', 'count summarize'],
  ['(per|by|each|every) (day|week|month|quarter|year)', 'timeseries'],
];

/** Words of a plugin description's head that say nothing about its kind. */
export const SERVICE_HEAD_STOP = new Set([
  'api',
  'v1',
  'v2',
  'v3',
  'v4',
  'online',
  'read',
  'only',
  'legal',
  'law',
  'firm',
  'firms',
  'notes',
  'team',
  'workspace',
  'call',
  'practice',
]);

/** The words that give a lookup's key (find_contact_by_phone) in other words, by the key's stem. */
export const KEY_WORDS: Record<string, string[]> = {
  phon: ['number', 'called', 'caller'],
  email: ['address', 'domain'],
};

/** Verbs of two words, as the one word they mean. */
export const PHRASAL_VERBS: Record<string, string> = {
  'call off': 'cancel',
  'turn off': 'delete',
  'take off': 'remove',
  'take back': 'remove',
  'look up': 'find',
  'pull up': 'get',
  'set up': 'create',
  'check off': 'complete',
  'sign up': 'create',
  'get rid of': 'delete',
  'give me': 'show me',
  'give us': 'show us',
  // "send me the list", "email me the P&L", "text me the new leads": deliver what exists, a read.
  'send me the': 'show me the',
  'send us the': 'show us the',
  'email me the': 'show me the',
  'email us the': 'show us the',
  'text me the': 'show me the',
  'send me a list': 'show me a list',
  'email me a list': 'show me a list',
  'text me a list': 'show me a list',
  'send me a copy': 'show me a copy',
  'email me a copy': 'show me a copy',
  'run a conflict check': 'search for a conflict check',
  'upload a new version of': 'update the version of',
  'write off': 'credit',
  'written off': 'credited',
  // Everyday ways of asking for a change.
  'bump up': 'raise',
  'bump down': 'lower',
  'push back': 'reschedule',
  'push out': 'reschedule',
  'put off': 'reschedule',
  'move up': 'reschedule',
  'bring forward': 'reschedule',
  'tick off': 'complete',
  'cross off': 'complete',
  'sign off on': 'approve',
  'take down': 'remove',
  'clear out': 'delete',
  'wipe out': 'delete',
  'jot down': 'jot',
  'write down': 'write',
  'pencil in': 'schedule',
  'loop in': 'invite',
  'kick off': 'start',
  'track down': 'find',
  'dig up': 'find',
  'bring up': 'show',
  'fill in': 'enter',
  'hook up': 'connect',
  'look for': 'find',
  'hunt for': 'find',
  'take a look at': 'show',
  'have a look at': 'show',
  // "drop" and "take" alone ask to delete; "drop a note", "shoot a message" ask to write one.
  'drop a note': 'post a note',
  'drop a line': 'send a message',
  'drop a message': 'send a message',
  'shoot a': 'send a',
  'shoot an': 'send an',
  'make a copy of': 'duplicate',
  'throw away': 'delete',
  'throw out': 'delete',
  'put together': 'create',
  'shut down': 'close',
  'spin up': 'create',
  // "tell me who posted…" asks to be told: a read, like "show me".
  'tell me': 'show me',
  'tell us': 'show us',
  'go through': 'read',
  'look through': 'read',
  'scroll through': 'read',
};

/** Plurals that no rule of stem() in search-intent.ts makes singular. */
export const IRREGULAR = new Map([
  ['children', 'child'],
  ['criteria', 'criterion'],
  ['indices', 'index'],
  ['people', 'person'],
]);

/** British spellings as American ones, in the texts and the queries alike: colour, summarise, cancelled. */
export const BRITISH_OUR = /\b((?:re)?(?:col|fav|behavi|lab|hon|neighb))our/g;
export const BRITISH_ISE =
  /\b((?:re)?(?:summar|organ|categor|custom|item|priorit|final|author|recogn|synchron|real|util|minim|maxim|standard|normal|special|apolog|memor|optim|initial|personal|digit|amort|capital|subsid))is(e|ed|es|ing|ation|ations|er|ers)\b/g;
export const BRITISH_LL = /\b(cancel|label|travel|model|signal|total|counsel|dial|fuel|channel)l(ed|ing|er|ers|ation)\b/g;
