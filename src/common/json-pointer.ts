// JSON pointers (RFC 6901): escaping a key into a pointer token, and looking values up by pointer
// and by internal `$ref` (a pointer in a URI fragment, so percent-encoded:
// `#/components/schemas/with%20space`). One module, so every pointer the stub prints or follows
// is escaped the same way.
//
// The lookups walk a plain document directly: json-schema-ref-parser's pointer walk follows `$ref`s
// on the way and throws when nothing is there, and the generator wants "not found" as a value.

/** `a/b~c` -> `a~1b~0c`: a key as one token of a pointer. */
export function escapePointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/** The value at `pointer` (`/paths/~1plants/get`), or undefined when nothing is there. */
export function valueAtPointer(document: unknown, pointer: string): { value: unknown } | undefined {
  if (pointer === '') return { value: document };
  if (!pointer.startsWith('/')) return undefined;
  let node = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!hasEntry(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return { value: node };
}

/** The target of an internal `$ref` (`#/components/schemas/Plant`); undefined for external or broken ones. */
export function valueAtRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return valueAtPointer(document, pointer)?.value;
}

/** Own entries only, so `/constructor` or an array's `/length` finds nothing. */
function hasEntry(node: unknown, token: string): boolean {
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.length;
  return typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, token);
}
