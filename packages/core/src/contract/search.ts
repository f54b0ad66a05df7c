import type { RegisteredIntegration, RegisteredOperation } from './registry.js';
import { type Action, type Asked, GENERIC_OPERATION_VERBS, operationIntent, readQuery, VERB_WORDS } from './search-intent.js';
import { Lexicon } from './search-lexicon.js';
import { Spelling } from './search-spelling.js';
import { KEY_WORDS, PHRASAL_VERBS, SERVICE_HEAD_STOP, STOP } from './search-vocabulary.js';
import { normalize, stem, words } from './search-words.js';

export interface SearchHit {
  service: string;
  method: string;
  summary: string;
  access: string;
  score: number;
}

/** Which operations a search may return (those the caller may use, of the service asked for). */
type SearchFilter = (doc: { service: string; operation: RegisteredOperation }) => boolean;

interface Doc {
  integration: RegisteredIntegration;
  operation: RegisteredOperation;
  /** Topic terms of the operation's name (its verb left out when it says only the action): "bill" for get_bill. */
  nameTerms: Set<string>;
  /** The words of the record the operation works on, its verb left out: "database" for create_database. */
  objectTerms: string[];
  /** The verb of its name, as written: "invite" for invite_to_channel. */
  verb: string;
  /** The key a lookup operation finds its record by: "email" for find_prospect_by_email. */
  keyTerms: string[];
  action: Action | undefined;
  many: boolean;
  /** term → weighted frequency */
  weights: Map<string, number>;
  length: number;
}

/** How much a query naming a service prefers its operations: by its name ("in Clio"), by its kind ("the CRM"). */
const NAMED_SERVICE = 4;
const SERVICE_OF_KIND = 2.5;
/** How much an operation creating by a particular verb (invite, send) counts when the query asks to create outright. */
const PARTICULAR_CREATION = 0.85;
/** The words of operations on kinds of records (event types, expense categories, task templates, bill themes). */
const KIND_TERMS = new Set(words('type category template theme preset'));
/** How much an operation on a kind of record counts when the query names no kind. */
const KIND_UNASKED = 0.9;
/** How much an operation creating a record counts when the query adds something to such a record, which exists. */
const EXISTING_RECORD = 0.5;
/** How much a lookup by a key (find_contact_by_phone) counts when the query gives no such key. */
const KEY_MISSING = 0.5;
/** How much a lookup by a key counts when the query gives its value or names it ("ann@firm.com", "by email"). */
const KEY_GIVEN = 1.3;

/** Whether the query gives a lookup's key in other words: a number for a phone. */
const givesKey = (terms: ReadonlyMap<string, number>, key: string) => (KEY_WORDS[key] ?? []).some((word) => terms.has(stem(word)));

/** How much an operation doing something else than asked counts: reading when asked to write, or the reverse. */
function actionFactor(asked: Asked | undefined, does: Action | undefined): number {
  if (asked === undefined || asked === does) return 1;
  if (asked === 'write') return does === 'create' || does === 'update' ? 1 : does === 'read' ? 0.35 : 0.5;
  if (does === undefined) return 0.7;
  if (asked === 'read' || does === 'read') return 0.2;
  // Deleting is the opposite of creating; changing is near both ("remove a contact from a matter" may change it).
  if ((asked === 'delete' && does === 'create') || (asked === 'create' && does === 'delete')) return 0.3;
  return 0.5;
}

interface ServiceWords {
  /** Stemmed words naming the service ("clio", "quickbooks"): a query naming one ranks its operations first. */
  names: Set<string>;
  /** Its product words and phrases ("call tracking", "#*"), as patterns over the lowercased query. */
  cues: RegExp[];
  /** Words of its kind, as written ("accounting", "books"): a query using one prefers it. */
  kinds: Set<string>;
  /** The other words of its description's head ("call" of "call tracking"). */
  head: Set<string>;
}

/**
 * A cue as a pattern over whole words of the lowercased query; `*` is any one word ("#*" is #billing), a time of day
 * too ("the 9:40 call").
 */
function cuePattern(cue: string): RegExp {
  const source = normalize(cue.trim())
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'))
    .join('[a-z0-9][a-z0-9_-]*(?::[0-9]{2})?');
  // A cue ending in a word ends at a word's end, in the singular or the plural ("tracking numbers").
  return new RegExp(`(?<![a-z0-9])${source}${/\w$/.test(cue.trim()) ? 's?\\b' : ''}`);
}

