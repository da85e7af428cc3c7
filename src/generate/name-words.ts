// One name, several spellings: `firstName`, `first_name`, `FirstName`, `first-name` and
// `FIRST_NAME` are all the words ['first', 'name'], so a rule about what a name means is written
// once, for every spelling a document uses.

/** The lower-case words of a name (`billingAddressLine1` -> ['billing', 'address', 'line', '1']). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word !== '');
}

/** Whether `words` end with `tail` (['billing', 'email', 'address'] ends with ['email', 'address']). */
export function endsWith(words: readonly string[], ...tail: string[]): boolean {
  return tail.length <= words.length && tail.every((word, i) => words[words.length - tail.length + i] === word);
}

/** The last word, or ''. */
export function lastWord(words: readonly string[]): string {
  return words[words.length - 1] ?? '';
}
