// One name, several spellings, for stored items: a field sent as `FriendlyName` to an item stored
// with `friendly_name` changes that field, not a second one beside it, so what a read answers is
// what the last change sent.
import { nameWords } from '../generate/name-words.js';
import { setOwn } from '../common/json-value.js';

/** `sent` with each key renamed to the spelling `existing` already holds for its words (when only one does). */
export function respelled(sent: Record<string, unknown>, existing: Record<string, unknown>): Record<string, unknown> {
  let byWords: Map<string, string | null> | null = null;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sent)) {
    let target = key;
    if (!Object.hasOwn(existing, key)) {
      byWords ??= wordsIndex(existing);
      target = byWords.get(nameWords(key).join('_')) ?? key;
    }
    setOwn(result, target, value);
  }
  return result;
}

/** The keys by their words; null where two keys share them. */
function wordsIndex(object: Record<string, unknown>): Map<string, string | null> {
  const index = new Map<string, string | null>();
  for (const key of Object.keys(object)) {
    const words = nameWords(key).join('_');
    index.set(words, index.has(words) ? null : key);
  }
  return index;
}
