import { normalize, stem } from './search-words.js';

/** The shortest word read as a slip of another: shorter ones are too often other words ("cal", "fil"). */
const MIN_LENGTH = 5;

/** The shortest word in which one letter inside may be typed for another: shorter ones are often other words. */
const LONG = 7;

/** The words one letter shorter: "shedule" and "schedule" share "shedule", "cancle" and "cancel" share "cancl". */
function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Whether a query word is a slip of a known word: two neighbouring letters swapped ("recieve", "cancle"), a letter
 * dropped inside the word ("shedule"), one typed twice ("billl"), or, in a long word, a vowel inside typed for
 * another ("calender"). A first letter changed, or a last one added, dropped or changed, is another word or an ending
 * ("early" and "yearly", "manager" and "manage", "server" and "served"), and so is a letter changed in a short word
 * ("wrote" and "write") or a consonant changed ("waiting" and "waiving").
 */
function isSlip(typed: string, known: string): boolean {
  if (typed[0] !== known[0] || typed === known) return false;
  let i = 0;
  while (i < typed.length && i < known.length && typed[i] === known[i]) i++;
  if (typed.length === known.length) {
    if (typed[i] === known[i + 1] && typed[i + 1] === known[i] && typed.slice(i + 2) === known.slice(i + 2)) return true;
    // A vowel inside a long word typed for another ("calender", "seperate").
    const vowels = /[aeiouy]/;
    return (
      typed.length >= LONG &&
      i < typed.length - 1 &&
      vowels.test(typed[i] ?? '') &&
      vowels.test(known[i] ?? '') &&
      typed.slice(i + 1) === known.slice(i + 1)
    );
  }
  if (typed.length === known.length - 1) return i < typed.length && typed.slice(i) === known.slice(i + 1);
  if (typed.length === known.length + 1) return typed.slice(i + 1) === known.slice(i) && (i < known.length || typed[i] === typed[i - 1]);
  return false;
}

/**
 * The spelling search_methods knows: the words of the operations' texts, of the vocabularies and of its reading rules.
 * A query word it does not know, written in lower case (a capitalised word is a name), one slip away from a word it
 * knows ("shedule", "cancle", "recieved", "invocie"), is read as that word; of several, the most used one.
 */
export class Spelling {
  private readonly count = new Map<string, number>();
  private readonly stems = new Set<string>();
  private readonly byDeletion = new Map<string, string[]>();

  /** Counts the words of a text (an operation's, or a vocabulary's) as known spellings. */
  add(text: string): void {
    for (const word of normalize(text).split(/[^a-z]+/)) {
      if (word.length < MIN_LENGTH - 1) continue;
      const seen = this.count.get(word);
      this.count.set(word, (seen ?? 0) + 1);
      if (seen !== undefined) continue;
      this.stems.add(stem(word));
      for (const shorter of deletions(word)) {
        const words = this.byDeletion.get(shorter);
        if (words) words.push(word);
        else this.byDeletion.set(shorter, [word]);
      }
    }
  }

  /** The known word a slip stands for, or undefined when the word is known, too short, or near none. */
  private correction(word: string): string | undefined {
    if (word.length < MIN_LENGTH || this.count.has(word) || this.stems.has(stem(word))) return undefined;
    const candidates = new Set<string>(this.byDeletion.get(word) ?? []);
    for (const shorter of deletions(word)) {
      if (this.count.has(shorter)) candidates.add(shorter);
      for (const known of this.byDeletion.get(shorter) ?? []) candidates.add(known);
    }
    let best: string | undefined;
    for (const known of candidates) {
      if (!isSlip(word, known)) continue;
      if (best === undefined || (this.count.get(known) ?? 0) > (this.count.get(best) ?? 0)) best = known;
    }
    return best;
  }

  /** The query with its slips read as the words they stand for; its other words as written. */
  correct(query: string): string {
    return query.replace(/\S+/g, (chunk, at: number) => {
      // An address, a number, a #channel or an @mention is a value, not a word to spell.
      if (/[@/#\d_:]/.test(chunk)) return chunk;
      return chunk.replace(/[A-Za-z]+/g, (word, offset: number) => {
        // A capital inside the query marks a name ("Jonse"), not a slip; the first word is capitalised anyway.
        if (at + offset > 0 && /[A-Z]/.test(word)) return word;
        const lower = word.toLowerCase();
        if (normalize(lower) !== lower) return word;
        return this.correction(lower) ?? word;
      });
    });
  }
}
