import type { Lexicon } from './search-lexicon.js';
import { existingRecords, isPlural, recordNames } from './search-records.js';
import { type Action, type Asked, CHANGE_STEMS, VERBS } from './search-verbs.js';
import { STOP } from './search-vocabulary.js';
import { normalize, stem, words } from './search-words.js';

export type { Action, Asked } from './search-verbs.js';
export { VERB_WORDS } from './search-verbs.js';

/** "got moved", "gets pushed": a change said of a record. */
const GETTING = new Set(['got', 'gets', 'getting']);
/** "matters that are closing", "the ones which got closed": a relative clause describes records, it asks nothing. */
const RELATIVE = new Set(['that', 'which', 'who']);
/** The verbs that say only the action, as stems: "created" and "added" in a question are filters, not topics. */
const GENERIC_STEMS = new Set(
  'show list find see look get retrieve fetch display browse add create make update change modify edit delete remove erase'
    .split(' ')
    .map(stem),
);

/**
 * Verbs that ask to act without saying how ("set a reminder", "set the status", "run a report"): a wish to write,
 * create or change. Those that may name the operation itself ("run a report") stay terms.
 */
const NEUTRAL_VERBS = new Set(['set', 'run', 'handle', 'do']);
const NEUTRAL_TERMS = new Set(['run']);
/** Verbs after "who" that ask about people themselves ("who is in our Slack", "who am I", "who works here"). */
const BEING = new Set('is are am was were works work has have uses use'.split(' '));
/**
 * Words before "to" that make the next verb a request ("need to log"); after a noun it qualifies ("matters ready to
 * bill"). What a person called or wrote to ask for is the request too ("Jamal called to cancel his consult").
 */
const WISH = new Set('need needs want wants like how going have has able wish please time called asked emailed wrote texted'.split(' '));
/** Verbs that make one record out of another ("turn the call into a lead", "convert the inquiry into a matter"). */
const TRANSFORMING = new Set(['turn', 'convert', 'make']);
/** Words that ask about several records without a plural ("all", "every", "call history", "the call log", "the member directory"). */
const SEVERAL = new Set(['all', 'every', 'history', 'log', 'inbox', 'feed', 'directory']);
/** Words that stand for others ("who" for users) but say nothing themselves: the texts' "who" is no topic. */
const EXPAND_ONLY = new Set(['who', 'everyon']);
/** In a question, the pronouns after which a verb is still a request ("how do I add", "can you add"). */
const ASKER = new Set(['i', 'we', 'you']);
const MODAL = new Set('can could would will should shall please do how let need want'.split(' '));

/** Words after which the rest of a clause qualifies its head ("time entries on a matter", "invoices for a client"). */
const QUALIFYING = new Set(
  'about for on in with from at regarding under into against across inside including before after like such to'.split(' '),
);
const QUALIFIER_WEIGHT = 0.7;
/** How much a word of a record's name counts ("billing" of "the billing channel", a title in quotes). */
const NAME_WEIGHT = 0.3;
/** The most words a record's name before its noun has ("the holiday schedule page"). */
const NAME_WORDS = 3;
const NEGATED_WEIGHT = 0.3;
/** How much a word naming a service's kind ("in the books", "the CRM", "in chat") counts as a topic word too. */
const KIND_WEIGHT = 0.3;

/** Question words that may ask about a kind of record ("which templates can we use"). */
const THING_QUESTION = new Set(['what', 'which', 'whose']);
/** Words that open a noun phrase: a word before them at a clause's head is a verb. */
const DETERMINERS = new Set('the a an this that these those my our his her their its every each'.split(' '));

/** People a verb at a clause's head acts on ("message someone directly", "remind them"): the word before is a verb. */
const PEOPLE = new Set('someone somebody everyone everybody anyone them him'.split(' '));

/** Verbs that open one record ("open the Smith file", "pull up the lead"). */
const OPENING = new Set(['open', 'pull', 'view']);

