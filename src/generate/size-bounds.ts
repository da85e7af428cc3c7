// Generated data is bounded in size, whatever the document asks for. Nested `minItems: 300` asks
// for 27 million values and `minLength: 100000000` for 100 MB; generating either froze the server
// (a minute, 587 MB) and held up every other client and SIGTERM. So:
// - boundSchema() rewrites a compiled (ref-free) schema before json-schema-faker sees it, so that
//   the data it can produce stays within GENERATED_SIZE_BUDGET (about that many bytes of JSON):
//   array counts, string lengths and property counts are lowered where the budget runs out, and a
//   `pattern` whose shortest match is too long is dropped.
// - oversizedSchemas() finds, at start-up, the schemas of the document that ask for more, so a
//   warning names each one (file and JSON pointer) before any request meets the bound.
// Sizes are estimates in "units" of about a byte of JSON: a string counts its length, every other
// value one unit plus what it holds.
// Longer than 300 lines on purpose: the bound and the warning share one size estimate, walking
// the same keywords, and two files would have to keep their walks in step.
import type { JsonSchema } from 'json-schema-faker';
import { escapePointerToken, valueAtRef } from '../common/json-pointer.js';
import { isObject, setOwn, type Json } from '../common/json-value.js';
import { decodePercentOrKeep } from '../common/plain-http.js';

/** About 100 KB of JSON: far more than a stub's answer needs, and generated in tens of milliseconds. */
export const GENERATED_SIZE_BUDGET = 100_000;

/** json-schema-faker's choices where the schema leaves them open (see its array and string generators). */
const DEFAULT_MAX_ITEMS = 3;
const DEFAULT_EXTRA_LENGTH = 10;
/** What an open schema (`{}`, a format, an enum) may produce, roughly. */
const OPEN_VALUE_SIZE = 40;
/** A quantifier without an upper bound (`*`, `+`, `{n,}`) repeats at most this much more in jsf. */
const OPEN_REPEAT = 5;
/** Estimates stop growing here, so a hostile pattern cannot overflow them. */
const HUGE = 1e15;

// ---------------------------------------------------------------------------------------------
// Generation: the compiled schema, rewritten to fit the budget.

/**
 * The schema, or a copy of it lowered to fit GENERATED_SIZE_BUDGET (the original, which may be
 * shared with other compiled schemas, is never changed).
 */
export function boundSchema(schema: JsonSchema): JsonSchema {
  const sizes = new WeakMap<object, number>();
  if (upperSize(schema, sizes) <= GENERATED_SIZE_BUDGET) return schema;
  const state = { remaining: GENERATED_SIZE_BUDGET, sizes };
  return shrink(schema, 1, state);
}

interface ShrinkState {
  /** Units left for what is still to be generated. */
  remaining: number;
  sizes: WeakMap<object, number>;
}

/** Fits `schema`, generated `times` times over, into what remains, spending what it keeps. */
function shrink(schema: JsonSchema, times: number, state: ShrinkState): JsonSchema {
  const size = upperSize(schema, state.sizes);
  if (times * size <= state.remaining || !isObject(schema)) {
    state.remaining = Math.max(0, state.remaining - times * size);
    return schema;
  }
  const out: Json = { ...(schema as Json) };
  const per = Math.max(1, Math.floor(state.remaining / times));
  if (isStringSchema(out)) {
    // The string itself is too long: no pattern that needs more, and a length that fits.
    const length = Math.max(0, per - 2);
    if (typeof out.pattern === 'string' && patternLength(out.pattern).min > length) delete out.pattern;
    out.maxLength = Math.min(length, numberOr(out.maxLength, length));
    out.minLength = Math.min(numberOr(out.minLength, 0), out.maxLength as number);
    state.remaining = Math.max(0, state.remaining - times * ((out.maxLength as number) + 2));
  }
  if (isObject(out.items) || typeof out.items === 'boolean') {
    const itemSize = upperSize(out.items as JsonSchema, state.sizes);
    // As many items as fit; when not even one fits, one item, itself made smaller.
    const count = Math.floor((per - 2) / itemSize);
    if (count >= 1) {
      out.maxItems = Math.min(count, numberOr(out.maxItems, count));
      out.minItems = Math.min(numberOr(out.minItems, 0), out.maxItems as number);
      state.remaining = Math.max(0, state.remaining - times * (2 + (out.maxItems as number) * itemSize));
    } else {
      out.maxItems = Math.min(1, numberOr(out.maxItems, 1));
      out.minItems = Math.min(numberOr(out.minItems, 0), out.maxItems as number);
      out.items = shrink(out.items as JsonSchema, times * (out.maxItems as number), state);
    }
  }
  if (Array.isArray(out.prefixItems)) out.prefixItems = out.prefixItems.map((item) => shrink(item as JsonSchema, times, state));
  if (isObject(out.properties)) {
    // Smallest first: a property that can be huge (Discord's 152,133-character embed `type`) gets
    // what the others leave, instead of leaving "" to every property after it, which broke their
    // formats, patterns and minimum lengths.
    const entries = Object.entries(out.properties);
    const order = entries.map((_entry, i) => i).sort((a, b) => upperSize(entries[a][1], state.sizes) - upperSize(entries[b][1], state.sizes));
    const shrunk: JsonSchema[] = [];
    for (const i of order) shrunk[i] = shrink(entries[i][1] as JsonSchema, times, state);
    const properties: Json = {};
    entries.forEach(([name], i) => setOwn(properties, name, shrunk[i]));
    out.properties = properties;
  }
  const minProperties = out.minProperties;
  if (typeof minProperties === 'number') {
    // Properties beyond those listed are made up one by one; as many as the budget allows.
    const listed = isObject(out.properties) ? Object.keys(out.properties).length : 0;
    const extra = Math.max(0, Math.min(minProperties - listed, Math.floor(per / OPEN_VALUE_SIZE)));
    const kept = listed + extra;
    out.minProperties = kept;
    if (typeof out.maxProperties !== 'number' || out.maxProperties > kept) out.maxProperties = kept;
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as JsonSchema[]).map((member) => shrink(member, times, { ...state }));
  }
  return out as JsonSchema;
}

