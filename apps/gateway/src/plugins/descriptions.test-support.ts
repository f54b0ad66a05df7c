// The house rules for operation summaries and descriptions (docs/plugins.md, "Writing summaries and descriptions"),
// as checks that each return the problems they find, one line per problem, so that a failing test lists them all.

export interface Described {
  service: string;
  name: string;
  summary: string;
  description: string;
  /** The operation's parameter names. */
  params: readonly string[];
}

/** Verbs a summary may start with: what the user asks the application to do. */
export const SUMMARY_VERBS = new Set(
  (
    'List Get Find Search Query Read Show Look Check Count Summarize Run Preview Download Export Fetch Create Add Record ' +
    'Log Open Book Schedule Reschedule Register Update Change Edit Rename Move Set Mark Annotate Tag Attach Detach ' +
    'Assign Link Append Replace Restore Reopen Complete Close Cancel Archive Unarchive Delete Remove Trash Clear Void ' +
    'Send Post Reply Share Invite Join Leave Kick Pin Unpin React Upload Import Approve Reject Submit Apply Pay Refund ' +
    'Transfer Convert Generate Calculate Merge Copy Duplicate Start Stop Enable Disable Activate Deactivate Verify ' +
    'Request Email Print Publish Lock Unlock Resolve Test Sync Connect Disconnect Retrieve Write Make Turn Bill Charge'
  ).split(' '),
);

/** Parameters that page through a list. */
export const PAGING_PARAMS = ['page', 'per_page', 'page_size', 'page_token', 'start_cursor', 'cursor', 'offset', 'limit', 'fetchAll'];

const ABBREVIATIONS = /\b(e\.g|i\.e|etc|vs|Mr|Mrs|Ms|Dr|Jr|No|approx)\.$/i;

