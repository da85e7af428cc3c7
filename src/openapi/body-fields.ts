// The field names a request body can hold at a place in it, read from its schema: what a template
// in a fixture may name (`request.body.owner.name`), so a misspelt one is caught at start.
import type { LoadedDocument } from './load-document.js';
import { deref, isSchema, objectView, schemaTypes, type Schema } from './schema-view.js';

/**
 * The property names the schema declares at `segments` (a number segment stepping into an array),
 * or null when the schema leaves that place open (no properties listed, extra properties allowed
 * by a schema, a `oneOf`): there any name may be right.
 */
export function bodyFieldNames(spec: LoadedDocument, schema: unknown, segments: readonly string[]): readonly string[] | null {
  let current: Schema = deref(spec, schema);
  for (const segment of segments) {
    const next = stepInto(spec, current, segment);
    if (next === undefined) return null;
    if (next === 'unknown') return [...namesOf(spec, current) ?? []];
    current = next;
  }
  return namesOf(spec, current);
}

function namesOf(spec: LoadedDocument, schema: Schema): string[] | null {
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return null;
  const view = objectView(spec, schema);
  if (!view || view.properties.size === 0) return null;
  if (isSchema(schema.additionalProperties) && Object.keys(schema.additionalProperties).length > 0) return null;
  if (schema.additionalProperties === true) return null;
  return [...view.properties.keys()];
}

/** The schema one segment down; 'unknown' when the name is not declared there; undefined when the place is open. */
function stepInto(spec: LoadedDocument, schema: Schema, segment: string): Schema | 'unknown' | undefined {
  if (/^\d+$/.test(segment) && (schemaTypes(schema).includes('array') || schema.items !== undefined)) {
    return isSchema(schema.items) ? deref(spec, schema.items) : undefined;
  }
  const names = namesOf(spec, schema);
  if (names === null) return undefined;
  if (!names.includes(segment)) return 'unknown';
  return deref(spec, objectView(spec, schema)!.properties.get(segment));
}
