import { PHRASES, SYNONYMS } from './search-vocabulary.js';
import { normalize, stem, words } from './search-words.js';
import type { PluginVocabulary } from './vocabulary.js';

export interface PhraseTerm {
  phrase: RegExp;
  /** The operations' words the phrase adds, stemmed. */
  adds: string[];
  /** The phrase's own words, stemmed. */
  own: string[];
}

/**
 * The words search_methods reads queries with: core's everyday words merged with the vocabularies of the installed
 * plugins. Built once per set of integrations, with the index.
 */
export class Lexicon {
  /** stemmed alternative → the stemmed words it may stand for ("show" may mean get or list). */
  private readonly canonical = new Map<string, string[]>();
  private readonly canonicalWords = new Set<string>();
  readonly phrases: PhraseTerm[] = [];
  /** Records called by a name written before them ("the billing channel"): the word, lowercase. */
  readonly named = new Set<string>();
  /** Every word of the vocabularies, as written: known spellings of a query. */
  readonly spellings: string[] = [];

  constructor(vocabularies: readonly PluginVocabulary[] = []) {
    const synonymTables = [SYNONYMS, ...vocabularies.map((vocabulary) => vocabulary.synonyms ?? {})];
    for (const table of synonymTables) {
      for (const [word, alternatives] of Object.entries(table)) {
        this.canonicalWords.add(stem(word));
        this.spellings.push(word, ...alternatives);
        for (const alternative of alternatives) {
          // "time entry" for activity: a phrase that adds the word.
          if (/\s/.test(alternative.trim())) {
            const phrase = normalize(alternative.trim()).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            this.phrases.push({ phrase: new RegExp(`\\b${phrase}\\b`), adds: words(word), own: words(alternative) });
            continue;
          }
          const key = stem(normalize(alternative));
          const known = this.canonical.get(key) ?? [];
          if (!known.includes(stem(word))) this.canonical.set(key, [...known, stem(word)]);
        }
      }
    }
    for (const vocabulary of vocabularies) for (const word of vocabulary.named ?? []) this.named.add(normalize(word.trim()));
    const phraseTables = [PHRASES, ...vocabularies.map((vocabulary) => Object.entries(vocabulary.phrases ?? {}))];
    for (const table of phraseTables) {
      for (const [phrase, adds] of table) {
        this.spellings.push(phrase, adds);
        this.phrases.push({ phrase: new RegExp(`\\b${phrase}\\b`), adds: words(adds), own: words(phrase) });
      }
    }
  }

  /** The words a query word may stand for, other than itself. */
  canonicalsOf(base: string): string[] {
    return (this.canonical.get(base) ?? []).filter((canonical) => canonical !== base);
  }

  /** Whether a word is one of the vocabulary's common words ("file", "call"), not a name of its own. */
  isCommonWord(word: string): boolean {
    return this.canonical.has(word) || this.canonicalWords.has(word);
  }
}