/** How much data `schema` can produce at most, by json-schema-faker's choices; memoised per object. */
function upperSize(schema: unknown, sizes: WeakMap<object, number>): number {
  if (!isObject(schema)) return OPEN_VALUE_SIZE;
  const known = sizes.get(schema);
  if (known !== undefined) return known;
  sizes.set(schema, OPEN_VALUE_SIZE); // a cycle (none in compiled schemas) counts as an open value
  let size = 1;
  if (isStringSchema(schema)) size = Math.max(size, stringUpperLength(schema) + 2);
  const minItems = numberOr(schema.minItems, 0);
  if (schema.items !== undefined || schema.prefixItems !== undefined || schema.minItems !== undefined) {
    const count = numberOr(schema.maxItems, Math.max(minItems, DEFAULT_MAX_ITEMS));
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.reduce((sum: number, item) => sum + upperSize(item, sizes), 0) : 0;
    size = Math.max(size, 2 + prefix + count * (schema.items === undefined ? OPEN_VALUE_SIZE : upperSize(schema.items, sizes)));
  }
  if (isObject(schema.properties) || schema.minProperties !== undefined) {
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    let object = 2;
    for (const [name, property] of properties) object += name.length + 3 + upperSize(property, sizes);
    object += Math.max(0, numberOr(schema.minProperties, 0) - properties.length) * OPEN_VALUE_SIZE;
    size = Math.max(size, object);
  }
  if (Array.isArray(schema.allOf)) size = Math.max(size, schema.allOf.reduce((sum: number, member) => sum + upperSize(member, sizes), 0));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) size = Math.max(size, ...members.map((member) => upperSize(member, sizes)));
  }
  size = Math.min(size, HUGE);
  sizes.set(schema, size);
  return size;
}

function stringUpperLength(schema: Json): number {
  const minLength = numberOr(schema.minLength, 0);
  if (typeof schema.pattern === 'string') {
    const { max } = patternLength(schema.pattern);
    return Math.max(minLength, Math.min(max, numberOr(schema.maxLength, max)));
  }
  if (typeof schema.format === 'string') return Math.max(minLength, OPEN_VALUE_SIZE);
  return numberOr(schema.maxLength, Math.max(minLength + DEFAULT_EXTRA_LENGTH, DEFAULT_EXTRA_LENGTH));
}

function isStringSchema(schema: Json): boolean {
  const type = schema.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string')) || (type === undefined && (schema.minLength !== undefined || schema.pattern !== undefined));
}

/**
 * The shortest and longest strings json-schema-faker's pattern generator can make for `pattern`:
 * each quantifier multiplies what it repeats (`(a{1000}){1000}` is a million characters). A rough
 * reading (alternatives count as their sum), enough to tell a hostile pattern from a real one.
 */