/** Words that open a question: what follows asks to read. */
const QUESTION = new Set('who what which when where how is are was were do does did any has have whose'.split(' '));
/** Words after which a verb is a request ("can you add", "I need to log", "let me see"). */
const BEFORE_VERB = new Set('please to you i we me just also then and let lets quickly now'.split(' '));
/** Words that point at one record ("this invoice", "details of the call"). */
const ONE = new Set('one this that single details detail specific particular'.split(' '));
/** Periods after "this" or "that": a date filter, not one record. */
const PERIOD = new Set('week month year quarter morning afternoon evening weekend time'.split(' '));
/** Of those, the words that say one record whatever else is plural ("one user's details", "all details of the contact"). */
const SINGLE = new Set('one single details detail specific particular'.split(' '));
/** Operation verbs that read many records; the other reading verbs (get, lookup) read one. */
const MANY_VERBS = new Set(['list', 'find', 'search', 'query', 'summarize', 'report', 'read']);

export const OPERATION_ACTIONS: Record<string, Action> = {
  list: 'read',
  get: 'read',
  find: 'read',
  search: 'read',
  query: 'read',
  read: 'read',
  lookup: 'read',
  summarize: 'read',
  report: 'read',
  preview: 'read',
  download: 'read',
  create: 'create',
  add: 'create',
  append: 'create',
  attach: 'create',
  upload: 'create',
  send: 'create',
  start: 'create',
  copy: 'create',
  invite: 'create',
  generate: 'create',
  update: 'update',
  archive: 'update',
  change: 'read', // change_data_capture lists changes
  delete: 'delete',
  remove: 'delete',
  detach: 'delete',
  stop: 'delete',
  cancel: 'delete',
};

/** The verbs of operation names that say only the action: a query word matching them is not a topic word. */
export const GENERIC_OPERATION_VERBS = new Set(['list', 'get', 'find', 'create', 'update', 'delete', 'add', 'remove', 'retrieve']);

/** What an operation does and whether it reads one record or many, from its name ("list_bills", "get_bill"). */
export function operationIntent(name: string): { action: Action | undefined; many: boolean } {
  const parts = name.split('_');
  const verb = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  const plural = last.length > 3 && last.endsWith('s') && !last.endsWith('ss');
  return { action: OPERATION_ACTIONS[verb], many: MANY_VERBS.has(verb) || plural };
}

export interface QueryReading {
  /** term → weight: the query's own words 1, the words they stand for less. */
  terms: Map<string, number>;
  action: Asked | undefined;
  /** true: asks about several records; false: about one; undefined: cannot tell. */
  many: boolean | undefined;
  /** The query's own words, stemmed, even those read as another word ("wiki" as page): a service's name. */
  words: Set<string>;
  /** Its words as written, lowercase, not stemmed ("books", "tracking"): a service's kind. */
  tokens: Set<string>;
  /** The keys a lookup may find a record by that the query gives a value of, stemmed: "email" for ann@firm.com. */
  keys: Set<string>;
  /** Asks to create a record outright ("create a channel", "make a new page"), not to invite, send or upload. */
  creates: boolean;
  /** Stems of the records a query adds something to ("add a row to the tracker database"): they exist already. */
  existing: Set<string>;
}

/** The words that ask for a record to be made, nothing else. */
const MAKING = new Set(['create', 'make']);
const SYNONYM_WEIGHT = 0.7;
/** How much "find" counts as "search" when the query gives no key to look a record up by. */
const FINDING_WEIGHT = 0.5;
/** How much a word standing for another word of the query ("phone" in "phone call") still counts as itself. */
const QUALIFIED_OWN = 0.3;
const OWN_WORD_FACTOR = 0.6;

/**
 * Reads a query: its action, whether it is about one record or several, and its terms. A word standing for another
 * word of the same query only qualifies it: in "phone call" or "text message" it counts as that word ("call",
 * "message"), not as a term of its own that would find other things (an operation on phone numbers).
 *
 * Synonyms are read in the query only. The operations' texts keep their own words: were they expanded too, every
 * text using an alternative would count as using the word it may stand for (Slack's upload_file as an operation on
 * a "matter", Clio's trust requests as "bank" operations), and the more services share the index, the less a word
 * would tell them apart.
 */
