// Compiles the schema at a pointer of an OpenAPI 3.0 / 3.1 document into the self-contained,
// ref-free JSON Schema that json-schema-faker (jsf) handles well. data-generator.ts compiles each
// pointer once and runs jsf on the result for every call.
// Longer than 300 lines on purpose: inlining, the recursion cut and the policies are one walk
// over the schema sharing its path state; split, each part would need that state passed in.
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
// - OpenAPI 3.0: `nullable: true` becomes a type array with 'null'. 3.1: `$ref` siblings are
//   applied via allOf.
// - `writeOnly` properties are removed (and dropped from `required`): the data is for responses.
// - With document values on (the default answers), a schema's own value is used as it is: its
//   `example`, else the first of its `examples` (3.1), else its `default`, else its first `enum`
//   value; only what the document leaves open is generated. Off (Prefer: dynamic=true), they are
//   set aside and everything is generated.
// - A schema with an `enum` (or `const`) is generated from those values alone: jsf merges an
//   `allOf` beside it (Discord narrows enums by `allOf` of a `oneOf` of `const`s) into values
//   outside the enum.
// - The object branches of a `oneOf` are generated with all their properties: jsf keeps only the
//   required ones there, and two branches without required properties both match `{}`.
// - Number bounds, `x-faker` and discriminators are rewritten as jsf-keywords.ts explains.
// - A string property whose schema leaves its look open takes one from its name (name-hints.ts).
import type { JsonSchema } from 'json-schema-faker';
import { compileNumberBounds, compileType, normaliseFaker, pinDiscriminator, PLAIN_KEYWORDS } from './jsf-keywords.js';
import { branchDiscriminator, branchTags } from '../common/discriminator.js';
import { createDocumentValues, type DocumentValue } from './document-value.js';
import { valueAtPointer, valueAtRef } from '../common/json-pointer.js';
import { withNameHint, type HintContext } from './name-hints.js';
import { nameWords } from './name-words.js';
import { isObject, setOwn, type Json } from '../common/json-value.js';

export interface JsfSchema {
  /** undefined when the schema has no finite instance (generation gives null). */
  schema: JsonSchema | undefined;
  /** Whether jsf will call faker (`x-faker` somewhere), so the caller seeds it. */
  usesFaker: boolean;
}

export interface JsfCompilerOptions {
  /** Use the schemas' own example, examples, default and enum values before generating. */
  documentValues: boolean;
}

export interface JsfCompiler {
  /** Compiles the schema at `pointer` (e.g. '/components/schemas/Plant'); throws when nothing is there. */
  compileForJsf(pointer: string): JsfSchema;
}

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
type Policy = (typeof POLICIES)[number];

/** Ref expansions (counted in the unfolded tree, shared ones included) allowed for one pointer. */
const EXPANSION_BUDGET = 1000;

/** Annotations (and other non-validating keys): beside a 3.1 `$ref` they add nothing to apply. */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'readOnly', 'writeOnly', 'deprecated', 'example', 'examples', 'default', 'externalDocs', 'xml', '$schema', '$id', '$anchor', '$defs', 'definitions']);

/** Marks a subschema that has no finite instance within the recursion limit. */
const CUT: unique symbol = Symbol('cut');
type Compiled = JsonSchema | typeof CUT;

/** The refs open on the current path: ref -> times open, and how many are open in all. */
interface Stack {
  counts: ReadonlyMap<string, number>;
  depth: number;
}

class BudgetExceeded extends Error {}

/** A compiler for one document; it keeps what compiles of different pointers can share. */
export function createJsfCompiler(document: object, options: JsfCompilerOptions = { documentValues: false }): JsfCompiler {
  const shared = new SharedExpansions(document as Json, options.documentValues);
  return { compileForJsf: (pointer) => compileForJsf(shared, pointer) };
}