/** Sentences of a text: split after . ! ? followed by a space, but not after an abbreviation such as "e.g.". */
export function sentences(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (const piece of text.split(/(?<=[.!?])\s+/)) {
    current = current ? `${current} ${piece}` : piece;
    if (!ABBREVIATIONS.test(current)) {
      parts.push(current);
      current = '';
    }
  }
  if (current) parts.push(current);
  return parts.map((s) => s.trim()).filter(Boolean);
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const id = (op: Described) => `${op.service}.${op.name}`;
const mentions = (text: string, param: string) => new RegExp(`(^|[^A-Za-z0-9_])${param}([^A-Za-z0-9_]|$)`).test(text);

/** The paging parameters the operation takes. */
export const pagingParams = (op: Described) => op.params.filter((p) => PAGING_PARAMS.includes(p));

/** A sentence about paging: it names a paging parameter of the operation. */
const isPagingSentence = (op: Described, sentence: string) => pagingParams(op).some((p) => mentions(sentence, p));

export function presenceProblems(ops: readonly Described[]): string[] {
  return ops.flatMap((op) => [
    ...(op.summary.trim() ? [] : [`${id(op)}: no summary`]),
    ...(op.description.trim() ? [] : [`${id(op)}: no description`]),
  ]);
}

export function summaryProblems(ops: readonly Described[]): string[] {
  const problems: string[] = [];
  for (const op of ops) {
    const s = op.summary;
    const first = words(s)[0] ?? '';
    if (!SUMMARY_VERBS.has(first)) problems.push(`${id(op)}: summary does not start with an imperative verb: "${s}"`);
    if (s.length > 90) problems.push(`${id(op)}: summary longer than 90 characters (${s.length})`);
    if (/[.]$/.test(s)) problems.push(`${id(op)}: summary ends with a period`);
    if (words(s).length < 3 || /^\w+ (one|a|an|the) [\w-]+$/i.test(s) || /^\w+ one(?![\w-])/i.test(s)) {
      problems.push(`${id(op)}: summary is a generated phrase: "${s}"`);
    }
  }
  const seen = new Map<string, Described>();
  for (const op of ops) {
    const key = normal(op.summary);
    const other = seen.get(key);
    if (other) problems.push(`${id(op)}: summary "${op.summary}" is also ${id(other)}'s`);
    else seen.set(key, op);
  }
  return problems;
}

export function descriptionProblems(ops: readonly Described[]): string[] {
  const problems: string[] = [];
  for (const op of ops) {
    const d = op.description;
    const count = sentences(d).length;
    if (count < 2 || count > 4) problems.push(`${id(op)}: description has ${count} sentences (2–4): ${d}`);
    if (d.length < 80) problems.push(`${id(op)}: description shorter than 80 characters`);
    if (!/[.]$/.test(d)) problems.push(`${id(op)}: description does not end with a period`);
  }
  return problems;
}

/** Operations whose parameters page must say how, by naming a paging parameter. */
export function pagingProblems(ops: readonly Described[]): string[] {
  return ops
    .filter((op) => pagingParams(op).length > 0 && !pagingParams(op).some((p) => mentions(op.description, p)))
    .map((op) => `${id(op)}: pages with ${pagingParams(op).join('/')} but its description names none of them`);
}

export function firstSentenceProblems(ops: readonly Described[]): string[] {
  const seen = new Map<string, Described>();
  const problems: string[] = [];
  for (const op of ops) {
    const key = normal(sentences(op.description)[0] ?? '');
    const other = seen.get(key);
    if (other) problems.push(`${id(op)}: first sentence is also ${id(other)}'s: ${key}`);
    else seen.set(key, op);
  }
  return problems;
}

/**
 * No sentence of more than six words in more than three operations' descriptions; a paging sentence may repeat
 * within one plugin.
 */
export function repeatedSentenceProblems(ops: readonly Described[]): string[] {
  const users = new Map<string, { ops: Set<string>; services: Set<string>; paging: boolean }>();
  for (const op of ops) {
    for (const sentence of sentences(op.description)) {
      if (words(sentence).length <= 6) continue;
      const key = normal(sentence);
      const entry = users.get(key) ?? { ops: new Set(), services: new Set(), paging: true };
      entry.ops.add(id(op));
      entry.services.add(op.service);
      entry.paging &&= isPagingSentence(op, sentence);
      users.set(key, entry);
    }
  }
  return [...users.entries()]
    .filter(([, u]) => u.ops.size > 3 && !(u.paging && u.services.size === 1))
    .map(([sentence, u]) => `"${sentence}" appears in ${u.ops.size} operations (${[...u.ops].slice(0, 5).join(', ')}…)`);
}

// "an" goes before a vowel sound. Words whose spelling misleads, and acronyms read letter by letter.
const A_BEFORE = /^(use|usu|usa|uni(?!n)|one|once|eu|ur[il])/i; // a user, a unique, a one-time; but an uninvoiced
const AN_BEFORE = /^(hour|honest|honou?r|heir)/i;
const VOWEL_LETTER_NAMES = /^[AEFHILMNORSX]/; // A, E, F (ef), H (aitch), I, L (el), M (em), N (en), O, R (ar), S (es), X (ex)

function wantsAn(word: string): boolean | undefined {
  const bare = word.replace(/^[`"'“‘(]+/, '');
  if (!/^[A-Za-z]/.test(bare)) return undefined; // numbers, symbols: not checked
  const letters = bare.match(/^[A-Za-z]+/)?.[0] ?? '';
  if (letters.length === 1 || (letters.length > 1 && letters === letters.toUpperCase() && !/^[A-Z][a-z]/.test(bare))) {
    return VOWEL_LETTER_NAMES.test(letters); // an SMS, an HTML, a URL, a PDF
  }
  if (AN_BEFORE.test(bare)) return true;
  if (A_BEFORE.test(bare)) return false;
  return /^[aeiou]/i.test(bare);
}

export function articleProblems(ops: readonly Described[]): string[] {
  const problems: string[] = [];
  for (const op of ops) {
    for (const text of [op.summary, op.description]) {
      for (const match of text.matchAll(/(?<![\w'’-])(a|an|A|An) ([^\s]+)/g)) {
        const [phrase, article, next] = match;
        const an = wantsAn(next ?? '');
        if (an === undefined) continue;
        if (an !== (article?.toLowerCase() === 'an')) problems.push(`${id(op)}: "${phrase}"`);
      }
    }
  }
  return problems;
}

/** Every check, for one group of operations. */
export const CHECKS = {
  'every operation has a summary and a description': presenceProblems,
  'summaries start with a verb, are short, specific and unique': summaryProblems,
  'descriptions have 2 to 4 sentences, at least 80 characters, and end with a period': descriptionProblems,
  'operations that page name their paging parameter': pagingProblems,
  'a and an are used correctly': articleProblems,
  'first sentences are unique': firstSentenceProblems,
  'no long sentence is repeated across more than three operations': repeatedSentenceProblems,
} as const;