export function readQuery(
  text: string,
  lexicon: Lexicon,
  brands: ReadonlySet<string> = new Set(),
  appWords: ReadonlySet<string> = new Set(),
  kindWords: ReadonlySet<string> = new Set(),
  headWords: ReadonlySet<string> = new Set(),
): QueryReading {
  const normalized = normalize(text);
  const nameWords = recordNames(text);
  // A dash between spaces breaks a clause as a comma does ("she is co-counsel now - update her role").
  // "in Clio make a folder", "on Slack tell the team": the application named first, with or without a comma, is a
  // clause of its own, and the verb after it heads the request.
  const clauses = normalized.split(/[,.;:!?]|\s[-–—]\s|\bthen\b/).flatMap((clause) => {
    const named = /^\s*((?:in|on|using|via|through|inside|within|from) ([a-z0-9]+))\s+(\S.*)$/.exec(clause);
    return named && brands.has(stem(named[2] as string)) ? [named[1] as string, named[3] as string] : [clause];
  });
  let action: Asked | undefined;
  const actionWords = new Set<string>();
  const raw: Array<{ token: string; weight: number }> = [];
  const seen = new Set<string>();
  let question = false;
  let plural = false;
  let one = false;
  let newOne = false;
  let single = false;
  // "call tracking", "team chat": a word of a service's kind, or of the phrase naming it, says which service.
  const isKind = (token: string, next: string | undefined) =>
    kindWords.has(token) || (headWords.has(token) && next !== undefined && kindWords.has(next) && headWords.has(next));
  const capitalised = new Set([...text.matchAll(/(?<=\S\s+)[A-Z][a-z]+/g)].map(([word]) => word.toLowerCase()));
  // "message Tom Becker", "email Sarah": a word of the operations' names before a person's name is a verb; a name
  // before a name ("Beatrice Laurent called") or an application's ("latest Slack messages") is none.
  const beforeName = (token: string, next: string | undefined) =>
    next !== undefined && capitalised.has(next) && !brands.has(stem(next)) && appWords.has(stem(token));
  for (const clause of clauses) {
    const tokens = clause.split(/[^a-z0-9-]+/).filter(Boolean);
    let weight = 1;
    const start = raw.length;
    // "turn this phone call into a new lead": what it becomes is the head, what it was qualifies it.
    const becomes = TRANSFORMING.has(tokens[0] ?? '') && tokens.includes('into');
    /** The word read from each token, if any. */
    const readAt: Array<{ token: string; weight: number } | undefined> = [];
    tokens.forEach((token, i) => {
      if (becomes && token === 'into') {
        for (const word of raw.slice(start)) word.weight *= QUALIFIER_WEIGHT;
        weight = 1;
        return;
      }
      if (QUALIFYING.has(token) && raw.length > 0) weight = QUALIFIER_WEIGHT;
      const previous = tokens[i - 1];
      seen.add(token);
      if (i === 0 && raw.length === 0 && QUESTION.has(token)) question = true;
      const verb = VERBS[token] ?? undoing(token);
      if (NEUTRAL_VERBS.has(token) && i === 0 && !question) {
        if (action === undefined) action = 'write';
        if (!NEUTRAL_TERMS.has(token)) return;
      }
      // A word of no list at a clause's head, before an article, a possessive or a person, is a verb: "email the
      // report", "apply the rules", "message someone" ask to act. A plural there is a noun ("calls the firm missed").
      if (
        verb === undefined &&
        i === 0 &&
        !question &&
        action === undefined &&
        (DETERMINERS.has(tokens[1] ?? '') || PEOPLE.has(tokens[1] ?? '') || beforeName(token, tokens[1]))
      )
        if (!isPlural(token) && !STOP.has(token) && !QUALIFYING.has(token)) action = 'write';
      // In a question ("what webhooks are set up to notify…"), a verb asks to act only after its asker ("how do I add").
      // "I", "we" and "you" ask only at a clause's head or after a modal ("can you add", "how do I log"), not in a
      // relative clause ("case types we take").
      const asker = previous !== undefined && ASKER.has(previous) && (i < 2 || MODAL.has(tokens[i - 2] ?? ''));
      // "What expense types can we record": a question about a kind of record asks what exists, whatever its verb.
      const aboutThing = question && THING_QUESTION.has(tokens[0] ?? '') && !QUESTION.has(tokens[1] ?? '') && !MODAL.has(tokens[1] ?? '');
      const requested = question
        ? asker && !aboutThing
        : previous !== undefined &&
          (asker ||
            (!ASKER.has(previous) && BEFORE_VERB.has(previous) && (previous !== 'to' || i < 2 || WISH.has(tokens[i - 2] ?? ''))) ||
            // "quickly add", "can you just quickly log": an adverb before a verb at a clause's head; "which clients
            // actually make" describes records.
            (previous.endsWith('ly') && (i < 2 || BEFORE_VERB.has(tokens[i - 2] ?? '') || MODAL.has(tokens[i - 2] ?? ''))));
      // "the closing is moving to 3:30", "the deposition got pushed": a record said to be changing is one to change.
      if (verb === undefined && action === undefined && !question && previous !== undefined && !RELATIVE.has(tokens[i - 2] ?? '')) {
        const changed =
          ((previous === 'is' || previous === 'are') && token.endsWith('ing')) || (GETTING.has(previous) && token.endsWith('ed'));
        const change = changed ? CHANGE_STEMS().get(stem(token)) : undefined;
        if (change) action = change;
      }
      if (verb && action === undefined && ((i === 0 && !question) || requested)) {
        action = verb[0];
        if (OPENING.has(token)) one = true;
        if (verb[1] || token === 'take') {
          actionWords.add(token);
          return;
        }
      }
      // "this week", "that morning" is when, not which record.
      // "this invoice" asks about one record; "line items on this invoice", "the timeline of this lead" about several.
      if (((ONE.has(token) && !PERIOD.has(tokens[i + 1] ?? '')) || /^\d/.test(token)) && (weight === 1 || SINGLE.has(token))) one = true;
      if (token === 'new' && tokens[i + 1] && !isPlural(tokens[i + 1] ?? '')) newOne = true;
      // A brand ("Lawmatics") or a name ("the Hendersons") ending in s is no plural.
      if (!STOP.has(token) && isPlural(token) && !ONE.has(token) && !brands.has(stem(token)) && !capitalised.has(token)) plural = true;
      if (SINGLE.has(token)) single = true;
      if (SEVERAL.has(token)) plural = true;
      // "who called", "who receives the summary": the question is about what was done, not about the users.
      // "who on the team", "who in the firm" ask about the people.
      const next = tokens[i + 1];
      if (token === 'who' && next !== undefined && !BEING.has(next) && !QUALIFYING.has(next)) return;
      // A service's kind ("in the books", "the CRM") says which service, not what the operation is about.
      if (!GENERIC_STEMS.has(stem(token)) && token !== 'new') {
        const read = {
          token,
          weight: isKind(token, tokens[i + 1]) ? weight * KIND_WEIGHT : participle(tokens, i) ? weight * QUALIFIER_WEIGHT : weight,
        };
        if (nameWords.has(token)) read.weight *= NAME_WEIGHT;
        raw.push(read);
        readAt[i] = read;
      }
    });
    // "the billing channel", "the holiday schedule page": the words between the article and the noun name one record.
    tokens.forEach((token, i) => {
      if (!lexicon.named.has(token)) return;
      const article = tokens.slice(Math.max(0, i - NAME_WORDS - 1), i).findLastIndex((word) => DETERMINERS.has(word));
      if (article < 0) return;
      const from = Math.max(0, i - NAME_WORDS - 1) + article + 1;
      for (let j = from; j < i; j++) {
        const read = readAt[j];
        if (read && !lexicon.named.has(read.token)) read.weight *= NAME_WEIGHT;
      }
    });
  }
  // "get an address", "get a contact type": getting a record named in the singular gets one.
  if (/^(?:please )?get (?:a|an|one) /.test(normalized.trim())) one = true;
  // "open a new matter", "a new matter for a client": a new record asked for by itself is one to create.
  if (newOne && (action === undefined || action === 'read') && !question) action = 'create';
  if (action === undefined) action = 'read';
  // "non-billable time": a word after "non-" is a filter of the head, not what is asked for.
  const given = raw.flatMap(({ token, weight }) =>
    token
      .split('-')
      .filter((word) => word && !STOP.has(word))
      .map((word) => ({ term: stem(word), weight: token.startsWith('non-') ? weight * NEGATED_WEIGHT : weight })),
  );
  const implied: string[] = [];
  /** A phrase counts as much as its words do where they stand: "opposing counsel" in a qualifier counts less. */
  const phraseWeight = new Map<string, number>();
  // A word of a phrase means what the phrase means: the phone of "phone number" is no phone call.
  const fixed = new Set<string>();
  for (const { phrase, adds, own } of lexicon.phrases) {
    if (!phrase.test(normalized)) continue;
    implied.push(...adds);
    const at = Math.max(0, ...given.filter(({ term }) => own.includes(term)).map(({ weight }) => weight));
    for (const term of adds) phraseWeight.set(term, Math.max(phraseWeight.get(term) ?? 0, at || 1));
    for (const word of own) fixed.add(word);
  }
  // What the values in a query are: an email address, a phone number, a name ("the lead named Kevin Brooks").
  const keys = new Set<string>();
  if (/\S@\S/.test(text)) keys.add('email');
  if (/\b\d{3}[-. ]\d{3,4}\b/.test(text)) keys.add(stem('phone'));
  const names = [...text.matchAll(/(?<=\S\s+)[A-Z][a-z]+/g)].map(([word]) => stem(word.toLowerCase()));
  // A person's name of two words ("Kevin Brooks") is a value to look a record up by.
  if (names.some((name) => !brands.has(name) && !STOP.has(name))) implied.push(stem('name'));
  if (/(?<=\S\s+)[A-Z][a-z]+\s+[A-Z][a-z]+/.test(text.replace(/\b(?:in|on|from|to|at) [A-Z]\w*/g, ''))) keys.add(stem('name'));
  // "find a lead by email": the key is named.
  for (const [, key = ''] of normalized.matchAll(/\bby (?:their |its |his |her )?([a-z]+)/g)) keys.add(stem(key));
  for (const key of keys) if (key !== stem('name')) implied.push(key);
  const present = new Set([...given.map(({ term }) => term), ...implied]);
  const terms = new Map<string, number>();
  const add = (term: string, weight: number) => terms.set(term, Math.max(terms.get(term) ?? 0, weight));
  for (const term of implied) add(term, SYNONYM_WEIGHT * (phraseWeight.get(term) ?? 1));
  // Opening one record is what the operations named get_… do; "view all matters", "view the tasks" open a list.
  if (one && (single || !plural) && [...OPENING].some((verb) => actionWords.has(verb))) add('get', SYNONYM_WEIGHT);
  for (const { term: base, weight } of given) {
    const canonicals = fixed.has(base) ? [] : lexicon.canonicalsOf(base);
    const qualifies = canonicals.some((canonical) => present.has(canonical));
    if (!EXPAND_ONLY.has(base)) add(base, qualifies ? weight * QUALIFIED_OWN : weight);
    // A word the applications use themselves ("call") stands for others ("communication") only faintly.
    const own = appWords.has(base) ? OWN_WORD_FACTOR : 1;
    // Only the word it qualifies counts fully: "hourly rate" is a rate, not a time series.
    for (const canonical of canonicals) add(canonical, (present.has(canonical) ? 1 : SYNONYM_WEIGHT * own) * weight);
  }
  for (const word of actionWords) terms.delete(stem(word));
  // "find a doc", "look for the page about…": finding without a key searches (an operation named search_… or find_…).
  if (actionWords.has('find') && keys.size === 0 && !one) add('search', FINDING_WEIGHT);
  // A query of verbs alone ("list") still searches with them.
  if (terms.size === 0) for (const word of words(text)) terms.set(word, 1);
  return {
    terms,
    action,
    many: single ? false : plural ? true : one ? false : undefined,
    words: new Set(given.map(({ term }) => term)),
    tokens: seen,
    keys,
    creates: action === 'create' && (newOne || [...MAKING].some((verb) => actionWords.has(verb))),
    existing: action === 'create' ? existingRecords(normalized, lexicon) : new Set(),
  };
}

/** A past participle after a noun qualifies it: "texts exchanged", "payments received". */
function participle(tokens: string[], i: number): boolean {
  const previous = tokens[i - 1] ?? '';
  return i > 0 && (tokens[i] ?? '').endsWith('ed') && isPlural(previous) && !STOP.has(previous);
}

/** "un-react", "unflag": undoing what a verb of creation made is a deletion. */
function undoing(token: string): [Action, boolean] | undefined {
  const done = /^un-?([a-z]+)$/.exec(token)?.[1];
  return done !== undefined && VERBS[done]?.[0] === 'create' ? ['delete', false] : undefined;
}
