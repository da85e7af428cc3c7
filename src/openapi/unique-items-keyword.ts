// `uniqueItems` checked in linear time. Ajv's own check compares every pair of items with a deep
// equality when they may be objects or arrays, so a 224 KiB body of small objects kept the server
// busy for 13 s. Here each item is turned into one canonical text (object keys sorted) and looked
// up in a Set: the cost grows with the size of the body, whatever its shape. The validation copy
// (validation-copy.ts) hands this keyword every `uniqueItems: true` of the document.
import type { ErrorObject, KeywordDefinition } from 'ajv';

export const UNIQUE_ITEMS = 'x-stub-unique-items';

export const uniqueItemsKeyword: KeywordDefinition = {
  keyword: UNIQUE_ITEMS,
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate: function checkUniqueItems(wanted: boolean, data: unknown[]): boolean {
    if (!wanted || data.length < 2) return true;
    const seen = new Map<string, number>();
    for (let j = 0; j < data.length; j++) {
      const text = canonicalJson(data[j]);
      const i = seen.get(text);
      if (i !== undefined) {
        // Ajv's own wording and parameters, so messages read the same as before.
        (checkUniqueItems as { errors?: Partial<ErrorObject>[] }).errors = [
          { keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } },
        ];
        return false;
      }
      seen.set(text, j);
    }
    return true;
  },
};

/**
 * JSON text that is the same for equal JSON values, as JSON Schema defines equality: object keys
 * in any order, `1` and `1.0` alike (both are the same double by now).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let k = 0; k < value.length; k++) text += (k === 0 ? '' : ',') + canonicalJson(value[k]);
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    text += (first ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(record[key]);
    first = false;
  }
  return text + '}';
}