function compileForJsf(shared: SharedExpansions, pointer: string): JsfSchema {
  const found = valueAtPointer(shared.document, pointer);
  if (found === undefined) throw new Error(`No schema at ${pointer}`);
  for (let i = 0; i < POLICIES.length; i++) {
    const last = i === POLICIES.length - 1;
    const compilation = new Compilation(shared, POLICIES[i], last ? Infinity : EXPANSION_BUDGET);
    try {
      // The schema at the pointer counts as one open expansion of the ref that names it.
      const compiled = compilation.compile(found.value, { counts: new Map([[`#${pointer}`, 1]]), depth: 0 });
      return { schema: compiled === CUT ? undefined : compiled, usesFaker: compilation.usesFaker };
    } catch (error) {
      // Anything but the budget (e.g. a stack overflow on an absurdly deep schema): give up on
      // this schema rather than fail requests; generation gives null for it.
      if (!(error instanceof BudgetExceeded)) return { schema: undefined, usesFaker: false };
    }
  }
  return { schema: undefined, usesFaker: false };
}

/**
 * What every compile of one document shares: ref targets, the refs each ref can reach, and the
 * memoised expansions (keyed by policy, so a compile that ran out of budget leaves nothing wrong
 * behind for the next policy).
 */
class SharedExpansions {
  readonly is30: boolean;
  /** Memo key (policy, ref, relevant open refs) -> compiled ref target. */
  readonly expansions = new Map<string, Compiled>();
  /** Size (in ref expansions) of each memoised expansion, charged again on every reuse. */
  readonly sizes = new Map<string, number>();
  /** Memo keys whose expansion contains `x-faker`. */
  readonly usingFaker = new Set<string>();
  /** Compiled object schema -> the writeOnly properties taken out of it (see allOfWithWriteOnly). */
  readonly writeOnlyStripped = new WeakMap<object, Set<string>>();
  private readonly reachable = new Map<string, Set<string>>();

  /** The schema's first own value that fits it (document-value.ts). */
  readonly documentValue: DocumentValue;

  /** The document's named schemas -> their names (`User`), which say what their properties are (a user's `name`). */
  private readonly schemaNames = new WeakMap<object, string>();

  constructor(readonly document: Json, readonly documentValues: boolean) {
    this.is30 = !String(document.openapi ?? '').startsWith('3.1');
    this.documentValue = createDocumentValues(this.is30);
    const named = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
    for (const [name, schema] of Object.entries(named)) if (isObject(schema)) this.schemaNames.set(schema, name);
  }

  /** What an object schema says of its properties: the words of its name, title and property names. */
  hintContext(schema: Json): HintContext {
    const names = [this.schemaNames.get(schema) ?? '', String(schema.title ?? ''), ...(isObject(schema.properties) ? Object.keys(schema.properties) : [])];
    return { around: new Set(names.flatMap(nameWords)) };
  }

  resolveRef(ref: string): unknown {
    return valueAtRef(this.document, ref);
  }

  /** Every ref reachable from `ref` (itself included when it is recursive). */
  reach(ref: string): Set<string> {
    const known = this.reachable.get(ref);
    if (known !== undefined) return known;
    const seen = new Set<string>();
    const todo = [...refsIn(this.resolveRef(ref))];
    while (todo.length > 0) {
      const next = todo.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      const memoised = this.reachable.get(next);
      if (memoised !== undefined) {
        for (const r of memoised) if (!seen.has(r)) todo.push(r);
        continue;
      }
      todo.push(...refsIn(this.resolveRef(next)));
    }
    this.reachable.set(ref, seen);
    return seen;
  }
}

/** One attempt at compiling one pointer under one policy: its state lives and dies with it. */
class Compilation {
  /** Ref expansions so far, shared ones counted at their full size. */
  private expansions = 0;
  usesFaker = false;

  constructor(private readonly shared: SharedExpansions, private readonly policy: Policy, private readonly budget: number) {}

