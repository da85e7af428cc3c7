// Deterministic response data from the JSON Schemas of an OpenAPI 3.0 / 3.1 document.
//
// json-schema-faker (jsf) 0.6 does the value generation; this module prepares what jsf sees. Each
// schema is compiled once per pointer into a self-contained, ref-free JSON Schema that jsf handles
// well, then every call runs jsf (and the shared faker instance, for `x-faker`) from a seed derived
// from hash(seed, pointer, key), so a call never depends on what was generated before it.
//
// What compilation does, and why:
// - `$ref`s (internal `#/...` only) are inlined. jsf can resolve refs itself, but its recursion cut
//   substitutes `{}` (any type) or `{type: 'null'}` at the cut, and its maxDepth cut fills required
//   properties with '' / 0, which breaks minLength, formats and the like. Inlining lets the cut
//   happen where the schema allows it: an optional property is dropped, an array gets
//   `maxItems: 0`, an anyOf/oneOf branch is removed. A ref may be open at most twice on one path
//   (the schema at the pointer counts as its own ref), so a tree comes out two levels deep; when
//   the unfolded schema would exceed a budget, stricter policies apply (see POLICIES).
//   Expansions that do not depend on the refs above them are shared, so a ref used in many places
//   is compiled once.
// - Only JSON Schema keywords are kept. jsf treats unknown keys of a property-less object schema as
//   properties (so `example`, `nullable`, `x-*`, `discriminator` would leak into the data).
// - OpenAPI 3.0: `nullable: true` becomes a type array with 'null'; boolean exclusiveMinimum /
//   exclusiveMaximum become the numeric form. 3.1 `$ref` siblings are applied via allOf.
// - `writeOnly` properties are removed (and dropped from `required`): the data is for responses.
// - `x-faker` becomes jsf's `faker` keyword. jsf calls `faker.<path>(...args)` and spreads the
//   value as arguments, so the object form `{ 'number.int': { max: 10 } }` is wrapped into
//   `[{ max: 10 }]`. An unknown faker path makes jsf fall back to ordinary generation.
// - Number bounds: jsf draws from [-1000, 1000] unless bounded, so a lone `minimum: 5000` would give
//   values below it; the missing side is added (bound +/- 1000).
// - A oneOf with a `discriminator` becomes an anyOf whose branches pin the discriminator property
//   to their mapping value. (jsf generates oneOf branches with required properties only, to keep
//   them apart; the pinned property keeps them apart instead, so the data stays rich.)
//
// Decisions:
// - Optional properties are always generated (optionalsProbability 1), so responses are rich.
//   Arrays get 1..3 items (never fewer than minItems, never more than maxItems).
// - `example`, `examples` and `default` are ignored: examples are served elsewhere, this is for
//   data the document does not spell out.
// - Nullable values are null with jsf's natural odds (one of the listed types).

import type { JsonSchema } from 'json-schema-faker';
import type { Faker, Randomizer } from '@faker-js/faker';
import { generatorLibraries } from './generator-libraries.js';

export interface DataGenerator {
  /**
   * Generates a value for the schema at `pointer` (a JSON pointer into the document, e.g.
   * '/components/schemas/Plant'). `key` identifies the request; with a seed, the same
   * (seed, pointer, key) always gives the same value, regardless of what was generated before.
   * Without a seed, values are random. Throws only when nothing exists at `pointer`.
   */
  generate(pointer: string, key: string): unknown;
}

export interface DataGeneratorOptions {
  seed?: number;
}

type Json = Record<string, unknown>;
type Compiled = JsonSchema | typeof CUT;

/** Marks a subschema that has no finite instance within the recursion limit. */
const CUT: unique symbol = Symbol('cut');

/**
 * How deep refs are unfolded. A ref may be open `limit` times on one path, and at most `depth` refs
 * may be open at once. The first policy whose unfolded schema stays within EXPANSION_BUDGET ref
 * expansions is used; the last one (no refs below the top) always fits.
 */
