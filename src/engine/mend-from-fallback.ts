// An answer from the state whose stored values break the response's schema: the create's request
// schema allowed what the answer's does not (Discord's role `name: null`, Box's `shared_link` of
// another shape), or PUT /__admin/state stored it. Each value a violation points at is taken from
// the answer the stub gives without state (the documented example, else generated data), or left
// out where that answer has none, so the client still gets a valid answer; the pipeline then stores
// what was answered, and later reads answer the same. Runs only when the check already failed.
import { readViolation } from '../openapi/ajv-wording.js';
import { isExactObject } from '../common/exact-json.js';
import { setOwn } from '../common/json-value.js';

/**
 * `body` mended at each violation's place from `fallback`; null when no violation names a place it
 * may mend. A place under one of the `placing` properties (the item's id, its parent's path values)
 * is left as stored: replaced, the item would no longer be found where the client created it.
 */
export function mendFromFallback(body: unknown, violations: string[], fallback: unknown, placing: ReadonlySet<string>): unknown {
  const paths = violations.map((line) => readViolation(line).path).filter((path) => path.length > 0 && !path.some((token) => placing.has(token)));
  if (paths.length === 0) return null;
  const mended = copied(body);
  for (const path of paths) mendAt(mended, fallback, path);
  return mended;
}

function mendAt(body: unknown, fallback: unknown, path: string[]): void {
  let into: unknown = body;
  let from: unknown = fallback;
  for (const token of path.slice(0, -1)) {
    into = child(into, token);
    // A stored list longer than the example's: its first item stands for every item.
    from = Array.isArray(from) && /^\d+$/.test(token) ? (child(from, token) ?? from[0]) : child(from, token);
    if (into === undefined) return;
  }
  const last = path[path.length - 1];
  const replacement = Array.isArray(from) && /^\d+$/.test(last) ? (child(from, last) ?? from[0]) : child(from, last);
  if (Array.isArray(into) && /^\d+$/.test(last)) {
    if (replacement !== undefined) into[Number(last)] = copied(replacement);
  } else if (isExactObject(into)) {
    if (replacement === undefined) delete into[last];
    else setOwn(into, last, copied(replacement));
  }
}

function child(value: unknown, token: string): unknown {
  if (Array.isArray(value)) return /^\d+$/.test(token) ? value[Number(token)] : undefined;
  return isExactObject(value) && Object.hasOwn(value, token) ? value[token] : undefined;
}

/** A copy of the objects and arrays; other values (exact numbers among them) are kept as they are. */
function copied(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copied);
  if (isExactObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copied(item)]));
  return value;
}