  compile(node: unknown, stack: Stack): Compiled {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) return {};
    if (this.shared.documentValues) {
      // 3.0 ignores everything beside a `$ref`; 3.1 reads an example there as this place's own.
      const own = typeof node.$ref === 'string' && this.shared.is30 ? undefined : this.shared.documentValue(node);
      if (own !== undefined) return { const: own.value };
    }
    if (typeof node.$ref === 'string') {
      const target = this.compileRef(node.$ref, stack);
      if (target === CUT) return CUT;
      if (this.shared.is30) return target;
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
    // The expansion depends only on the open refs it can reach again (and, under a depth cap, on
    // how many are open).
    const reach = this.shared.reach(ref);
    const relevant = [...stack.counts].filter(([r]) => reach.has(r)).map(([r, n]) => `${r}=${n}`).sort();
    const memoKey = `${limit}/${depth}|${ref}|${depth === Infinity ? '' : stack.depth}|${relevant.join('|')}`;
    const cached = this.shared.expansions.get(memoKey);
    if (cached !== undefined) {
      this.charge(this.shared.sizes.get(memoKey) ?? 1);
      if (this.shared.usingFaker.has(memoKey)) this.usesFaker = true;
      return cached;
    }
    const before = this.expansions;
    this.charge(1);
    const target = this.shared.resolveRef(ref);
    const counts = new Map(stack.counts);
    counts.set(ref, open + 1);
    // usesFaker is recorded per expansion, so a reuse of it elsewhere knows too.
    const outerFaker = this.usesFaker;
    this.usesFaker = false;
    // An unresolvable ref (external, or a typo) allows anything.
    const compiled = target === undefined ? {} : this.compile(target, { counts, depth: stack.depth + 1 });
    if (this.usesFaker) this.shared.usingFaker.add(memoKey);
    this.usesFaker ||= outerFaker;
    this.shared.expansions.set(memoKey, compiled);
    this.shared.sizes.set(memoKey, this.expansions - before);
    return compiled;
  }

  private charge(expansions: number): void {
    this.expansions += expansions;
    if (this.expansions > this.budget) throw new BudgetExceeded();
  }

  private compileObject(schema: Json, stack: Stack): Compiled {
    const out: Json = {};
    const type = compileType(schema, this.shared.is30);
    if (type !== undefined) out.type = type;
    if (schema.const !== undefined) return { ...out, const: schema.const };
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return { ...out, enum: schema.enum };
    for (const k of PLAIN_KEYWORDS) if (schema[k] !== undefined) setOwn(out, k, schema[k]);
    compileNumberBounds(schema, out);
    // `x-stub-generate` is the stub's own name for the same thing (stub-hints.ts checks its method).
    const fakerSpec = schema['x-faker'] ?? schema['x-stub-generate'] ?? schema.faker;
    if (fakerSpec !== undefined) {
      out.faker = normaliseFaker(fakerSpec);
      this.usesFaker = true;
    }
    if (!this.compileObjectKeywords(schema, out, stack)) return CUT;
    if (!this.compileArrayKeywords(schema, out, stack)) return CUT;
    if (!this.compileApplicators(schema, out, stack)) return CUT;
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

  /** Object keywords into `out`; false when the object has no finite instance. */
  private compileObjectKeywords(schema: Json, out: Json, stack: Stack): boolean {
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const strippedWriteOnly = new Set<string>();
    if (isObject(schema.properties)) {
      const properties: Json = {};
      const context = this.shared.hintContext(schema);
      for (const [name, sub] of Object.entries(schema.properties)) {
        if (this.isWriteOnly(sub)) {
          strippedWriteOnly.add(name);
          required.delete(name);
          continue;
        }
        const compiled = this.compile(sub, stack);
        if (compiled === CUT) {
          if (required.has(name)) return false;
          continue;
        }
        const hinted = withNameHint(name, compiled, context, sub);
        this.usesFaker ||= hinted.usesFaker;
        setOwn(properties, name, hinted.schema);
      }
      out.properties = properties;
    }
    if (required.size > 0) out.required = [...required];
    if (strippedWriteOnly.size > 0) this.shared.writeOnlyStripped.set(out, strippedWriteOnly);
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
        if (compiled === CUT) return false;
        setOwn(dependentSchemas, name, compiled);
      }
      out.dependentSchemas = dependentSchemas;
    }
    return true;
  }

  /** Array keywords into `out`; false when the array has no finite instance. */
  private compileArrayKeywords(schema: Json, out: Json, stack: Stack): boolean {
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
    if (tuple !== undefined) {
      const prefixItems: JsonSchema[] = [];
      for (const sub of tuple) {
        const compiled = this.compile(sub, stack);
        if (compiled === CUT) return false;
        prefixItems.push(compiled);
      }
      out.prefixItems = prefixItems;
    }
    if (schema.items !== undefined && !Array.isArray(schema.items)) {
      const compiled = this.compile(schema.items, stack);
      if (compiled === CUT) {
        if (typeof schema.minItems === 'number' && schema.minItems > 0) return false;
        out.maxItems = 0;
      } else {
        out.items = compiled;
      }
    }
    if (schema.contains !== undefined) {
      const compiled = this.compile(schema.contains, stack);
      if (compiled === CUT) return false;
      out.contains = compiled;
    }
    return true;
  }

  /** not, if/then/else, anyOf and oneOf into `out` (allOf is the caller's); false when nothing is left. */
  private compileApplicators(schema: Json, out: Json, stack: Stack): boolean {
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
    const discriminator = Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) ? branchDiscriminator(this.shared.document, schema) : null;
    for (const k of ['anyOf', 'oneOf'] as const) {
      const branches = schema[k];
      if (!Array.isArray(branches)) continue;
      const compiled: JsonSchema[] = [];
      for (const branch of branches) {
        const c = this.compile(branch, stack);
        if (c === CUT) continue;
        const rich = k === 'oneOf' ? withAllProperties(c) : c;
        compiled.push(discriminator ? pinDiscriminator(discriminator.propertyName, branchTags(this.shared.document, discriminator, branch), rich) : rich);
      }
      if (compiled.length === 0) return false;
      if (k === 'oneOf' && !discriminator && onlyEmptyObjectFits(compiled)) {
        out.oneOf = [EMPTY_OBJECT];
        continue;
      }
      // Pinned branches are told apart by the pin, so jsf need not reduce them to required properties.
      out[k === 'oneOf' && discriminator ? 'anyOf' : k] = compiled;
    }
    return true;
  }

  /**
   * `{ ...base, allOf: branches }`, with properties some branch removed as writeOnly also taken out
   * of the other branches' `required` (jsf merges allOf branches, unioning `required`).
   */
  private allOfWithWriteOnly(branches: JsonSchema[], base: Json): Json {
    const { writeOnlyStripped } = this.shared;
    const stripped = new Set<string>(writeOnlyStripped.get(base) ?? []);
    for (const b of branches) if (isObject(b)) for (const n of writeOnlyStripped.get(b) ?? []) stripped.add(n);
    const strip = (s: JsonSchema): JsonSchema => {
      if (stripped.size === 0 || !isObject(s) || !Array.isArray(s.required)) return s;
      if (!s.required.some((r) => stripped.has(r as string))) return s;
      return { ...s, required: s.required.filter((r) => !stripped.has(r as string)) };
    };
    const out = strip(base) as Json;
    const result: Json = { ...out, allOf: branches.map(strip) };
    if (stripped.size > 0) writeOnlyStripped.set(result, stripped);
    return result;
  }

  private isWriteOnly(schema: unknown): boolean {
    if (!isObject(schema)) return false;
    if (schema.writeOnly === true) return true;
    if (typeof schema.$ref === 'string') {
      const target = this.shared.resolveRef(schema.$ref);
      return isObject(target) && target.writeOnly === true;
    }
    return false;
  }
}

