// Stateful mode: the id a created item gets when its body carries none. Counted ids are one above
// the largest integer-like id the resource has held (the store keeps that number, so no id is
// looked for among the items); other ids are drawn like the schema's (a uuid, the example's
// pattern, the format), from the resource and its count, never from the system's randomness: the
// same requests give the same ids.
import type { Resource } from '../openapi/compile-resources.js';
import { redrawId, uuidFrom } from '../generate/id-values.js';
import { fnv1a } from '../generate/seeded-random.js';
import type { StateQuestion } from './engine-types.js';
import { counted } from './state-question.js';

/** Drawn ids tried before a counted one is taken instead. */
const ATTEMPTS = 101;
/** Drawn ids asked about at once: the first is almost always free. */
const ASKED_AT_ONCE = 4;

/** The store must be asked again: whether these drawn ids are taken, or for a counted one. */
export interface AskAgain {
  ask: StateQuestion;
}

/**
 * A schema-valid identity not yet taken, from what the store said: `checked` the ids it was asked
 * about (`taken` those it holds), `newNumber` the counted id it gave, when asked. AskAgain when the
 * drawn id was not among those checked (the count moved, or the first ones were taken).
 */
export function newIdentity(resource: Resource, count: number, checked: readonly string[], taken: readonly string[], newNumber: number | undefined): number | string | AskAgain {
  if (!counted(resource)) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const id = drawnId(resource, count, attempt);
      if (id === null) continue;
      if (!checked.includes(id)) return { ask: { resource: resource.name, count: true, taken: drawnIds(resource, count, attempt, attempt + ASKED_AT_ONCE) } };
      if (!taken.includes(id)) return id;
    }
  }
  if (newNumber === undefined) return { ask: { resource: resource.name, count: true, newNumber: true } };
  return countedId(resource, newNumber);
}

/** A new identity among items held here (the seed being made): as newIdentity, looked up at once. `largest`: the largest integer-like id among them. */
export function newIdentityAmong(resource: Resource, items: ReadonlyMap<string, unknown>, largest: number): number | string {
  if (!counted(resource)) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const id = drawnId(resource, items.size, attempt);
      if (id !== null && !items.has(id)) return id;
    }
  }
  return countedId(resource, largest + 1);
}

/** The number an integer-like id stands for (what counted ids are counted from); null for any other id. */
export function idNumber(id: string): number | null {
  return /^\d{1,15}$/.test(id) ? Number(id) : null;
}

/** A counted id: the number itself, or as text as long as its schema asks (`minLength: 6`: `000001`). */
function countedId(resource: Resource, number: number): number | string {
  return resource.idKind === 'integer' ? number : String(number).padStart(resource.minLength, '0');
}

function drawnIds(resource: Resource, count: number, from: number, to: number): string[] {
  const ids: string[] = [];
  for (let attempt = from; attempt < Math.min(to, ATTEMPTS); attempt++) {
    const id = drawnId(resource, count, attempt);
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** The id drawn for a resource holding `count` items, at the attempt-th try; null where none can be drawn. */
function drawnId(resource: Resource, count: number, attempt: number): string | null {
  const draw = `${resource.name}\u0000${count}\u0000${attempt}`;
  if (resource.idKind === 'uuid') return uuidFrom(draw);
  // The template redrawn within each character's class, else (where that breaks the pattern) one drawn afresh.
  const redrawn = resource.idKind === 'pattern' ? redrawId(resource.idTemplate!, fnv1a(draw)) : null;
  if (redrawn !== null && resource.idFits?.(redrawn) !== false) return redrawn;
  return resource.drawId?.(draw) ?? null;
}
