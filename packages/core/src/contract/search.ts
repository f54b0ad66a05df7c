import type { RegisteredIntegration, RegisteredOperation } from './registry.js';

export interface SearchHit {
  service: string;
  method: string;
  summary: string;
  access: string;
  score: number;
}

/** Words too common to tell operations apart. */
const STOP = new Set(
  'a an the of for to in on at by with and or from into my our your me i we is are be it this that these those all any some how do does can please want need'.split(
    ' ',
  ),
);

/**
 * A few equivalences a model (or a person) uses interchangeably with the words our operations use. A question
 * ("who", "what", "which") asks to read, so it stands for get and list.
 */
const SYNONYMS: Record<string, string[]> = {
  get: ['who', 'what', 'which', 'retrieve', 'fetch', 'show', 'read', 'view', 'detail', 'info', 'look', 'open'],
  list: ['who', 'what', 'which', 'all', 'browse', 'show', 'enumerate', 'every', 'exist', 'available', 'read'],
  create: ['add', 'make', 'new', 'start', 'write', 'log', 'enter', 'put', 'jot'],
  update: ['edit', 'change', 'modify', 'rename', 'set'],
  delete: ['remove', 'archive', 'trash', 'drop'],
  send: ['post', 'write', 'say', 'tell', 'notify', 'message'],
  find: ['search', 'lookup', 'look', 'query', 'locate'],
  summarize: ['summary', 'total', 'count', 'aggregate', 'report', 'breakdown', 'statistic'],
  user: ['person', 'people', 'member', 'teammate', 'colleague', 'employee', 'staff', 'lawyer', 'attorney'],
  channel: ['room', 'conversation'],
  call: ['phone', 'caller', 'calls'],
  page: ['document', 'doc', 'note'],
  database: ['table', 'db'],
  message: ['chat', 'post', 'text'],
  file: ['upload', 'attachment', 'document'],
  reaction: ['emoji', 'react'],
  pin: ['pinned', 'bookmark'],
  thread: ['replies', 'reply'],
  comment: ['discussion', 'remark'],
  sms: ['text', 'texting'],
  email: ['mail'],
  timeseries: ['trend', 'daily', 'weekly', 'monthly', 'hourly', 'over', 'time'],
  sale: ['revenue', 'turnover'],
  // A law firm's words for the records of a practice-management system.
  matter: ['case', 'file'],
  attorney: ['lawyer', 'solicitor'],
  activity: ['time', 'hour', 'expense', 'timesheet', 'timekeeping'],
  bill: ['invoice'],
  timer: ['stopwatch'],
  transaction: ['ledger'],
  bank: ['trust'], // a client's trust account is one of the firm's bank accounts
  reminder: ['remind', 'alert'],
  calendar: ['diary', 'schedule', 'agenda'],
  entry: ['hearing', 'appointment', 'deposition', 'meeting'], // the entries of a calendar
  task: ['todo', 'assign'],
  jurisdiction: ['court'], // court rules: a jurisdiction is a court's rule set
};

/** stemmed alternative → the stemmed words it may stand for ("show" may mean get or list). */
const CANONICAL = new Map<string, string[]>();
for (const [word, alternatives] of Object.entries(SYNONYMS)) {
  for (const alternative of alternatives) {
    const key = stem(alternative);
    CANONICAL.set(key, [...(CANONICAL.get(key) ?? []), stem(word)]);
  }
}

function stem(word: string): string {
  // "hearings" as "hearing" (→ "hear"), not as a word of its own.
  if (word.length > 6 && word.endsWith('ings')) return word.slice(0, -4);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('es') && /(ch|sh|x|s)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Lowercase words (snake_case split), stop words dropped, stemmed. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word && !STOP.has(word))
    .map(stem);
}

const canonicalsOf = (base: string) => (CANONICAL.get(base) ?? []).filter((canonical) => canonical !== base);

/**
 * The terms of a query: its words, each also yielding its canonical synonyms, except that a word standing for another
 * word of the same query only qualifies it: in "phone call" or "text message" it counts as that word ("call",
 * "message"), not as a term of its own that would find other things (an operation on phone numbers).
 *
 * Synonyms are read in the query only. The operations' texts keep their own words: were they expanded too, every
 * text using an alternative would count as using the word it may stand for (Slack's upload_file as an operation on
 * a "matter", Clio's trust requests as "bank" operations), and the more services share the index, the less a word
 * would tell them apart.
 */
function queryTerms(text: string): string[] {
  const given = words(text);
  const present = new Set(given);
  return given.flatMap((base) => {
    const canonicals = canonicalsOf(base);
    return canonicals.some((canonical) => present.has(canonical)) ? canonicals : [base, ...canonicals];
  });
}

interface Doc {
  integration: RegisteredIntegration;
  operation: RegisteredOperation;
  /** Terms of the operation's name: a query naming all of them names the operation itself. */
  nameTerms: Set<string>;
  /** term → weighted frequency */
  weights: Map<string, number>;
  length: number;
}

/**
 * Keyword search over operations: BM25 over fields weighted by how much they say about the operation (name and
 * service first, then summary, then description and parameter names). Built once per set of integrations.
 */
export class OperationIndex {
  private readonly docs: Doc[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(integrations: readonly RegisteredIntegration[]) {
    for (const integration of integrations) {
      const serviceText = `${integration.service} ${integration.plugin.displayName}`;
      for (const operation of integration.operations.values()) {
        const { definition } = operation;
        const weights = new Map<string, number>();
        let length = 0;
        // Only the short, telling fields count towards the length normalisation: a long description with many
        // parameters must not push an operation down for a query that names it.
        const add = (text: string, weight: number, counts: boolean) => {
          for (const term of words(text)) {
            weights.set(term, (weights.get(term) ?? 0) + weight);
            if (counts) length += weight;
          }
        };
        add(operation.name, 4, true);
        add(serviceText, 2, true);
        add(definition.summary, 2.5, true);
        add(definition.description, 0.5, false);
        add(Object.keys(definition.params.properties ?? {}).join(' '), 0.5, false);
        this.docs.push({ integration, operation, weights, length, nameTerms: new Set(words(operation.name)) });
        for (const term of weights.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      }
    }
    this.averageLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  search(
    query: string,
    options: { limit: number; filter?: (doc: { service: string; operation: RegisteredOperation }) => boolean },
  ): SearchHit[] {
    const wanted = [...new Set(queryTerms(query))];
    const n = this.docs.length;
    const k1 = 1.2;
    const b = 0.5;
    const hits: SearchHit[] = [];
    for (const doc of this.docs) {
      if (options.filter && !options.filter({ service: doc.integration.service, operation: doc.operation })) continue;
      let score = 0;
      for (const term of wanted) {
        const tf = doc.weights.get(term);
        if (!tf) continue;
        const df = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / this.averageLength));
      }
      // Name coverage: "list calls" names list_calls outright, whatever else the descriptions mention.
      let covered = 0;
      for (const term of doc.nameTerms) if (wanted.includes(term)) covered++;
      score *= 1 + covered / Math.max(1, doc.nameTerms.size);
      if (score > 0) {
        hits.push({
          service: doc.integration.service,
          method: doc.operation.name,
          summary: doc.operation.definition.summary,
          access: doc.operation.access,
          score: Math.round(score * 1000) / 1000,
        });
      }
    }
    hits.sort((x, y) => y.score - x.score || x.service.localeCompare(y.service) || x.method.localeCompare(y.method));
    return hits.slice(0, options.limit);
  }
}
