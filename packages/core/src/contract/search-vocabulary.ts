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
  // who and what
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
  contact: ['client', 'person', 'people', 'individual', 'customer'],
  customer: ['client'],
  company: ['organization', 'organisation', 'business', 'insurer', 'insurance', 'corporation'],
  prospect: ['lead', 'inquiry', 'enquiry', 'intake', 'pnc', 'potential', 'prospective'],
  vendor: ['supplier', 'payee', 'contractor'],
  matter: ['case', 'file', 'lawsuit', 'litigation', 'suit'],
  attorney: ['lawyer', 'solicitor'],
  relationship: ['related', 'involved', 'spouse', 'witness', 'guardian', 'parent', 'opposing', 'expert', 'judge', 'co-counsel'],
  employee: ['payroll', 'salaried'],
  // time and money
  activity: ['time', 'hour', 'minute', 'expense', 'timesheet', 'timekeeping', 'cost', 'disbursement', 'unbilled'],
  rate: ['hourly', 'price', 'charge'],
  bill: ['invoice', 'billed', 'unbilled', 'owe', 'owed', 'owing'],
  invoice: ['bill', 'unpaid', 'billed'],
  balance: ['owe', 'owed', 'owing', 'outstanding', 'receivable', 'unpaid'],
  receivable: ['owe', 'owed', 'owing', 'late'],
  payable: ['supplier'],
  aged: ['aging', 'ageing', 'overdue', 'late', 'age'],
  payment: ['paid', 'pay', 'card', 'online'],
  transaction: ['ledger', 'deposit', 'withdrawal'],
  bank: ['trust', 'iolta', 'checking', 'operating'],
  sale: ['revenue', 'turnover', 'income'],
  profit: ['profitable', 'income', 'earn', 'earned'],
  expense: ['spend', 'spent', 'spending', 'cost', 'mileage', 'postage', 'courier', 'photocopy', 'photocopies'],
  purchase: ['check', 'cheque', 'card', 'expense', 'spent'],
  estimate: ['quote'],
  credit: ['refund', 'writeoff', 'discount'],
  term: ['net'],
  department: ['location', 'office'],
  class: ['group'],
  item: ['product', 'service', 'charge'],
  line: ['charge'],
  billable: ['unbilled'],
  theme: ['layout', 'design', 'logo', 'look'],
  allocation: ['allocated', 'applied', 'split'],
  setting: ['preference', 'preferences', 'configuration', 'config', 'configure', 'default', 'defaults'],
  funding: ['funder', 'funders', 'sponsor'],
  version: ['revision', 'revisions', 'previous', 'earlier'],
  request: ['replenish', 'replenishment', 'top-up'],
  sign: ['signature', 'signatures', 'signing', 'docusign', 'esignature'],
  automation: ['automate', 'automated', 'generated', 'populate', 'prefill', 'prefilled'],
  action: ['button', 'buttons'],
  visibility: ['see', 'visible', 'access', 'share', 'hide', 'hidden', 'unhide'],
  // calendar and work
  calendar: ['diary', 'schedule', 'agenda'],
  event: ['appointment', 'consultation', 'meeting', 'consult', 'booked', 'book', 'zoom'],
  time: ['hour', 'minute', 'timesheet'],
  entry: ['hearing', 'appointment', 'deposition', 'meeting', 'consultation', 'trial', 'mediation', 'court', 'date', 'timesheet'],
  task: ['todo', 'assign', 'chase', 'follow', 'followup', 'checklist', 'due'],
  template: ['checklist', 'workflow', 'standard'],
  reminder: ['remind', 'alert'],
  timer: ['stopwatch', 'timing', 'clock'],
  stop: ['pause', 'paused', 'halt'],
  docket: ['deadline'],
  trigger: ['deadline'],
  jurisdiction: ['court', 'rule'],
  stage: ['step', 'phase', 'pipeline', 'board', 'kanban'],
  status: ['stage'],
  note: ['jot', 'memo'],
  // messages and content
  channel: ['room', 'conversation'],
  call: ['phone', 'caller', 'calls', 'rang', 'voicemail', 'voicemails'],
  communication: ['email', 'emailed', 'called', 'phone', 'logged', 'correspondence'],
  conversation: ['portal', 'secure'],
  page: ['document', 'doc', 'wiki', 'handbook', 'policy', 'article', 'row', 'item', 'knowledge'],
  block: ['paragraph', 'line', 'content', 'text', 'bullet', 'heading', 'typo', 'written', 'bottom', 'end', 'checkbox', 'subpage'],
  database: ['table', 'db', 'tracker'],
  property: ['column', 'value'],
  message: ['chat', 'post', 'text', 'said', 'announcement', 'tell', 'announce'],
  file: ['upload', 'attachment', 'document', 'pdf', 'spreadsheet'],
  document: ['pdf', 'letter', 'agreement', 'retainer', 'contract', 'draft', 'report', 'brief', 'motion', 'exhibit', 'pleading'],
  archive: ['zip'],
  folder: ['directory'],
  reaction: ['emoji', 'react', 'thumb', 'reacted', 'checkmark'],
  pin: ['pinned', 'bookmark'],
  thread: ['replies', 'reply'],
  comment: ['discussion', 'remark'],
  sms: ['text', 'texting', 'texts'],
  form: ['questionnaire', 'survey'],
  submission: ['entry', 'entries', 'filled', 'submitted'],
  tracker: ['tracking', 'billboard', 'ad', 'ads'],
  recording: ['listen', 'audio', 'play'],
  notification: ['alert', 'alerted', 'unread'],
  timeseries: ['trend', 'daily', 'weekly', 'monthly', 'hourly', 'over', 'time', 'chart', 'per'],
  summarize: ['summary', 'total', 'count', 'aggregate', 'breakdown', 'statistic', 'many', 'number'],
  tag: ['flag', 'label', 'tagged'],
  source: ['marketing', 'referral', 'channel', 'funder'],
  stat: ['click', 'clicks', 'clicked', 'bounce', 'bounced', 'performance', 'metric', 'metrics'],
  campaign: ['drip', 'newsletter', 'blast', 'sequence'],
  webhook: ['notify', 'callback'],
  integration: ['connected', 'connection', 'connect', 'tool', 'tools', 'zapier'],
  log: ['audit', 'viewed', 'accessed', 'trail', 'feed'],
  snippet: ['shortcut', 'reusable', 'boilerplate'],
  me: ['am', 'myself'],
  current: ['am', 'myself'],
  change: ['changed', 'modified', 'since', 'sync'],
  capture: ['changed', 'modified', 'sync'],
  grant: ['funding', 'funded', 'grantor'],
  damage: ['damages', 'injury', 'claim', 'claiming'],
  medical: ['hospital', 'doctor', 'clinic', 'injury'],
  area: ['type'],
  type: ['category', 'kind'],
  practice: ['type', 'area'],
};

