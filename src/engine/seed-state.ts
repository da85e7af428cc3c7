// Stateful mode's first data, so a demo starts with something to show: each resource holds the
// items of its list operation's documented example (the document's own values), then `count`
// items generated for it (valid for the item answer, each with its own id and its own data).
// Made once at start, when no state file or store already holds state.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { Resource, Resources } from '../openapi/compile-resources.js';
import { generateFitting } from '../openapi/generate-fitting.js';
import { identityOf, isExactObject, stringifyExact } from '../common/exact-json.js';
import { defaultExampleName } from './example-or-generated.js';
import { idNumber, newIdentityAmong } from './new-identity.js';
import type { StoredState } from './engine-types.js';

export function seedState(operations: readonly CompiledOperation[], resources: Resources, count: number): StoredState {
  const byKey = new Map(operations.map((operation) => [operation.key, operation]));
  const state = new Map<string, Map<string, string>>();
  for (const resource of resources.byName.values()) {
    const items = new Map<string, string>();
    const largest = { number: 0 };
    const keep = (item: unknown) => kept(resource, items, largest, item);
    const list = resource.operations.list === undefined ? undefined : byKey.get(resource.operations.list);
    if (list) for (const item of exampleItems(list, resources.actions.get(list.key)?.listField ?? null)) keep(item);
    const read = byKey.get(resource.operations.read ?? resource.operations.create ?? '');
    for (let index = 0; read && index < count; index++) {
      const item = generatedItem(read, resource, index);
      // Its id is the resource's next one, as a create would give: generated ids may repeat.
      if (item) keep({ ...item, [resource.idField]: null });
    }
    if (items.size > 0) state.set(resource.name, items);
  }
  return state;
}

/** The items of the list answer's default example: a bare array, or the array in its list field. */
function exampleItems(list: CompiledOperation, listField: string | null): unknown[] {
  const plan = list.success;
  const name = plan ? defaultExampleName(plan) : null;
  const example = name === null ? undefined : plan!.examples.get(name);
  const items = listField === null ? example : isExactObject(example) ? example[listField] : undefined;
  return Array.isArray(items) ? items : [];
}

/** Data generated afresh for the item answer (its envelope taken off); null when it is no object. */
function generatedItem(read: CompiledOperation, resource: Resource, index: number): Record<string, unknown> | null {
  const plan = read.success;
  if (!plan?.schemaPointer) return null;
  const { value } = generateFitting(read.generate, plan, `seed ${resource.name} ${index}`, true, read.generationCapped);
  const item = resource.answerEnvelope !== null && isExactObject(value) ? value[resource.answerEnvelope] : value;
  return isExactObject(item) ? item : null;
}

/** Stores `item` under its id, or under a new one when it has none or its id is taken; `largest` follows the largest integer-like id. */
function kept(resource: Resource, items: Map<string, string>, largest: { number: number }, item: unknown): void {
  if (!isExactObject(item)) return;
  const copy = { ...item };
  let id = identityOf(copy[resource.idField]);
  if (id === null || items.has(id)) {
    const assigned = newIdentityAmong(resource, items, largest.number);
    copy[resource.idField] = assigned;
    id = String(assigned);
  }
  largest.number = Math.max(largest.number, idNumber(id) ?? 0);
  items.set(id, stringifyExact(copy, false));
}
