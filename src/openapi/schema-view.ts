// Read-only views of a document's schemas for the parts of the stub that build data (projection,
// error bodies): follow `$ref`s through the bundler's resolver and merge `allOf` into one object
// view. Validation never uses this; Ajv sees the schemas as written.
import type { LoadedDocument } from './load-document.js';
import { isObject } from '../common/json-value.js';
import { followRefs } from './follow-ref.js';

export type Schema = Record<string, unknown>;

export interface ObjectView {
  properties: Map<string, Schema>;
  required: Set<string>;
}

/** Follows `$ref` until a schema that is not a bare reference. Cycles end in an empty schema. */
export function deref(spec: LoadedDocument, schema: unknown): Schema {
  const { value } = followRefs(spec, schema, '');
  return isSchema(value) ? value : {};
}

/** The properties and required names of an object schema, `allOf` branches merged in. */
export function objectView(spec: LoadedDocument, schema: unknown): ObjectView | null {
  const view: ObjectView = { properties: new Map(), required: new Set() };
  const found = collect(spec, deref(spec, schema), view, new Set());
  return found ? view : null;
}

function collect(spec: LoadedDocument, schema: Schema, view: ObjectView, seen: Set<Schema>): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  let found = schemaTypes(schema).includes('object') || isSchema(schema.properties);
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!view.properties.has(name)) view.properties.set(name, property as Schema);
    }
  }
  if (Array.isArray(schema.required)) for (const name of schema.required) view.required.add(String(name));
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) found = collect(spec, deref(spec, part), view, seen) || found;
  }
  return found;
}

/** The schema's `type` as a list (3.1 allows an array; 3.0's `nullable` adds null). */
export function schemaTypes(schema: Schema): string[] {
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  return schema.nullable === true ? [...types, 'null'] : types;
}

export const isSchema: (value: unknown) => value is Schema = isObject;
