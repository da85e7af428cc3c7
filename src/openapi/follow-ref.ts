// The one way the stub follows `$ref`s through a loaded document: for path items, parameters,
// bodies, responses and schemas alike, keeping the JSON pointer of the target so messages and
// compiled validators can name where a thing really lives.
import type { LoadedDocument } from './load-document.js';
import { isObject } from '../common/json-value.js';

/** A chain longer than this is treated like a cycle: nothing real needs it. */
const MAX_HOPS = 32;

export interface Followed {
  /** The target; `{}` (an empty schema) when the chain loops or runs too long. */
  value: unknown;
  /** The JSON pointer of the target within the document (`pointer` when nothing was followed or the target is in another file). */
  pointer: string;
}

const hasRef = (value: unknown): value is { $ref: string } => isObject(value) && typeof value.$ref === 'string';

/**
 * Follows `$ref`s from `value`, found at `pointer`, while `follow` says the current value is a
 * reference to follow (by default: any object with a `$ref`).
 */
export function followRefs(
  document: LoadedDocument,
  value: unknown,
  pointer: string,
  follow: (value: unknown) => value is { $ref: string } = hasRef,
): Followed {
  const seen = new Set<string>();
  let current = value;
  let at = pointer;
  while (follow(current)) {
    const ref = current.$ref;
    if (seen.has(ref) || seen.size >= MAX_HOPS) return { value: {}, pointer: at };
    seen.add(ref);
    if (ref.startsWith('#')) at = decodeURIComponent(ref.slice(1));
    current = document.resolveRef(ref);
  }
  return { value: current, pointer: at };
}

/**
 * Follows a `$ref` of a path item, parameter, body, header or response to the object it names,
 * with its pointer; `{}` when the target is not an object.
 */
export function followToObject(document: LoadedDocument, value: unknown, pointer: string): { value: Record<string, unknown>; pointer: string } {
  const target = followRefs(document, value, pointer);
  return { value: isObject(target.value) ? target.value : {}, pointer: target.pointer };
}
