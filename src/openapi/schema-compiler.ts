// Compiles the JSON Schemas of a loaded document into validators that return violations as
// `<JSON pointer>: <reason>` strings. Ajv does the validating: 2020-12 for OpenAPI 3.1, draft-04
// (with OpenAPI's `nullable`) for 3.0. One keyword of our own checks integers against their exact
// text, because a double cannot tell 9223372036854775807 from 9223372036854775808.
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import type { Ajv, ErrorObject, KeywordDefinition, Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { exactInteger } from '../common/exact-json.js';
import { describeViolation } from './describe-violation.js';
import { ajvWording } from './ajv-wording.js';
import type { LoadedDocument } from './load-document.js';
import { isObject } from '../common/json-value.js';
import { re2 } from './re2.js';
import { EXACT_INTEGER, validationCopy } from './validation-copy.js';
import type { Warn } from './document-warnings.js';
import { followRefs } from './follow-ref.js';
import { uniqueItemsKeyword } from './unique-items-keyword.js';
import type { Steps } from '../common/slices.js';

// CommonJS default exports, seen through NodeNext's ESM interop.
const AjvDraft04 = AjvDraft04Module as unknown as { default: new (options: AjvOptions) => Ajv };
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

/** Validates a value; `rawNumbers` holds the exact text of numbers a double rounds (pointer -> text). */
export type Validator = (value: unknown, rawNumbers?: ReadonlyMap<string, string>) => string[];

export interface SchemaCompiler {
  /**
   * Compiles the schema at `pointer` (e.g. `/components/schemas/Plant`). Violations are prefixed
   * with `prefix` (e.g. `/query`), so a client sees where in the request the problem is.
   */
  compile(pointer: string, prefix?: string): Validator;
  /** Compiles a schema built by the stub whose `$ref`s point into the document. */
  compileSchema(schema: object, prefix?: string, coerce?: boolean): Validator;
  /** A `$ref` to the schema at `pointer`, shared by every place that holds the same schema. */
  refTo(pointer: string): { $ref: string };
  /**
   * Compiles every validator handed out so far and not yet used (validators compile on first use),
   * one per step: a reload runs them in slices (one validator can take tens of milliseconds).
   */
  compilePending(): Steps<void>;
}

const SPEC_ID = 'urn:plant-store-stub:spec';
const NO_RAW_NUMBERS: ReadonlyMap<string, string> = new Map();

const INTEGER_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * `madeCopy`: the document's validation copy when it was made ahead (a reload makes it in a worker
 * thread); `wording`: how violations read (the compat policy's, see config/compat-policy.ts).
 */
export function createSchemaCompiler(spec: LoadedDocument, warn: Warn, madeCopy?: object, wording: 'stub' | 'ajv' = 'stub'): SchemaCompiler {
  const copy = madeCopy ?? validationCopy(spec.document, spec.version, spec.file, warn);
  const strict = createAjv(spec, copy, false);
  // Parameters arrive as text; a second instance coerces them to their schema's types. Built only
  // for documents that have parameters or response headers, since each instance costs start-up time.
  let coercing: Ajv | null = null;
  const schemas: DocumentSchemas = { spec, warn, describe: wording === 'ajv' ? ajvWording : describeViolation, compiled: new Map(), canonical: new Map(), pending: new Set() };
  return {
    compile: (pointer, prefix = '') => {
      let target = '';
      return lazyValidator(schemas, () => `ref:${(target = canonicalPointer(schemas, pointer))}`, () => strict.compile(refTo(target)), prefix, pointer);
    },
    compileSchema: (schema, prefix = '', coerce = false) => {
      const ajv = () => (coerce ? (coercing ??= createAjv(spec, copy, true)) : strict);
      return lazyValidator(schemas, () => `${coerce ? 'coerce' : 'strict'}:${JSON.stringify(schema)}`, () => ajv().compile(schema), prefix, firstRefPointer(schema));
    },
    refTo: (pointer) => refTo(canonicalPointer(schemas, pointer)),
    compilePending: function* () {
      for (const compileOne of [...schemas.pending]) {
        compileOne();
        yield;
      }
    },
  };
}

/** What the validators of one document share. */
interface DocumentSchemas {
  spec: LoadedDocument;
  warn: Warn;
  /** How a violation reads (the compat policy's wording). */
  describe: (error: ErrorObject, prefix: string) => string;
  /**
   * Documents repeat themselves (the same $ref, the same inline schema in many operations); each
   * distinct schema is compiled once, so start-up grows with distinct schemas, not operations.
   */
  compiled: Map<string, AnyValidate>;
  /** A schema (its pointer under /components/, else its JSON) -> the first pointer found holding it. */
  canonical: Map<string, string>;
  /** The validators handed out and not yet compiled, each its own compiling. */
  pending: Set<() => void>;
}

/** The first pointer holding the same schema as `pointer`, after following bare `$ref`s. */
function canonicalPointer({ spec, canonical }: DocumentSchemas, pointer: string): string {
  const target = followBareRefs(spec, pointer);
  const key = target.pointer.startsWith('/components/') ? target.pointer : JSON.stringify(target.schema);
  let first = canonical.get(key);
  if (first === undefined) canonical.set(key, (first = target.pointer));
  return first;
}

/**
 * A validator compiled on first use (or by compilePending): compiling every schema of a big document
 * at start delayed its first answer by seconds and held far more memory (docs/benchmark.md), while a
 * stub usually serves a few of its operations.
 */
function lazyValidator(schemas: DocumentSchemas, key: () => string, build: () => AnyValidate, prefix: string, pointer: string): Validator {
  const { spec, warn, describe, compiled, pending } = schemas;
  let validate: AnyValidate | null = null;
  const compileOnce = (): AnyValidate => {
    pending.delete(compileOnce);
    try {
      if (validate !== null) return validate;
      const distinct = key();
      validate = compiled.get(distinct) ?? null;
      if (validate === null) compiled.set(distinct, (validate = build()));
      return validate;
    } catch (error) {
      // Found on first use, so it cannot stop the start: like the document's other flaws, a
      // schema Ajv refuses is a warning, and what it describes is not checked.
      warn({ file: spec.file, pointer, kind: 'schema that cannot be compiled', reason: `Ajv cannot compile this schema (${String((error as Error).message).split('\n')[0]}); it is not enforced` });
      return (validate = acceptAnything);
    }
  };
  pending.add(compileOnce);
  // A schema that reaches itself without going into the value (`A: {allOf: [A, …]}`) compiles, but
  // its validator calls itself for ever whatever the value: a flaw of the document, warned of once
  // and not enforced from then on, as a schema Ajv refuses is. Told apart from a value nested deeper
  // than the stack (bodies are capped at 512 levels, so hardly ever) by trying `null` too: that one
  // value is refused, and the schema keeps being checked.
  const overflowed = (run: AnyValidate, error: unknown): string[] => {
    if (!(error instanceof RangeError)) throw error;
    try {
      run.call({ rawNumbers: NO_RAW_NUMBERS }, null);
      return [`${prefix || '/'}: is nested too deeply to be checked`];
    } catch (again) {
      if (!(again instanceof RangeError)) throw again;
      warn({ file: spec.file, pointer, kind: 'schema that cannot be compiled', reason: 'its validator calls itself without end (the schema reaches itself through allOf, anyOf, oneOf or $ref without going into the value); it is not enforced' });
      validate = acceptAnything;
      return [];
    }
  };
  return (value, rawNumbers = NO_RAW_NUMBERS) => {
    const run = validate ?? compileOnce();
    try {
      if (run.call({ rawNumbers }, value)) return [];
    } catch (error) {
      return overflowed(run, error);
    }
    return capped(unique((run.errors ?? []).map((error) => describe(error, prefix))));
  };
}

type AnyValidate = ReturnType<Ajv['compile']>;

const acceptAnything = Object.assign(() => true, { errors: null }) as unknown as AnyValidate;

/** The document pointer of the first `$ref` in a schema the stub built, to name it in a warning. */
function firstRefPointer(schema: object): string {
  const ref = /"\$ref":"urn:plant-store-stub:spec#([^"]*)"/.exec(JSON.stringify(schema))?.[1];
  return ref === undefined ? '' : decodeURIComponent(ref);
}