/**
 * The words a query may use for a service: its key, its display name's brand and the names its vocabulary declares;
 * its cues; and the kind of application it is (its description's head and the kinds its vocabulary declares).
 */
function serviceWords(integration: RegisteredIntegration, lexicon: Lexicon): ServiceWords {
  const vocabulary = integration.plugin.vocabulary ?? {};
  // A service named by a common word ("files") is not named by that word in a query ("the Smith file").
  // The display name's first word is the brand ("Clio" of "Clio Manage"); the rest may be a common verb.
  const brand = integration.plugin.displayName.split(/\s+/)[0] ?? '';
  const names = new Set([...words(integration.service), ...words(brand)].filter((word) => !lexicon.isCommonWord(word)));
  // A name of one word is a word of the query ("in QuickBooks"); a name of several is read as a phrase ("Call Rail"),
  // so that none of its words ("call") names the service alone.
  const phrases: string[] = [];
  for (const name of vocabulary.names ?? []) {
    const nameWords = words(name);
    if (nameWords.length === 1 && !/\s/.test(name.trim())) names.add(nameWords[0] as string);
    else phrases.push(name);
  }
  const head = (integration.plugin.description.split(':')[0] ?? '').replace(/\([^)]*\)/g, ' ');
  // Kinds are read as written, not stemmed: "tracking" and "accounting" are kinds, "track" and "account" are not.
  const kinds = new Set<string>(vocabulary.kinds ?? []);
  // The head's other words ("call" of "call tracking") name the kind only beside it.
  const headWords = new Set<string>();
  for (const word of normalize(head).split(/[^a-z0-9]+/)) {
    if (word && !STOP.has(word) && !names.has(stem(word))) headWords.add(word);
    if (!word || STOP.has(word) || SERVICE_HEAD_STOP.has(word) || names.has(stem(word))) continue;
    kinds.add(word);
  }
  return { names, cues: [...phrases, ...(vocabulary.cues ?? [])].map(cuePattern), kinds, head: headWords };
}

/**
 * How a listing is paged says nothing about what it lists: its parameters and sentences are left out of the index, so
 * that "page" stays a word of the operations about pages (Notion's), not of every paged listing.
 */
const PAGING_PARAMS = new Set(['page', 'per_page', 'page_size', 'page_token', 'start_cursor', 'cursor', 'limit', 'offset', 'fetchAll']);
/** Words of paging, left out of the parameters and the description's details ("in one answer, with no paging"). */
const PAGING_WORDS = new Set(['pag', 'cursor']);
const PAGING_SENTENCE = /^(Paging|Paged|Pages with page)\b|\b(page_token|per_page|start_cursor|next_cursor)\b/;

/** Text of the parameters: their names, the first clause of their descriptions, their allowed values. */
function paramText(params: RegisteredOperation['definition']['params']): { names: string; details: string } {
  const properties = (params.properties ?? {}) as Record<
    string,
    { description?: string; enum?: unknown[]; anyOf?: Array<{ const?: unknown }> }
  >;
  const names: string[] = [];
  const details: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (PAGING_PARAMS.has(name)) continue;
    names.push(name);
    details.push((schema.description ?? '').split(/[.;(]/)[0] ?? '');
    for (const value of [...(schema.enum ?? []), ...(schema.anyOf ?? []).map((option) => option.const)]) {
      if (typeof value === 'string') details.push(value);
    }
  }
  return { names: names.join(' '), details: details.join(' ') };
}

/**
 * Keyword search over operations, for search_methods: BM25 over fields weighted by how much they say about the
 * operation (name first, then summary, then the description's first sentence, the rest of it and the parameters),
 * scaled by whether the operation does what the query asks (read, create, change, delete; one record or many) and by
 * the service the query names, if any. Built once per set of integrations; deterministic, no model.
 */
