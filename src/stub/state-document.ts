// The stored resources as one JSON document, as GET /__admin/state shows them and --state-file
// keeps them: `{"/plants": [{"id": 1, "name": "Fern"}, …]}`, each resource's items in the order
// they were created. Read back (PUT /__admin/state, a state file) every item is checked against
// the document: known resource, an object valid for its create body, with an identity, once.
import type { Resource, Resources } from '../openapi/compile-resources.js';
import type { StoredState } from '../engine/engine-types.js';
import { identityOf, isExactObject, parseExactJson, stringifyExact, toPlain } from '../common/exact-json.js';
import { escapePointerToken } from '../common/json-pointer.js';

/** The state as exact JSON text (int64 identities keep every digit). */
export function stateToJson(state: StoredState, pretty = false): string {
  const parts = [...state].filter(([, items]) => items.size > 0).map(([name, items]) =>
    `${JSON.stringify(name)}: [${[...items.values()].join(', ')}]`);
  if (!pretty) return `{${parts.join(', ')}}`;
  return parts.length === 0 ? '{}\n' : `{\n  ${parts.join(',\n  ')}\n}\n`;
}

/** Parses and checks a state document; the violations (`/plants/0/name: is required`) when it is not one. */
export function stateFromJson(text: string, resources: Resources): StoredState | string[] {
  const tree = exactTree(text);
  if (tree instanceof Error) return [`/: ${tree.message}`];
  if (!isExactObject(tree)) return ['/: must be an object of resources, e.g. {"/plants": [ … ]}'];
  const violations: string[] = [];
  const state = new Map<string, Map<string, string>>();
  for (const [name, list] of Object.entries(tree)) {
    const at = `/${escapePointerToken(name)}`;
    const resource = resources.byName.get(name);
    if (!resource) {
      violations.push(`${at}: is not a resource of the document; known: ${[...resources.byName.keys()].join(', ') || 'none'}`);
      continue;
    }
    if (!Array.isArray(list)) {
      violations.push(`${at}: must be an array of items`);
      continue;
    }
    const items = new Map<string, string>();
    list.forEach((item, index) => {
      const itemAt = `${at}/${index}`;
      const checked = checkItem(resource, item, itemAt);
      if (Array.isArray(checked)) return violations.push(...checked);
      if (items.has(checked.id)) return violations.push(`${itemAt}/${escapePointerToken(resource.idField)}: ${checked.id} is already the identity of an earlier item`);
      items.set(checked.id, checked.text);
    });
    state.set(name, items);
  }
  return violations.length > 0 ? violations : state;
}

/**
 * One item checked as the store keeps it: an object valid for the resource's item schema, with an
 * identity. Its identity and exact JSON text, or the violations, each under `at`.
 */
export function checkItem(resource: Resource, item: unknown, at = ''): { id: string; text: string } | string[] {
  if (!isExactObject(item)) return [`${at || '/'}: must be an object`];
  const { value, rawNumbers } = toPlain(item);
  const violations = (resource.validateItem?.(value, rawNumbers) ?? []).map((violation) => `${at}${violation.startsWith('/') ? '' : '/'}${violation}`);
  const id = identityOf(item[resource.idField]);
  const idAt = `${at}/${escapePointerToken(resource.idField)}`;
  // The item's own schema may already say its identity is missing.
  if (id === null && !violations.includes(`${idAt}: is required`)) violations.push(`${idAt}: is required (the item's identity)`);
  return violations.length > 0 || id === null ? violations : { id, text: stringifyExact(item, true) };
}

/** JSON text read exactly (int64 identities keep every digit); the parser's error when it is not JSON. */
export function exactTree(text: string): unknown {
  try {
    const parsed = parseExactJson(text);
    return parsed.exact ?? parsed.value;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