/**
 * Follows a chain of bare `$ref`s from `pointer` (in 3.1, a `$ref` with only annotations beside
 * it; in 3.0 siblings of `$ref` are ignored anyway) to the schema that does the work.
 */
function followBareRefs(spec: LoadedDocument, pointer: string): { pointer: string; schema: unknown } {
  const isBareRef = (schema: unknown): schema is { $ref: string } => {
    if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#')) return false;
    return spec.version === '3.0' || Object.keys(schema).every((key) => ANNOTATIONS.has(key));
  };
  const target = followRefs(spec, spec.resolveRef(`#${encodePointer(pointer)}`), pointer, isBareRef);
  return { pointer: target.pointer, schema: target.value };
}

const ANNOTATIONS = new Set(['$ref', 'description', 'summary']);

/** Turns a JSON pointer into a URI fragment that Ajv decodes back (path templates hold `{}`). */
export function encodePointer(pointer: string): string {
  return pointer.split('/').map(encodeURIComponent).join('/');
}

/** The `$ref` a stub-built schema uses to point at a schema of the document. */
export function refTo(pointer: string): { $ref: string } {
  return { $ref: `${SPEC_ID}#${encodePointer(pointer)}` };
}

/**
 * The document as one schema resource whose top-level entries Ajv does not walk when it is added.
 * Adding walks every subschema to register `$id`s and anchors, and on GitHub's document that walk
 * was 0.25 s of a 1 s start-up; the document's references are JSON pointers (`#/components/…`),
 * which Ajv follows entry by entry when it compiles a validator, without the registry. The walk
 * only sees enumerable keys, so the entries are kept but hidden from it. (The cost: an `$id` or
 * `$anchor` inside the document is not registered, and neither was one reachable before: `$ref`s
 * are JSON pointers or files.)
 */
