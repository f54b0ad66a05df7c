import type { Lexicon } from './search-lexicon.js';
import { STOP } from './search-vocabulary.js';
import { normalize, stem } from './search-words.js';

// The records a query names: by a title, or as the record something is added to.

/**
 * The words of the names a query gives, as written, lowercase: a title in quotes ("the page “Intake steps”") or after
 * "titled", "called" or "named" up to the next preposition ("the page titled Client intake checklist").
 */
export function recordNames(text: string): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => {
    for (const word of normalize(name).split(/[^a-z0-9-]+/)) if (word) names.add(word);
  };
  for (const [, name = ''] of text.matchAll(/["“”]([^"“”]+)["“”]/g)) add(name);
  for (const [, name = ''] of text.matchAll(/\b(?:titled|entitled|called|named)\s+((?:[A-Z0-9][\w-]*)(?:\s+[\w-]+)*)/g))
    add(name.split(/\s+(?=(?:in|on|under|to|for|from|at|with|into|inside|and|about)\b)/)[0] ?? '');
  return names;
}

/**
 * The words of the records something is added to ("add a row to the tracker database"): the record after "to the",
 * "into our" or "on this", in the singular, exists; the query does not ask to create it.
 */
export function existingRecords(normalized: string, lexicon: Lexicon): Set<string> {
  const existing = new Set<string>();
  // "to the case documents", "to the damages": a plural is where a new one goes, not one record.
  for (const [, words = ''] of normalized.matchAll(
    /\b(?:to|into|onto|in|on|under|inside) (?:the|this|that|our|my|its|their|his|her) ((?:[a-z-]+ ?){1,4})/g,
  )) {
    let named = true;
    for (const word of words.split(/\s+/)) {
      // The record's own words end at the first little word ("the calendar for the deposition").
      if (STOP.has(word)) named = false;
      if (!word || STOP.has(word) || isPlural(word)) continue;
      existing.add(stem(word));
      // "the Resources db" is a database: the words of the record's name stand for theirs too.
      if (named) for (const canonical of lexicon.canonicalsOf(stem(word))) existing.add(canonical);
    }
  }
  return existing;
}

/** A plural noun: "calls", not "address", "status" or "analysis". */
export function isPlural(token: string): boolean {
  return token.length > 3 && token.endsWith('s') && !token.endsWith('ss') && !token.endsWith('us') && !token.endsWith('is');
}