export function patternLength(pattern: string): { min: number; max: number } {
  type Group = { min: number; max: number; lastMin: number; lastMax: number };
  const stack: Group[] = [{ min: 0, max: 0, lastMin: 0, lastMax: 0 }];
  const atom = (min: number, max: number) => {
    const top = stack[stack.length - 1];
    top.min = Math.min(HUGE, top.min + min);
    top.max = Math.min(HUGE, top.max + max);
    top.lastMin = min;
    top.lastMax = max;
  };
  const repeat = (low: number, high: number) => {
    const top = stack[stack.length - 1];
    top.min = Math.min(HUGE, top.min + top.lastMin * (low - 1));
    top.max = Math.min(HUGE, top.max + top.lastMax * (high - 1));
    top.lastMin = 0;
    top.lastMax = 0;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      atom(1, 1);
    } else if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      atom(1, 1);
    } else if (c === '(') {
      stack.push({ min: 0, max: 0, lastMin: 0, lastMax: 0 });
      if (pattern[i + 1] === '?') i += pattern[i + 2] === '<' ? 3 : 2;
    } else if (c === ')') {
      if (stack.length > 1) {
        const group = stack.pop()!;
        atom(group.min, group.max);
      }
    } else if (c === '*' || c === '+' || c === '?') {
      repeat(c === '+' ? 1 : 0, c === '?' ? 1 : OPEN_REPEAT);
    } else if (c === '{') {
      const quantifier = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i));
      if (!quantifier) {
        atom(1, 1);
        continue;
      }
      const low = Math.min(HUGE, Number(quantifier[1]));
      const high = quantifier[2] === undefined ? low : quantifier[3] === '' ? low + OPEN_REPEAT : Math.min(HUGE, Number(quantifier[3]));
      repeat(low, Math.max(low, high));
      i += quantifier[0].length - 1;
    } else if (c === '^' || c === '$' || c === '|') {
      // Anchors add nothing; an alternative is counted with the others (an upper bound).
    } else {
      atom(1, 1);
    }
  }
  while (stack.length > 1) {
    const group = stack.pop()!;
    atom(group.min, group.max);
  }
  return { min: stack[0].min, max: stack[0].max };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

// ---------------------------------------------------------------------------------------------
// Start-up: the schemas of the document that ask for more than the budget.

export interface OversizedSchema {
  /** JSON pointer of the schema that takes the data past the budget. */
  pointer: string;
  reason: string;
}

/** Where a schema is, spelled out as a JSON pointer only when a warning needs it. */
type Place = { parent: Place | null; key: string } | string;

function pointerOf(place: Place): string {
  const keys: string[] = [];
  let at: Place | null = place;
  for (; at !== null && typeof at !== 'string'; at = at.parent) keys.push(`/${escapePointerToken(at.key)}`);
  return (at ?? '') + keys.reverse().join('');
}

/**
 * Every schema whose smallest valid instance is larger than GENERATED_SIZE_BUDGET while none of
 * the schemas inside it is: the one whose `minItems`, `minLength` or `minProperties` (or
 * `pattern`) asks for more, counting the arrays around it. `$ref`s are followed; each schema is
 * measured once (memoised), so this is one pass over the document's schemas.
 */
export function oversizedSchemas(document: object): OversizedSchema[] {
  const sizes = new SmallestSizes(document as Json);
  forEachSchemaRoot(document as Json, (schema, place) => sizes.minSize(schema, place));
  return sizes.oversized;
}

/** Measures a schema inside another at `key` (and `name`, a property's or a member's) and returns its size. */
type Child = (value: unknown, key: string, name?: string) => number;

/** The smallest valid instance of each schema of one document, each measured once; the oversized ones noted on the way. */
class SmallestSizes {
  readonly oversized: OversizedSchema[] = [];
  private readonly sizes = new Map<object, number>();
  /** The schemas being measured: met again inside themselves, they count as one unit. */
  private readonly open = new Set<object>();
  private readonly targets = new Map<string, unknown>();

  constructor(private readonly document: Json) {}

  minSize(schema: unknown, place: Place): number {
    if (!isObject(schema)) return 1;
    if (typeof schema.$ref === 'string') {
      // A chain of $refs that comes back to itself (`A: {$ref: A}`) names no value at all: one unit.
      if (this.open.has(schema)) return 1;
      this.open.add(schema);
      const ref = schema.$ref;
      const size = this.minSize(this.resolveRef(ref), ref.startsWith('#') ? decodePercentOrKeep(ref.slice(1)) : place);
      this.open.delete(schema);
      return size;
    }
    const known = this.sizes.get(schema);
    if (known !== undefined) return known;
    if (this.open.has(schema)) return 1; // recursion: the data generator cuts it
    this.open.add(schema);
    const { size, inner } = this.measure(schema, place);
    this.open.delete(schema);
    this.sizes.set(schema, size);
    if (size > GENERATED_SIZE_BUDGET && inner <= GENERATED_SIZE_BUDGET) {
      this.oversized.push({
        pointer: pointerOf(place),
        reason: `its smallest valid value is about ${formatSize(size)} of JSON; generated data is capped at about ${formatSize(GENERATED_SIZE_BUDGET)}, so data generated for it is smaller than the schema asks (and fails its own check)`,
      });
    }
    return size;
  }