function unwalked(copy: object): object {
  const root = {};
  for (const [key, value] of Object.entries(copy)) Object.defineProperty(root, key, { value, enumerable: false });
  return root;
}

/**
 * Document patterns are matched by RE2 (re2js), which runs in linear time: a pattern like
 * `^(a+)+$` cannot stall the server on a crafted value, and patterns that are not valid under
 * JavaScript's `u` flag (`\:`) still work. Patterns RE2 cannot compile never reach Ajv (see
 * validation-copy.ts).
 */
const linearTimeRegExp = Object.assign(
  (pattern: string) => {
    const compiled = re2().compile(pattern);
    // Ajv keeps one compiled pattern per `toString()` of what this returns: without its own, every
    // pattern of the document was `[object Object]`, and all were checked with the first one.
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `/${pattern}/` };
  },
  { code: 'linearTimeRegExp' },
);

function createAjv(spec: LoadedDocument, copy: object, coerceTypes: boolean): Ajv {
  const options: AjvOptions = {
    allErrors: true,
    strict: false,
    logger: false,
    passContext: true,
    coerceTypes: coerceTypes ? 'array' : false,
    code: { regExp: linearTimeRegExp },
    // Checking the document against the JSON Schema meta-schema would compile that meta-schema at
    // every start; a schema Ajv cannot compile still fails loudly when its validator is built.
    validateSchema: false,
    // Errors carry their schema, so a `type` error can say "or null" for a 3.0 `nullable` field.
    verbose: true,
  };
  const ajv: Ajv = spec.version === '3.1' ? new Ajv2020(options) : new AjvDraft04.default(options);
  addFormats.default(ajv);
  // OpenAPI's numeric and binary formats: ranges are checked exactly by EXACT_INTEGER below.
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'password']) ajv.addFormat(format, true);
  ajv.addKeyword(exactIntegerKeyword);
  ajv.addKeyword(uniqueItemsKeyword);
  ajv.addSchema(unwalked(copy), SPEC_ID);
  return ajv;
}

const exactIntegerKeyword: KeywordDefinition = {
  keyword: EXACT_INTEGER,
  schemaType: 'string',
  errors: true,
  validate: function checkExactInteger(
    this: { rawNumbers?: ReadonlyMap<string, string> } | undefined,
    kind: string,
    data: unknown,
    _parentSchema?: unknown,
    context?: { instancePath: string },
  ): boolean {
    if (typeof data !== 'number') return true; // `type` reports non-numbers
    const raw = this?.rawNumbers?.get(context?.instancePath ?? '');
    // Without raw text the double is exact (parseExactJson keeps the text of every other number).
    const value = raw === undefined ? (Number.isInteger(data) ? BigInt(data) : null) : exactInteger(raw);
    const fail = (message: string) => {
      (checkExactInteger as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: EXACT_INTEGER, message, params: { format: kind } }];
      return false;
    };
    if (value === null) return raw === undefined ? true : fail('must be an integer'); // Ajv's `type` already reported the double
    const range = INTEGER_RANGES[kind];
    if (range && (value < range[0] || value > range[1])) {
      return fail(`must be an ${kind} (from ${range[0]} to ${range[1]})`);
    }
    return true;
  },
};

/**
 * A body of 200,000 wrong array items has as many violations; a client needs the first ones and
 * the count, and the message, journal and log stay small.
 */
export const MAX_VIOLATIONS = 100;

function capped(violations: string[]): string[] {
  if (violations.length <= MAX_VIOLATIONS) return violations;
  const shown = violations.slice(0, MAX_VIOLATIONS);
  shown.push(`…and ${violations.length - MAX_VIOLATIONS} more violations`);
  return shown;
}

function unique(items: string[]): string[] {
  return items.length < 2 ? items : [...new Set(items)];
}
