// The stored resources as one JSON document, as GET /__admin/state shows them and --state-file
// keeps them: `{"/plants": [{"id": 1, "name": "Fern"}, …]}`, each resource's items in the order
// they were created. Read back (PUT /__admin/state, a state file) every item is checked against
// the document: known resource, an object valid for its create body, with an identity, once.
import type { Resources } from '../openapi/compile-resources.js';
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
  let tree: unknown;
  try {
    const parsed = parseExactJson(text);
    tree = parsed.exact ?? parsed.value;
  } catch (error) {
    return [`/: ${(error as Error).message}`];
  }
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
      if (!isExactObject(item)) return violations.push(`${itemAt}: must be an object`);
      const { value, rawNumbers } = toPlain(item);
      for (const violation of resource.validateItem?.(value, rawNumbers) ?? []) violations.push(`${itemAt}${violation.startsWith('/') ? '' : '/'}${violation}`);
      const id = identityOf(item[resource.idField]);
      const idAt = `${itemAt}/${escapePointerToken(resource.idField)}`;
      if (id === null) {
        // The item's own schema may already say so.
        return violations.includes(`${idAt}: is required`) || violations.push(`${idAt}: is required (the item's identity)`);
      }
      if (items.has(id)) return violations.push(`${idAt}: ${id} is already the identity of an earlier item`);
      items.set(id, stringifyExact(item, true));
    });
    state.set(name, items);
  }
  return violations.length > 0 ? violations : state;
}
