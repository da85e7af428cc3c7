// The value a document gives a schema (its `example`, else the first of its `examples`, else its
// `default`, else its first `enum` value) is served as it is, so a frontend sees the document's
// realistic data. Documents also give values that break the schema they sit in: `default: null`
// on a string that is not nullable, an example outside the enum, `12345` for a string,
// `2022-01-01` for a date-time. Served, such a value breaks every answer holding it, so the next
// value is taken, else data is generated. Only the schema's own keywords are checked (type, enum,
// const, format, pattern, bounds, required, and those of inline oneOf/anyOf branches), not what
// its properties or items say: Ajv compiles each distinct set of them once.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv, Options as AjvOptions, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isObject, type Json } from '../common/json-value.js';
import { compileType } from './jsf-keywords.js';

// CommonJS default export, seen through NodeNext's ESM interop (as in openapi/schema-compiler.ts).
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

/** The keywords checked as they are; `type` (with 3.0's `nullable`) and 3.0's boolean exclusive bounds are translated. */
const OWN_KEYWORDS = [
  'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf',
  'minItems', 'maxItems', 'minProperties', 'maxProperties', 'required',
] as const;

export type DocumentValue = (schema: Json) => { value: unknown } | undefined;

/** Picks a schema's first document value that fits its own keywords; undefined when none does. */
export function createDocumentValues(is30: boolean): DocumentValue {
  const fits = createOwnKeywordsCheck(is30);
  return (schema) => {
    const candidates: unknown[] = [];
    if (schema.example !== undefined) candidates.push(schema.example);
    if (Array.isArray(schema.examples) && schema.examples.length > 0) candidates.push(schema.examples[0]);
    if (schema.default !== undefined) candidates.push(schema.default);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) candidates.push(schema.enum[0]);
    for (const value of candidates) if (fits(value, schema)) return { value };
    return undefined;
  };
}

function createOwnKeywordsCheck(is30: boolean): (value: unknown, schema: Json) => boolean {
  let ajv: Ajv | null = null;
  const validators = new Map<string, ValidateFunction | null>();
  const compile = (own: Json): ValidateFunction | null => {
    ajv ??= newAjv();
    try {
      return ajv.compile(own);
    } catch {
      // A pattern JavaScript refuses (RE2 syntax), an empty enum: check the rest without it.
      if (own.pattern === undefined) return null;
      const { pattern: _pattern, ...rest } = own;
      return compile(rest);
    }
  };
  return (value, schema) => {
    const own = ownKeywords(schema, is30);
    if (own === null) return true;
    const key = JSON.stringify(own);
    let validate = validators.get(key);
    if (validate === undefined) validators.set(key, (validate = compile(own)));
    return validate === null || validate(value) === true;
  };
}

function ownKeywords(schema: Json, is30: boolean): Json | null {
  const own: Json = {};
  const type = compileType(schema, is30);
  if (type !== undefined) own.type = type;
  for (const keyword of OWN_KEYWORDS) if (schema[keyword] !== undefined) own[keyword] = schema[keyword];
  // 3.0 (draft 4) writes exclusive bounds as booleans beside minimum / maximum.
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof schema[exclusive] === 'number') own[exclusive] = schema[exclusive];
    else if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      own[exclusive] = schema[bound];
      delete own[bound];
    }
  }
  // `default: null` beside `oneOf: [string, array]` (DigitalOcean's `stop`): a value must fit one
  // of the branches' own keywords too (when every branch is inline and has some).
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const branchKeywords = branches.map((branch) => (isObject(branch) && branch.$ref === undefined ? ownKeywords(branch, is30) : null));
  if (branchKeywords.length > 0 && branchKeywords.every((keywords) => keywords !== null)) own.anyOf = branchKeywords;
  return Object.keys(own).length > 0 ? own : null;
}

function newAjv(): Ajv {
  const options: AjvOptions = { strict: false, logger: false, validateSchema: false, allErrors: false };
  const ajv = new Ajv2020(options);
  addFormats.default(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'password']) ajv.addFormat(format, true);
  return ajv;
}