const POLICIES = [
  { limit: 2, depth: Infinity },
  { limit: 1, depth: Infinity },
  { limit: 1, depth: 6 },
  { limit: 1, depth: 3 },
  { limit: 1, depth: 1 },
  { limit: 1, depth: 0 },
] as const;
/** Ref expansions (counted in the unfolded tree, shared ones included) allowed for one pointer. */
const EXPANSION_BUDGET = 1000;

/** The refs open on the current path: ref -> times open, and how many are open in all. */
interface Stack {
  counts: ReadonlyMap<string, number>;
  depth: number;
}

/** Unbounded numbers are drawn from [-JSF_RANGE, JSF_RANGE] by jsf. */
const JSF_RANGE = 1000;

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'readOnly', 'writeOnly', 'deprecated', 'example', 'examples', 'default', 'externalDocs', 'xml', '$schema', '$id', '$anchor', '$defs', 'definitions']);

/** Keywords copied unchanged. */
const PLAIN_KEYWORDS = [
  'const', 'enum', 'format', 'pattern', 'minLength', 'maxLength', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains',
  'minProperties', 'maxProperties', 'dependentRequired',
] as const;

const KNOWN_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** Formats OpenAPI uses that jsf 0.6 has no generator for (it would emit a random string). */
const EXTRA_FORMATS: Record<string, (random: JsfRandom) => string> = {
  byte: (random) => {
    const bytes = Buffer.alloc(random.int(1, 4) * 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(0, 255);
    return bytes.toString('base64');
  },
  binary: (random) => randomWord(random, 8, 16),
  password: (random) => randomWord(random, 10, 16),
  regex: (random) => `^[a-z]{${random.int(1, 5)}}$`,
  'uri-template': (random) => `https://example.com/${randomWord(random, 3, 8)}/{id}`,
};

interface JsfRandom {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

const WORD_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

function randomWord(random: JsfRandom, min: number, max: number): string {
  let word = '';
  for (let n = random.int(min, max); n > 0; n--) word += random.pick(WORD_CHARS);
  return word;
}

interface CompiledEntry {
  /** undefined when the schema has no finite instance (generation returns null). */
  schema: JsonSchema | undefined;
  usesFaker: boolean;
}

class BudgetExceeded extends Error {}

export function createDataGenerator(document: object, options: DataGeneratorOptions = {}): DataGenerator {
  return new SchemaDataGenerator(document as Json, options.seed);
}

class SchemaDataGenerator implements DataGenerator {
  private readonly is30: boolean;
  private readonly entries = new Map<string, CompiledEntry>();
  private fakerInstance: Faker | null = null;
  private readonly jsfOptions;

  // Compilation state.
  /** Memo key (policy, ref, relevant open refs) -> compiled ref target. */
  private readonly refMemo = new Map<string, Compiled>();
  private readonly reachMemo = new Map<string, Set<string>>();
  /** Memo keys whose expansion contains `x-faker`. */
  private readonly refUsesFaker = new Set<string>();
  private readonly writeOnlyStripped = new WeakMap<object, Set<string>>();
  /** Size (in ref expansions) of each memoised expansion. */
  private readonly refSize = new Map<string, number>();
  private policy: (typeof POLICIES)[number] = POLICIES[0];
  private expansions = 0;
  private budget: number = Infinity;
  private usesFaker = false;

  constructor(private readonly document: Json, private readonly seed: number | undefined) {
    this.is30 = !String(document.openapi ?? '').startsWith('3.1');
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter below reads the lazily built faker
    const self = this;
    this.jsfOptions = {
      extensions: { get faker() { return self.faker; } },
      optionalsProbability: 1,
      alwaysFakeOptionals: false,
      minItems: 1,
      maxDefaultItems: 3,
      maxDepth: 256,
      useDefaultValue: false,
      useExamplesValue: false,
      failOnInvalidTypes: false,
      formats: EXTRA_FORMATS as Record<string, (random: unknown) => string>,
    };
  }

  /** Built on first use: faker is loaded lazily (see generator-libraries.ts). */
  private get faker(): Faker {
    return (this.fakerInstance ??= generatorLibraries().createFaker(cheapRandomizer()));
  }

  generate(pointer: string, key: string): unknown {
    const { generateSync } = generatorLibraries();
    let entry = this.entries.get(pointer);
    if (entry === undefined) {
      entry = this.compileEntry(pointer);
      this.entries.set(pointer, entry);
    }
    if (entry.schema === undefined) return null;
    const callSeed = this.seed === undefined
      ? Math.floor(Math.random() * 0x1_0000_0000)
      : fnv1a(`${this.seed}\u0000${pointer}\u0000${key}`);
    // generateSync is synchronous, so nothing else can use (or reseed) the faker instance until it
    // returns; jsf builds its own PRNG from `seed` on every call and keeps no state between calls.
    if (entry.usesFaker) this.faker.seed(callSeed);
    try {
      return generateSync(entry.schema, { ...this.jsfOptions, seed: callSeed | 0 });
    } catch {
      // jsf throws on schemas it cannot satisfy (e.g. required properties missing from `properties`
      // while additionalProperties is false, enum values that contradict other constraints).
      // Best effort: null.
      return null;
    }
  }

  private compileEntry(pointer: string): CompiledEntry {
    const found = resolvePointer(this.document, pointer);
    if (!found.ok) throw new Error(`No schema at ${pointer}`);
    for (let i = 0; i < POLICIES.length; i++) {
      this.policy = POLICIES[i];
      this.budget = i < POLICIES.length - 1 ? EXPANSION_BUDGET : Infinity;
      this.expansions = 0;
      this.usesFaker = false;
      try {
        // The schema at the pointer counts as one open expansion of the ref that names it.
        const compiled = this.compile(found.value, { counts: new Map([[`#${pointer}`, 1]]), depth: 0 });
        return { schema: compiled === CUT ? undefined : compiled, usesFaker: this.usesFaker };
      } catch (error) {
        // Anything but the budget (e.g. a stack overflow on an absurdly deep schema): give up on
        // this schema rather than fail requests; generate() returns null for it.
        if (!(error instanceof BudgetExceeded)) return { schema: undefined, usesFaker: false };
      }
    }
    return { schema: undefined, usesFaker: false };
  }

  private compile(node: unknown, stack: Stack): Compiled {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return {};
    if (typeof node.$ref === 'string') {
      const target = this.compileRef(node.$ref, stack);
      if (target === CUT) return CUT;
      if (this.is30) return target;
      // 3.1: keywords next to $ref apply too.
      const siblings: Json = {};
      let hasSiblings = false;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' || ANNOTATIONS.has(k)) continue;
        setOwn(siblings, k, v);
        hasSiblings = true;
      }
      if (!hasSiblings) return target;
      const extra = this.compileObject(siblings, stack);
      if (extra === CUT) return CUT;
      return this.allOfWithWriteOnly([target, extra], {});
    }
    return this.compileObject(node, stack);
  }

  private compileRef(ref: string, stack: Stack): Compiled {
    const open = stack.counts.get(ref) ?? 0;
    const { limit, depth } = this.policy;
    if (open >= limit || stack.depth >= depth) return CUT;
    const policyKey = `${limit}/${depth}`;
    // The expansion depends only on the open refs it can reach again (and, under a depth cap, on
    // how many are open).
    const reach = this.reach(ref);
    const relevant = [...stack.counts].filter(([r]) => reach.has(r)).map(([r, n]) => `${r}=${n}`).sort();
    const memoKey = `${policyKey}|${ref}|${depth === Infinity ? '' : stack.depth}|${relevant.join('|')}`;
    const cached = this.refMemo.get(memoKey);
    if (cached !== undefined) {
      this.expansions += this.refSize.get(memoKey) ?? 1;
      if (this.expansions > this.budget) throw new BudgetExceeded();
      if (this.refUsesFaker.has(memoKey)) this.usesFaker = true;
      return cached;
    }
    const before = this.expansions;
    if (++this.expansions > this.budget) throw new BudgetExceeded();
    const target = this.resolveRef(ref);
    const counts = new Map(stack.counts);
    counts.set(ref, open + 1);
    const outerFaker = this.usesFaker;
    this.usesFaker = false;
    // An unresolvable ref (external, or a typo) allows anything.
    const compiled = target === undefined ? {} : this.compile(target, { counts, depth: stack.depth + 1 });
    if (this.usesFaker) this.refUsesFaker.add(memoKey);
    this.usesFaker ||= outerFaker;
    this.refMemo.set(memoKey, compiled);
    this.refSize.set(memoKey, this.expansions - before);
    return compiled;
  }

  private resolveRef(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined;
    let fragment: string;
    try {
      fragment = decodeURIComponent(ref.slice(1));
    } catch {
      return undefined;
    }
    const found = resolvePointer(this.document, fragment);
    return found.ok ? found.value : undefined;
  }

  /** Every ref reachable from `ref` (itself included when it is recursive). */
  private reach(ref: string): Set<string> {
    const known = this.reachMemo.get(ref);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const todo = [...refsIn(this.resolveRef(ref))];
    while (todo.length > 0) {
      const next = todo.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const memoised = this.reachMemo.get(next);
      if (memoised !== undefined) {
        for (const r of memoised) if (!seen.has(r)) todo.push(r);
        seen.add(next);
        continue;
      }
      todo.push(...refsIn(this.resolveRef(next)));
    }
    this.reachMemo.set(ref, seen);
    return seen;
  }

  private compileObject(schema: Json, stack: Stack): Compiled {
    const out: Json = {};

    // type, with 3.0 nullable folded in.
    if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
      let types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is string => typeof t === 'string');
      if (this.is30 && schema.nullable === true && !types.includes('null')) types = [...types, 'null'];
      // Unknown type names are dropped; if none is known, jsf (failOnInvalidTypes: false) gives null.
      const known = types.filter((t) => KNOWN_TYPES.has(t));
      if (known.length > 0) types = known;
      if (types.length > 0) out.type = types.length === 1 ? types[0] : types;
    }

    for (const k of PLAIN_KEYWORDS) if (schema[k] !== undefined) setOwn(out, k, schema[k]);
    this.compileNumberBounds(schema, out);

    const fakerSpec = schema['x-faker'] ?? schema.faker;
    if (fakerSpec !== undefined) {
      out.faker = normaliseFaker(fakerSpec);
      this.usesFaker = true;
    }

    // Object keywords.
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const strippedWriteOnly = new Set<string>();
    if (isObject(schema.properties)) {
      const properties: Json = {};
      for (const [name, sub] of Object.entries(schema.properties)) {
        if (this.isWriteOnly(sub)) {
          strippedWriteOnly.add(name);
          required.delete(name);
          continue;
        }
        const compiled = this.compile(sub, stack);
        if (compiled === CUT) {
          if (required.has(name)) return CUT;
          continue;
        }
        setOwn(properties, name, compiled);
      }
      out.properties = properties;
    }
    if (required.size > 0) out.required = [...required];
    if (isObject(schema.patternProperties)) {
      const patternProperties: Json = {};
      for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
        const compiled = this.compile(sub, stack);
        if (compiled !== CUT) setOwn(patternProperties, pattern, compiled);
      }
      out.patternProperties = patternProperties;
    }
    if (schema.additionalProperties !== undefined) {
      const compiled = this.compile(schema.additionalProperties, stack);
      out.additionalProperties = compiled === CUT ? false : compiled;
      // A map schema (no named properties) would come out as {}; ask for at least one entry.
      if (isObject(out.additionalProperties) && out.properties === undefined && out.patternProperties === undefined
        && schema.propertyNames === undefined && (typeof out.maxProperties !== 'number' || out.maxProperties >= 1)
        && out.minProperties === undefined) {
        out.minProperties = 1;
      }
    }
    if (schema.propertyNames !== undefined) {
      const compiled = this.compile(schema.propertyNames, stack);
      if (compiled !== CUT) out.propertyNames = compiled;
    }
    if (isObject(schema.dependentSchemas)) {
      const dependentSchemas: Json = {};
      for (const [name, sub] of Object.entries(schema.dependentSchemas)) {
        const compiled = this.compile(sub, stack);
        if (compiled === CUT) return CUT;
        setOwn(dependentSchemas, name, compiled);
      }
      out.dependentSchemas = dependentSchemas;
    }

    // Array keywords.
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
    if (tuple !== undefined) {
      const prefixItems: JsonSchema[] = [];
      for (const sub of tuple) {
        const compiled = this.compile(sub, stack);
        if (compiled === CUT) return CUT;
        prefixItems.push(compiled);
      }
      out.prefixItems = prefixItems;
    }
    if (schema.items !== undefined && !Array.isArray(schema.items)) {
      const compiled = this.compile(schema.items, stack);
      if (compiled === CUT) {
        if (typeof schema.minItems === 'number' && schema.minItems > 0) return CUT;
        out.maxItems = 0;
      } else {
        out.items = compiled;
      }
    }
    if (schema.contains !== undefined) {
      const compiled = this.compile(schema.contains, stack);
      if (compiled === CUT) return CUT;
      out.contains = compiled;
    }

    // Applicators.
    if (schema.not !== undefined) {
      const compiled = this.compile(schema.not, stack);
      if (compiled !== CUT) out.not = compiled;
    }
    if (schema.if !== undefined) {
      const cond = this.compile(schema.if, stack);
      const then = schema.then === undefined ? undefined : this.compile(schema.then, stack);
      const otherwise = schema.else === undefined ? undefined : this.compile(schema.else, stack);
      if (cond !== CUT && then !== CUT && otherwise !== CUT) {
        out.if = cond;
        if (then !== undefined) out.then = then;
        if (otherwise !== undefined) out.else = otherwise;
      }
    }
    for (const k of ['anyOf', 'oneOf'] as const) {
      const branches = schema[k];
      if (!Array.isArray(branches)) continue;
      const compiled: JsonSchema[] = [];
      for (const branch of branches) {
        let c = this.compile(branch, stack);
        if (c === CUT) continue;
        c = this.pinDiscriminator(schema, branch, c);
        compiled.push(c);
      }
      if (compiled.length === 0) return CUT;
      const pinned = k === 'oneOf' && isObject(schema.discriminator) && typeof schema.discriminator.propertyName === 'string';
      out[pinned ? 'anyOf' : k] = compiled;
    }

    if (strippedWriteOnly.size > 0) this.writeOnlyStripped.set(out, strippedWriteOnly);

    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const branches: JsonSchema[] = [];
      for (const branch of schema.allOf) {
        const compiled = this.compile(branch, stack);
        if (compiled === CUT) return CUT;
        branches.push(compiled);
      }
      return this.allOfWithWriteOnly(branches, out);
    }
    return out;
  }

  /**
   * `{ ...base, allOf: branches }`, with properties some branch removed as writeOnly also taken out
   * of the other branches' `required` (jsf merges allOf branches, unioning `required`).
   */
  private allOfWithWriteOnly(branches: JsonSchema[], base: Json): Json {
    const stripped = new Set<string>(this.writeOnlyStripped.get(base) ?? []);
    for (const b of branches) if (isObject(b)) for (const n of this.writeOnlyStripped.get(b) ?? []) stripped.add(n);
    const strip = (s: JsonSchema): JsonSchema => {
      if (stripped.size === 0 || !isObject(s) || !Array.isArray(s.required)) return s;
      if (!s.required.some((r) => stripped.has(r as string))) return s;
      return { ...s, required: s.required.filter((r) => !stripped.has(r as string)) };
    };
    const out = strip(base) as Json;
    const result: Json = { ...out, allOf: branches.map(strip) };
    if (stripped.size > 0) this.writeOnlyStripped.set(result, stripped);
    return result;
  }

  /** For a branch of a oneOf/anyOf with a discriminator, pins the discriminator property. */
  private pinDiscriminator(parent: Json, branch: unknown, compiled: JsonSchema): JsonSchema {
    const discriminator = parent.discriminator;
    if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string') return compiled;
    if (!isObject(branch) || typeof branch.$ref !== 'string') return compiled;
    const ref = branch.$ref;
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    let value: string = name;
    if (isObject(discriminator.mapping)) {
      for (const [k, v] of Object.entries(discriminator.mapping)) {
        if (v === ref || v === name) {
          value = k;
          break;
        }
      }
    }
    const prop = discriminator.propertyName;
    const pin: Json = { type: 'object', properties: {}, required: [prop] };
    setOwn(pin.properties as Json, prop, { const: value });
    return { allOf: [compiled, pin] };
  }

  private isWriteOnly(schema: unknown): boolean {
    if (!isObject(schema)) return false;
    if (schema.writeOnly === true) return true;
    if (typeof schema.$ref === 'string') {
      const target = this.resolveRef(schema.$ref);
      return isObject(target) && target.writeOnly === true;
    }
    return false;
  }

  private compileNumberBounds(schema: Json, out: Json): void {
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
    if (minimum !== undefined) out.minimum = minimum;
    if (maximum !== undefined) out.maximum = maximum;
    if (exclusiveMinimum !== undefined) out.exclusiveMinimum = exclusiveMinimum;
    if (exclusiveMaximum !== undefined) out.exclusiveMaximum = exclusiveMaximum;
  }
}

