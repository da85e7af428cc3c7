// Rewrites of single keywords into forms json-schema-faker (jsf) 0.6 generates correctly: `type`
// with OpenAPI 3.0's `nullable`, number bounds, `x-faker`, and discriminator pins. Each one works on
// one schema object and knows nothing of refs; jsf-schema.ts applies them while unfolding.
import type { JsonSchema } from 'json-schema-faker';
import { isObject, setOwn, type Json } from '../common/json-value.js';

/** Keywords copied unchanged. */
export const PLAIN_KEYWORDS = [
  'const', 'enum', 'format', 'pattern', 'minLength', 'maxLength', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains',
  'minProperties', 'maxProperties', 'dependentRequired',
] as const;

const KNOWN_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** Unbounded numbers are drawn from [-JSF_RANGE, JSF_RANGE] by jsf (here from 0: see compileNumberBounds). */
const JSF_RANGE = 1000;

/**
 * The `type` jsf sees, or undefined for none. In 3.0, `nullable: true` adds 'null' to the types;
 * a nullable value is then null with jsf's natural odds (one of the listed types).
 */
export function compileType(schema: Json, is30: boolean): string | string[] | undefined {
  if (typeof schema.type !== 'string' && !Array.isArray(schema.type)) return undefined;
  let types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is string => typeof t === 'string');
  if (is30 && schema.nullable === true && !types.includes('null')) types = [...types, 'null'];
  // Unknown type names are dropped; if none is known, jsf (failOnInvalidTypes: false) gives null.
  const known = types.filter((t) => KNOWN_TYPES.has(t));
  if (known.length > 0) types = known;
  if (types.length === 0) return undefined;
  return types.length === 1 ? types[0] : types;
}

/**
 * Copies the number bounds of `schema` to `out`, in the 2020-12 form jsf reads. 3.0's boolean
 * exclusiveMinimum / exclusiveMaximum become the numeric form. jsf draws from [-1000, 1000] unless
 * bounded, so a lone `minimum: 5000` would give values below it: the missing side is added
 * (bound +/- 1000). A number unbounded below starts at 0.
 */
export function compileNumberBounds(schema: Json, out: Json): void {
  let minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  let maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let exclusiveMinimum: number | undefined;
  let exclusiveMaximum: number | undefined;
  // 3.0 (draft 4): booleans modifying minimum / maximum.
  if (schema.exclusiveMinimum === true && minimum !== undefined) [exclusiveMinimum, minimum] = [minimum, undefined];
  else if (typeof schema.exclusiveMinimum === 'number') exclusiveMinimum = schema.exclusiveMinimum;
  if (schema.exclusiveMaximum === true && maximum !== undefined) [exclusiveMaximum, maximum] = [maximum, undefined];
  else if (typeof schema.exclusiveMaximum === 'number') exclusiveMaximum = schema.exclusiveMaximum;
  // jsf lets the exclusive bound replace the inclusive one; keep whichever is tighter.
  if (minimum !== undefined && exclusiveMinimum !== undefined) {
    if (minimum > exclusiveMinimum) exclusiveMinimum = undefined;
    else minimum = undefined;
  }
  if (maximum !== undefined && exclusiveMaximum !== undefined) {
    if (maximum < exclusiveMaximum) exclusiveMaximum = undefined;
    else maximum = undefined;
  }
  const low = minimum ?? exclusiveMinimum;
  const high = maximum ?? exclusiveMaximum;
  if (low !== undefined && high === undefined && low >= JSF_RANGE) maximum = low + JSF_RANGE;
  if (high !== undefined && low === undefined && high <= -JSF_RANGE) minimum = high - JSF_RANGE;
  // A number the schema leaves unbounded below is an id, a count, a size or an amount far more
  // often than anything negative (`"id": -373`, `"page": -694` read as broken data): from 0 up.
  // Only on numeric schemas: jsf takes any schema with a `minimum` for a number.
  if (low === undefined && (high === undefined || high > 0) && isNumeric(schema)) minimum = 0;
  if (minimum !== undefined) out.minimum = minimum;
  if (maximum !== undefined) out.maximum = maximum;
  if (exclusiveMinimum !== undefined) out.exclusiveMinimum = exclusiveMinimum;
  if (exclusiveMaximum !== undefined) out.exclusiveMaximum = exclusiveMaximum;
}

/** Whether the schema's `type` names integer or number. */
function isNumeric(schema: Json): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('integer') || types.includes('number');
}

/**
 * `x-faker` in jsf's `faker` form. jsf calls `faker.<path>(...args)` and spreads the value as
 * arguments, so the object form `{ 'number.int': { max: 10 } }` is wrapped into `[{ max: 10 }]`;
 * 'a.b' and `{ 'a.b': [args...] }` pass through. An unknown faker path makes jsf fall back to
 * ordinary generation.
 */
export function normaliseFaker(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const [path] = Object.keys(spec);
  if (path === undefined) return spec;
  const args = spec[path];
  if (args === undefined || args === null) return path;
  return { [path]: Array.isArray(args) ? args : [args] };
}

/**
 * A branch of a discriminated oneOf/anyOf with its tag property pinned to the first of its tag
 * values (shared/discriminator.ts: its mapping key, else its schema's name). jsf generates oneOf
 * branches with required properties only, to keep them apart; the pinned property keeps them apart
 * instead, so the data stays rich.
 */
export function pinDiscriminator(propertyName: string, tags: readonly string[] | null, compiled: JsonSchema): JsonSchema {
  if (!tags || tags.length === 0) return compiled;
  const pin: Json = { type: 'object', properties: {}, required: [propertyName] };
  setOwn(pin.properties as Json, propertyName, { const: tags[0] });
  return { allOf: [compiled, pin] };
}