export class OperationIndex {
  private readonly docs: Doc[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly services = new Map<string, ServiceWords>();
  private readonly lexicon: Lexicon;
  private readonly spelling = new Spelling();
  /** "service.operation" → the operation of the same service to rank above it. */
  private readonly preferredOf = new Map<string, string>();
  private readonly brands = new Set<string>();
  private readonly kindWords = new Set<string>();
  private readonly headWords = new Set<string>();
  /** The words of the operations' names: the applications' own words. */
  private readonly nameWords = new Set<string>();

  constructor(integrations: readonly RegisteredIntegration[]) {
    this.lexicon = new Lexicon(integrations.map((integration) => integration.plugin.vocabulary ?? {}));
    for (const text of [...this.lexicon.spellings, ...VERB_WORDS(), ...STOP, ...Object.entries(PHRASAL_VERBS).flat()])
      this.spelling.add(text);
    for (const integration of integrations) {
      const { vocabulary = {}, displayName, description } = integration.plugin;
      for (const text of [integration.service, displayName, description, ...(vocabulary.names ?? []), ...(vocabulary.cues ?? [])])
        this.spelling.add(text);
      for (const kind of vocabulary.kinds ?? []) this.spelling.add(kind);
      const service = serviceWords(integration, this.lexicon);
      this.services.set(integration.service, service);
      for (const name of service.names) this.brands.add(name);
      for (const kind of service.kinds) this.kindWords.add(kind);
      for (const word of service.head) this.headWords.add(word);
    }
    // A service's brand in its own texts ("clio_payments", "Lawmatics invoice") says which service, not what topic:
    // the query's brand is read as the service named, never as a topic word of an operation.
    const topical = (text: string) => words(text).filter((term) => !this.brands.has(term));
    for (const integration of integrations) {
      for (const operation of integration.operations.values()) {
        const { definition } = operation;
        const weights = new Map<string, number>();
        let length = 0;
        // Only the short, telling fields count towards the length normalisation: a long description with many
        // parameters must not push an operation down for a query that names it.
        const add = (text: string, weight: number, counts: boolean, telling = true) => {
          for (const term of topical(text)) {
            if (!telling && PAGING_WORDS.has(term)) continue;
            weights.set(term, (weights.get(term) ?? 0) + weight);
            if (counts) length += weight;
          }
        };
        const [first = '', ...rest] = definition.description.split(/(?<=\.)\s/);
        const params = paramText(definition.params);
        // Each word of the name once: list_clio_payments_payments is about payments no more than list_payments is.
        add([...new Set(operation.name.split('_'))].join(' '), 4, true);
        add(definition.summary, 2.5, true);
        add(first, 1, false);
        add(rest.filter((sentence) => !PAGING_SENTENCE.test(sentence)).join(' '), 0.25, false, false);
        add(params.names, 0.4, false, false);
        add(params.details, 0.2, false, false);
        for (const text of [operation.name.replace(/_/g, ' '), definition.summary, definition.description, params.names, params.details])
          this.spelling.add(text);
        const nameWords = topical(operation.name);
        for (const word of nameWords) this.nameWords.add(word);
        const nameTerms = new Set(nameWords.filter((term, i) => i > 0 || !GENERIC_OPERATION_VERBS.has(term)));
        if (definition.preferred) this.preferredOf.set(`${integration.service}.${operation.name}`, definition.preferred);
        const { action, many } = operationIntent(operation.name);
        const by = operation.name.split('_').indexOf('by');
        // One word after "by" is a key (find_company_by_name); more is a grouping (summarize_calls_by_time_series).
        const key = by > 0 ? operation.name.split('_').slice(by + 1) : [];
        const keyTerms = key.length === 1 ? words(key.join(' ')) : [];
        const objectTerms = words(operation.name.split('_').slice(1).join(' '));
        const verb = operation.name.split('_')[0] ?? '';
        this.docs.push({ integration, operation, weights, length, nameTerms, objectTerms, verb, keyTerms, action, many });
        for (const term of weights.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      }
    }
    this.averageLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  /**
   * The services a query names ("in QuickBooks") or calls by a word only they use ("#billing", "call tracking"). A
   * search ranks their matching operations before any other service's; a query naming none is ranked across all.
   */
  namedServices(text: string): string[] {
    const query = this.spelling.correct(text);
    return [...this.routedServices(query, readQuery(query, this.lexicon, this.brands).words)];
  }

  private routedServices(query: string, queryWords: ReadonlySet<string>): Set<string> {
    const lowered = normalize(query);
    const routed = new Set<string>();
    for (const [service, { names, cues }] of this.services) {
      if ([...queryWords].some((term) => names.has(term)) || cues.some((cue) => cue.test(lowered))) routed.add(service);
    }
    return routed;
  }

  /**
   * Of two operations doing the same thing, the preferred one takes the better score of the two (found by the other
   * one's words too, if the caller may use it) and the other one half of it: the preferred one comes first, and the
   * other one leaves room for the next answers.
   */
  private preferDuplicates(hits: SearchHit[], filter: SearchFilter | undefined): void {
    for (const [name, preferred] of this.preferredOf) {
      const hit = hits.find((h) => `${h.service}.${h.method}` === name);
      if (!hit) continue;
      let other = hits.find((h) => h.service === hit.service && h.method === preferred);
      if (!other) {
        const doc = this.docs.find((d) => d.integration.service === hit.service && d.operation.name === preferred);
        if (!doc || (filter && !filter({ service: hit.service, operation: doc.operation }))) continue;
        other = { ...hit, method: preferred, summary: doc.operation.definition.summary, access: doc.operation.access };
        hits.push(other);
      }
      const best = Math.max(other.score, hit.score);
      other.score = best;
      hit.score = Math.round(best * 500) / 1000;
    }
  }

  search(text: string, options: { limit: number; filter?: SearchFilter }): SearchHit[] {
    // A slip of the keyboard ("shedule", "cancle") is read as the word meant.
    const query = this.spelling.correct(text);
    const reading = readQuery(query, this.lexicon, this.brands, this.nameWords, this.kindWords, this.headWords);
    // The services the query names, or calls by a word only they use: their matching operations come first.
    const routed = this.routedServices(query, reading.words);
    const named = new Map<string, number>();
    for (const [service, { kinds }] of this.services) {
      if (routed.has(service)) named.set(service, NAMED_SERVICE);
      for (const term of reading.tokens) if (kinds.has(term) && !named.has(service)) named.set(service, SERVICE_OF_KIND);
    }
    const kindAsked = [...KIND_TERMS].some((term) => reading.terms.has(term));
    const n = this.docs.length;
    const k1 = 3;
    const b = 0.5;
    const hits: SearchHit[] = [];
    for (const doc of this.docs) {
      if (options.filter && !options.filter({ service: doc.integration.service, operation: doc.operation })) continue;
      let score = 0;
      for (const [term, weight] of reading.terms) {
        const tf = doc.weights.get(term);
        if (!tf) continue;
        const df = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (weight * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / this.averageLength));
      }
      if (score <= 0) continue;
      // Name coverage: "list calls" names list_calls outright, whatever else the descriptions mention.
      let covered = 0;
      for (const term of doc.nameTerms) covered += reading.terms.get(term) ?? 0;
      score *= 1 + covered / Math.max(1, doc.nameTerms.size);
      // A lookup by a key the query does not give ("potential clients added since Monday" has no email) is no answer.
      if (doc.keyTerms.length > 0 && !doc.keyTerms.some((term) => reading.terms.has(term) || givesKey(reading.terms, term)))
        score *= KEY_MISSING;
      else if (doc.keyTerms.some((term) => reading.keys.has(term))) score *= KEY_GIVEN;
      score *= actionFactor(reading.action, doc.action);
      // "create a channel" asks for a new record: an operation creating by another verb (invite_to_channel,
      // send_message) does something more particular than asked, unless the query says that verb too.
      if (reading.creates && doc.action === 'create' && !GENERIC_OPERATION_VERBS.has(doc.verb) && !reading.terms.has(stem(doc.verb)))
        score *= PARTICULAR_CREATION;
      // "add a calendar event" asks for an entry, not for a kind of entry (create_calendar_entry_event_type).
      const kind = doc.objectTerms.at(-1);
      if (kind !== undefined && KIND_TERMS.has(kind) && !kindAsked) score *= KIND_UNASKED;
      // "add a row to the tracker database": the database exists; creating one is not what is asked.
      if (doc.action === 'create' && doc.objectTerms.length > 0 && doc.objectTerms.every((term) => reading.existing.has(term)))
        score *= EXISTING_RECORD;
      if (reading.action === 'read' && doc.action === 'read' && reading.many !== undefined && reading.many !== doc.many)
        score *= reading.many ? 0.75 : 0.6;
      score *= named.get(doc.integration.service) ?? 1;
      hits.push({
        service: doc.integration.service,
        method: doc.operation.name,
        summary: doc.operation.definition.summary,
        access: doc.operation.access,
        score: Math.round(score * 1000) / 1000,
      });
    }
    this.preferDuplicates(hits, options.filter);
    const first = (hit: SearchHit) => (routed.has(hit.service) ? 0 : 1);
    hits.sort((x, y) => first(x) - first(y) || y.score - x.score || x.service.localeCompare(y.service) || x.method.localeCompare(y.method));
    return hits.slice(0, options.limit);
  }
}
