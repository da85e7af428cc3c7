// A 3.0 document's schemas written the 3.1 way, for a 3.0 document mounted beside a 3.1 one
// (mount-documents.ts): one compiled model has one schema dialect. Only the keywords whose meaning
// changed are rewritten: `nullable: true` becomes `null` among the types (and the enum), a boolean
// `exclusiveMinimum`/`exclusiveMaximum` becomes the number it qualified. Returns a copy.
import type { OpenApiDocument } from './open-document.js';
import { setOwn } from '../common/json-value.js';

/** Keys whose values are data, not schemas: nothing under them is rewritten. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);
/**
 * Keys whose every member is a schema (or a response), whatever its name: a property may be called
 * `example`, and a responses map has a `default`.
 */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'schemas', 'definitions', 'responses']);

export function upgradeTo31(document: OpenApiDocument): OpenApiDocument {
  const upgraded = upgrade(document, false) as OpenApiDocument;
  return { ...upgraded, openapi: '3.1.0' };
}

/** `membersAreSchemas`: the node is a map of schemas (or of responses, whose `default` is no data). */
function upgrade(node: unknown, membersAreSchemas: boolean): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((item) => upgrade(item, false));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    setOwn(out, key, !membersAreSchemas && (DATA.has(key) || key.startsWith('x-')) ? value : upgrade(value, !membersAreSchemas && SCHEMA_MAPS.has(key)));
  }
  return membersAreSchemas ? out : rewriteKeywords(out);
}

function rewriteKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  if ('nullable' in schema && typeof schema.nullable === 'boolean') {
    const nullable = schema.nullable;
    delete schema.nullable;
    // Beside allOf/oneOf/$ref without a type, 3.0 documents mean "this schema, or null", as the
    // stub reads them when served alone (validation-copy.ts).
    if (nullable && schema.type === undefined) return { anyOf: [{ type: 'null' }, schema] };
    if (nullable) {
      if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    }
  }
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else delete schema[exclusive];
  }
  return schema;
}