/**
 * Phrases read before single words: "time entry" is Clio's activity, "potential client" a prospect. The phrase's own
 * words still count; these add the words the applications use.
 */
export const PHRASES: Array<[string, string]> = [
  ['time entry', 'activity time'],
  ['time entries', 'activity time'],
  ['billing rate', 'activity rate'],
  ['potential client', 'prospect'],
  ['case type', 'practice area'],
  ['prospective client', 'prospect'],
  ['new client', 'prospect contact'],
  ['court date', 'calendar entry'],
  ['court rule', 'jurisdiction'],
  ['court deadline', 'docket'],
  ['trust account', 'bank account'],
  ['trust ledger', 'bank transaction'],
  ['in trust', 'bank transaction'],
  ['accounts receivable', 'receivable balance'],
  ['past due', 'overdue aged'],
  ['profit and loss', 'profit loss'],
  ['income statement', 'profit loss'],
  ['cash flow', 'cash flow'],
  ['general ledger', 'general ledger'],
  ['chart of accounts', 'account'],
  ['knowledge base', 'page search'],
  ['to do', 'task todo'],
  ['to-do', 'task todo'],
  ['follow up', 'task'],
  ['who am i', 'me current'],
  ['connected as', 'me current'],
  ['logged in', 'me current'],
  ['caller id', 'outbound caller'],
  ['tracking number', 'tracker'],
  ['phone number', 'phone number'],
  ['thumbs up', 'reaction'],
  ['client portal', 'conversation'],
  ['look like', 'preview'],
  ['not been billed', 'unbilled billable'],
  ['not billed', 'unbilled billable'],
  ['not yet billed', 'unbilled billable'],
  ['custom field', 'custom field'],
  ['text message', 'sms text message'],
  ['related contact', 'relationship'],
  ['opposing counsel', 'relationship'],
  ['line item', 'line item'],
  ['late fees?', 'interest charge'],
  ['finance charges?', 'interest charge'],
  ['credit note', 'credit memo'],
  ['write (off|down)', 'credit'],
  ['billing codes?', 'activity description utbms code'],
  ['field sets?', 'custom field set'],
  ['task lists?', 'task template list'],
  ['calendar events?', 'calendar entry'],
  ['(statements? of account|account statements?)', 'bill balance outstanding'],
  ['(my|in-app) notifications?', 'my event'],
  ['conflicts? (check|search)', 'contact matter'],
  ['open rate', 'stat'],
  ['direct messages?', 'conversation message'],
  ['how many', 'count summarize'],
  ['(did|do|does|have|has) (we|i|the firm) (make|made|earn)', 'profit income'],
  ['(per|by|each|every) (day|week|month|quarter|year)', 'timeseries'],
  ['sales tax', 'tax'],
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
  'run a conflict check': 'search for a conflict check',
  'upload a new version of': 'update the version of',
  'write off': 'credit',
  'written off': 'credited',
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
