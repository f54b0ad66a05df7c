import type { RegisteredOperation } from '../contract/registry.js';

/**
 * The operations of one service closest to a name that is not one of them: what an assistant meant by
 * `list_time_entries` (Clio's `list_activities`), `post_message` (Slack's `send_message`) or `get_invoice`
 * (QuickBooks' `find_invoices`). Deterministic and offline: a mix of
 * - the words of the name against the words of each operation's name (stemmed, verbs grouped by what they do:
 *   get/find/list/read/search all read; create/add/post/send/log all make something),
 * - the name's nouns against each operation's summary and description, weighted by how rare a word is in the
 *   service (so "time entries" finds the operation whose description says it lists time entries),
 * - the edit distance between the two names (typos, singular for plural).
 */
/**
 * Why a name that asks to write has no operation, when the reason is that nothing there writes: the integration has
 * no operation that creates, changes or deletes (`integration`), or the operations on the name's resource only read
 * (`resource`, with those operations). Undefined when the name asks to read, names no verb we know, or something of
 * the kind can be written.
 */
export type ReadOnlyReason = { scope: 'integration' } | { scope: 'resource'; noun: string; reads: RegisteredOperation[] };

export function readOnlyReason(operations: readonly RegisteredOperation[], wrong: string): ReadOnlyReason | undefined {
  if (operations.length === 0 || wrong.length > MAX_NAME_LENGTH) return undefined;
  const asked = words(wrong);
  const verb = VERB_CLASS.get(asked[0] as string);
  if (verb === undefined || verb === 'read') return undefined;
  if (operations.every((op) => op.access === 'read')) return { scope: 'integration' };
  let found: ReadOnlyReason | undefined;
  for (const name of alternatives(wrong)) {
    const nouns = words(name).slice(1);
    const noun = nouns[nouns.length - 1];
    if (noun === undefined) continue;
    // The resource's operations: those whose name ends with the same thing (find_bill_payments is about payments).
    const family = operations.filter((op) => {
      const own = words(op.name);
      return VERB_CLASS.has(own[0] as string) && own.length > 1 && own[own.length - 1] === noun;
    });
    // Any word for the thing that can be written means the name was only wrong, not impossible.
    if (family.some((op) => op.access !== 'read')) return undefined;
    if (family.length > 0) found ??= { scope: 'resource', noun, reads: family };
  }
  return found;
}

/** The longest name worth suggesting for: no operation name comes near it. */
const MAX_NAME_LENGTH = 100;

export function closestOperations(operations: readonly RegisteredOperation[], wrong: string, limit = 3): RegisteredOperation[] {
  // Past an operation name's length there is no mistake to guess at, and the edit distance grows with the input.
  if (operations.length === 0 || wrong.length > MAX_NAME_LENGTH) return [];
  if (words(wrong).length === 0) return [];
  const texts = operations.map((op) => new Set(words(`${op.definition.summary} ${op.definition.description}`)));
  const rarity = (word: string) => Math.log((operations.length + 1) / (1 + texts.filter((t) => t.has(word)).length));
  const scored = operations.map((op, i) => {
    const best = Math.max(
      ...alternatives(wrong).map((name, k) => nameScore(name, op, texts[i] as Set<string>, rarity) - 0.2 * Math.sign(k)),
    );
    // A shorter name is the more general one: it wins a tie.
    return { op, score: best - op.name.length / 1000 };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.op);
}

function nameScore(wrong: string, op: RegisteredOperation, text: Set<string>, rarity: (word: string) => number): number {
  const asked = words(wrong);
  const askedVerb = VERB_CLASS.get(asked[0] as string);
  const askedNouns = askedVerb === undefined ? asked : asked.slice(1);
  const own = words(op.name);
  const ownVerb = VERB_CLASS.get(own[0] as string);
  const ownNouns = ownVerb === undefined ? own : own.slice(1);
  let score = 0;
  // The verb: the same one counts most, one of the same kind (get for find, post for send) nearly as much; an
  // operation named by its verb alone (Notion's search) does it over everything.
  if (asked[0] === own[0]) score += ownNouns.length === 0 ? 3 : 1.2;
  else if (askedVerb !== undefined && askedVerb === ownVerb) score += 1;
  // The nouns of the names.
  const shared = askedNouns.filter((w) => ownNouns.includes(w)).length;
  score += (2 * shared) / Math.max(1, askedNouns.length);
  if (askedNouns.length > 0 && askedNouns.join('_') === ownNouns.join('_')) score += 1;
  // The nouns in what the operation says of itself, rare words worth more.
  for (const noun of askedNouns) if (!ownNouns.includes(noun) && text.has(noun)) score += 0.35 * rarity(noun);
  // How few edits turn one name into the other.
  return score + 1.5 * (1 - editDistance(wrong, op.name) / Math.max(wrong.length, op.name.length));
}

/**
 * The name as given, then as the applications would say it: the words assistants bring from elsewhere, each with the
 * words one of our services uses for the same thing (a lead is Lawmatics' prospect, a time entry Clio's activity).
 */
const SAYINGS: Array<[string, string]> = [
  ['me', 'current_user'],
  ['current_user', 'me'],
  ['whoami', 'get_current_user'],
  ['whoami', 'get_me'],
  ['lead', 'prospect'],
  ['time_entry', 'activity'],
  ['time_entries', 'activities'],
  ['appointment', 'calendar_entry'],
  ['appointment', 'event'],
  ['meeting', 'calendar_entry'],
  ['case', 'matter'],
  ['client', 'contact'],
  ['invoice', 'bill'],
  ['text', 'sms'],
];

function alternatives(wrong: string): string[] {
  const name = wrong.toLowerCase();
  const out = [name];
  for (const [from, to] of SAYINGS) {
    const swapped = name.replace(new RegExp(`(^|_)${from}(?=s?(_|$))`, 'g'), `$1${to}`);
    if (swapped !== name && !out.includes(swapped)) out.push(swapped);
  }
  return out;
}

/** Verbs an assistant uses, grouped by what the operation does. */
const VERB_CLASS = new Map<string, string>();
for (const [kind, verbs] of Object.entries({
  read: 'get find list read search fetch retrieve show view lookup query look describe',
  make: 'create add new post send make log write insert book start',
  change: 'update edit change modify set patch rename',
  remove: 'delete remove archive cancel drop destroy stop',
})) {
  for (const verb of verbs.split(' ')) VERB_CLASS.set(verb, kind);
}

/** Lower-case words of a name or a text, each in its singular form. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(singular);
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
