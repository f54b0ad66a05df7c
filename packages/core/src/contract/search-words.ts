import { BRITISH_ISE, BRITISH_LL, BRITISH_OUR, IRREGULAR, PHRASAL_VERBS, STOP } from './search-vocabulary.js';

// Tokenizing and stemming of search_methods: the same for the operations' texts and for the queries.

const PHRASAL = new RegExp(`\\b(${Object.keys(PHRASAL_VERBS).join('|')})\\b`, 'g');
/** A phrasal verb of two words split by a pronoun ("check it off", "push it back"), read as the verb before the pronoun. */
const TWO_WORD = Object.keys(PHRASAL_VERBS).filter((phrase) => /^[a-z]+ [a-z]+$/.test(phrase));
const SPLIT_PHRASAL = new RegExp(
  `\\b(${[...new Set(TWO_WORD.map((phrase) => phrase.split(' ')[0]))].join('|')}) (it|them|this|that) (${[...new Set(TWO_WORD.map((phrase) => phrase.split(' ')[1]))].join('|')})\\b`,
  'g',
);

export function stem(word: string): string {
  const singular = IRREGULAR.get(word);
  if (singular !== undefined) return singular;
  // "hearings" as "hearing" (→ "hear"), not as a word of its own.
  if (word.length > 6 && word.endsWith('ings')) return word.slice(0, -4);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return dropE(word.slice(0, -1));
  return dropE(word);
}

/** "close" and "closed", "file" and "filed", "case" and "cases" as one word; "definition" as "defined". */
function dropE(word: string): string {
  if (word.length > 7 && /[ai]tion$/.test(word)) return word.slice(0, -5);
  return word.length > 3 && word.endsWith('e') ? word.slice(0, -1) : word;
}

/** Lowercase, possessives dropped, British spellings as American ones, the accountants' abbreviations spelled out. */
export function normalize(text: string): string {
  return (
    text
      .replace(/\b(called|named) (?=[A-Z])/g, 'name ')
      .toLowerCase()
      // "let the team know the hearing moved": to tell them.
      .replace(/\blet ((?:[a-z0-9#@'-]+ ){1,4})know\b/g, 'tell $1')
      .replace(/\bwhos\b/g, 'who is')
      .replace(SPLIT_PHRASAL, (phrase, verb: string, pronoun: string, particle: string) =>
        PHRASAL_VERBS[`${verb} ${particle}`] === undefined ? phrase : `${verb} ${particle} ${pronoun}`,
      )
      .replace(PHRASAL, (phrase) => PHRASAL_VERBS[phrase] ?? phrase)
      .replace(/[’`]/g, "'")
      .replace(/'s\b/g, '')
      .replace(/n't\b/g, ' not')
      .replace(BRITISH_OUR, '$1or')
      .replace(BRITISH_ISE, '$1iz$2')
      .replace(BRITISH_LL, '$1$2')
      .replace(/\bcheque/g, 'check')
      .replace(/\blicence/g, 'license')
      .replace(/\bprogramme/g, 'program')
      .replace(/\bcentre/g, 'center')
      .replace(/\bp ?& ?l\b/g, 'profit and loss')
      .replace(/\ba\/r\b/g, 'receivable')
      .replace(/\ba\/p\b/g, 'payable')
  );
}

/** Lowercase words (snake_case split), stop words dropped, stemmed. */
export function words(text: string): string[] {
  return normalize(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word && !STOP.has(word))
    .map(stem);
}