  /** A schema's own smallest size, and the largest of the schemas inside it (the one to blame when only the outer is too large). */
  private measure(schema: Json, place: Place): { size: number; inner: number } {
    let inner = 0;
    const child: Child = (value, key, name) => {
      const at = { parent: place, key };
      const childSize = this.minSize(value, name === undefined ? at : { parent: at, key: name });
      inner = Math.max(inner, childSize);
      return childSize;
    };
    // Arguments are evaluated in order: the schemas inside are walked as the keywords come.
    const size = Math.max(1, textSize(schema), arraySize(schema, child), objectSize(schema, child), allOfSize(schema, child), alternativesSize(schema, child));
    return { size, inner };
  }

  private resolveRef(ref: string): unknown {
    if (!this.targets.has(ref)) this.targets.set(ref, valueAtRef(this.document, ref));
    return this.targets.get(ref);
  }
}

/** What `minLength` or a repeating `pattern` asks of a string, quoted. */
function textSize(schema: Json): number {
  let size = 1;
  if (typeof schema.minLength === 'number') size = Math.max(size, schema.minLength + 2);
  if (typeof schema.pattern === 'string' && /[{*+]/.test(schema.pattern)) size = Math.max(size, patternLength(schema.pattern).min + 2);
  return size;
}

/** `minItems` of the items' smallest size, bracketed. */
function arraySize(schema: Json, child: Child): number {
  const minItems = numberOr(schema.minItems, 0);
  if (isObject(schema.items)) return Math.min(HUGE, 2 + minItems * child(schema.items, 'items'));
  return minItems > 0 ? Math.min(HUGE, 2 + minItems) : 1;
}

/** The required properties, named, at their smallest; or what `minProperties` asks. Every property is measured, required or not. */
function objectSize(schema: Json, child: Child): number {
  let size = 1;
  const properties = schema.properties;
  if (isObject(properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    let object = 2;
    for (const name in properties) {
      const propertySize = child(properties[name], 'properties', name);
      if (required.includes(name)) object = Math.min(HUGE, object + name.length + 3 + propertySize);
    }
    size = Math.max(size, object);
  }
  if (typeof schema.minProperties === 'number') size = Math.max(size, Math.min(HUGE, 2 + schema.minProperties * 4));
  return size;
}

/** Every `allOf` member at once: their sizes added. */
function allOfSize(schema: Json, child: Child): number {
  if (!Array.isArray(schema.allOf)) return 1;
  let all = 0;
  schema.allOf.forEach((member, i) => (all = Math.min(HUGE, all + child(member, 'allOf', String(i)))));
  return all;
}

/** One `anyOf` or `oneOf` member: the smallest of each list. */
function alternativesSize(schema: Json, child: Child): number {
  let size = 1;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) size = Math.max(size, Math.min(...members.map((member, i) => child(member, key, String(i)))));
  }
  return size;
}

function formatSize(units: number): string {
  if (units >= 1e12) return 'more than a terabyte';
  if (units >= 1e6) return `${Math.round(units / 1e6).toLocaleString('en-US')} MB`;
  return `${Math.round(units / 1e3).toLocaleString('en-US')} KB`;
}

/** The schemas that responses are generated from: components and every `schema` under paths. */
function forEachSchemaRoot(document: Json, visit: (schema: unknown, place: Place) => void): void {
  const components = isObject(document.components) ? document.components : {};
  if (isObject(components.schemas)) {
    for (const name in components.schemas) visit(components.schemas[name], { parent: '/components/schemas', key: name });
  }
  // An explicit stack: paths can be deep, and only `schema` values are measured.
  const stack: Array<{ node: unknown; place: Place }> = [
    { node: document.paths, place: '/paths' },
    { node: components.responses, place: '/components/responses' },
    { node: components.parameters, place: '/components/parameters' },
    { node: components.headers, place: '/components/headers' },
  ];
  while (stack.length > 0) {
    const { node, place } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    for (const key in node) {
      const value = (node as Record<string, unknown>)[key];
      if (key === 'schema') visit(value, { parent: place, key });
      else if (key !== 'example' && key !== 'examples' && typeof value === 'object' && value !== null) stack.push({ node: value, place: { parent: place, key } });
    }
  }
}