/**
 * faker's default Mersenne Twister takes ~80 µs to seed, more than a whole small generate() call;
 * this one (mulberry32) seeds for free. Good enough for fake data. (faker calls `next` unbound,
 * hence the closure.)
 */
function cheapRandomizer(): Randomizer {
  let state = 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
    },
    seed(seed: number | number[]): void {
      state = Array.isArray(seed) ? seed.reduce((h, n) => Math.imul(h ^ n, 0x01000193), 0x811c9dc5) : seed | 0;
    },
  };
}

/** jsf calls `faker.<path>(...args)`; accepts 'a.b', { 'a.b': args } and { 'a.b': [args...] }. */
function normaliseFaker(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const [path] = Object.keys(spec);
  if (path === undefined) return spec;
  const args = spec[path];
  if (args === undefined || args === null) return path;
  return { [path]: Array.isArray(args) ? args : [args] };
}

/** All `$ref` strings directly inside a schema (not following them). */
function refsIn(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) refsIn(item, out);
  } else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else if (typeof v === 'object' && v !== null) refsIn(v, out);
    }
  }
  return out;
}

function resolvePointer(document: unknown, pointer: string): { ok: true; value: unknown } | { ok: false } {
  if (pointer === '' || pointer === '/') return pointer === '' ? { ok: true, value: document } : { ok: false };
  if (!pointer.startsWith('/')) return { ok: false };
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) return { ok: false };
      node = node[Number(token)];
    } else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) {
      node = node[token];
    } else {
      return { ok: false };
    }
  }
  return { ok: true, value: node };
}

/** 32-bit FNV-1a over the UTF-16 code units of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Assignment that keeps a `__proto__` key an own property. */
function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
