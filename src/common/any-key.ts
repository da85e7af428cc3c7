// Whether a parsed document holds an object key that passes a test: how a runtime that loads its
// libraries on demand (the fetch handler in a browser) decides which ones a document needs.

/** True at the first key of any object in `value` for which `test` holds. */
export function anyKey(value: unknown, test: (key: string) => boolean): boolean {
  // An explicit stack, so a document nested deeper than the call stack cannot crash the check.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const key in node) {
      if (!Array.isArray(node) && test(key)) return true;
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return false;
}