const EMPTY_OBJECT: JsonSchema = { type: 'object', maxProperties: 0 };
/** Keywords that say nothing about an object (a compiled schema may carry other types' keywords). */
const NOT_FOR_OBJECTS = new Set(['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format']);

/**
 * Whether one branch takes any object (GitHub's event payload lists PublicEvent, `{type:
 * object}`, beside fifteen event shapes) while every other branch requires a property or is not
 * an object: any object another branch describes matches that one too, so the only value that
 * matches exactly one branch is an object no other branch takes, the empty one.
 */
function onlyEmptyObjectFits(branches: JsonSchema[]): boolean {
  const takesAnyObject = (branch: JsonSchema) => isObject(branch) && branch.type === 'object'
    && Object.keys(branch).every((key) => NOT_FOR_OBJECTS.has(key) || (key === 'properties' && isObject(branch.properties) && Object.keys(branch.properties).length === 0));
  const open = branches.filter(takesAnyObject);
  if (open.length !== 1) return false;
  return branches.every((branch) => open.includes(branch) || (isObject(branch) && ((Array.isArray(branch.required) && branch.required.length > 0) || (typeof branch.type === 'string' && branch.type !== 'object'))));
}

/** An object branch with every property it lists required, so jsf generates them all. */
function withAllProperties(branch: JsonSchema): JsonSchema {
  if (!isObject(branch) || !isObject(branch.properties)) return branch;
  const names = Object.keys(branch.properties);
  if (names.length === 0) return branch;
  const required = new Set([...(Array.isArray(branch.required) ? branch.required as string[] : []), ...names]);
  return { ...branch, required: [...required] };
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
