// The data generator on its own, without a server: every value it makes validates against its
// schema (3.1 keywords, 3.0 nullable and boolean bounds, recursion), a seed makes it repeat, and a
// schema no value satisfies gives null instead of an exception.
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import type { Ajv, Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createDataGenerator } from '../src/generate/data-generator.js';
import { loadGeneratorLibraries } from '../src/generate/generator-libraries.js';
import { UUID } from './helpers/plant.js';

// The libraries load lazily in the server; here they are loaded up front once.
beforeAll(() => loadGeneratorLibraries());

// CommonJS default exports, seen through NodeNext's ESM interop.
const AjvDraft04 = AjvDraft04Module as unknown as { default: new (options: AjvOptions) => Ajv };
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

type Json = Record<string, unknown>;

const KEYS = Array.from({ length: 40 }, (_, i) => `GET /plants/${i}`);

/** Keyword cases: each becomes `components.schemas[name]`; every generated value must validate and pass `check`. */
const CASES: Record<string, { schema: Json; check: (value: unknown) => boolean }> = {
  DateTime: { schema: { type: 'string', format: 'date-time' }, check: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) },
  Date: { schema: { type: 'string', format: 'date' }, check: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) },
  Email: { schema: { type: 'string', format: 'email' }, check: (v) => typeof v === 'string' && v.includes('@') },
  Uuid: { schema: { type: 'string', format: 'uuid' }, check: (v) => typeof v === 'string' && UUID.test(v) },
  Uri: { schema: { type: 'string', format: 'uri' }, check: (v) => typeof v === 'string' && URL.canParse(v) },
  Byte: { schema: { type: 'string', format: 'byte' }, check: (v) => typeof v === 'string' && Buffer.from(v, 'base64').toString('base64') === v },
  Int32: { schema: { type: 'integer', format: 'int32' }, check: (v) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31 },
  Int64: { schema: { type: 'integer', format: 'int64', minimum: 1 }, check: (v) => Number.isSafeInteger(v) && (v as number) >= 1 },
  Enum: { schema: { type: 'string', enum: ['available', 'pending', 'sold'] }, check: (v) => ['available', 'pending', 'sold'].includes(v as string) },
  Const: { schema: { const: 'plant' }, check: (v) => v === 'plant' },
  Bounds: { schema: { type: 'integer', minimum: 3, maximum: 7 }, check: (v) => Number.isInteger(v) && (v as number) >= 3 && (v as number) <= 7 },
  Exclusive31: { schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, check: (v) => typeof v === 'number' && v > 0 && v < 1 },
  ExclusiveInt31: { schema: { type: 'integer', exclusiveMinimum: 10, exclusiveMaximum: 13 }, check: (v) => v === 11 || v === 12 },
  HighMinimum: { schema: { type: 'number', minimum: 5000 }, check: (v) => typeof v === 'number' && v >= 5000 },
  LowMaximum: { schema: { type: 'integer', maximum: -5000 }, check: (v) => Number.isInteger(v) && (v as number) <= -5000 },
  MultipleOf: { schema: { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 }, check: (v) => Number.isInteger(v) && (v as number) % 5 === 0 },
  Lengths: { schema: { type: 'string', minLength: 5, maxLength: 8 }, check: (v) => typeof v === 'string' && v.length >= 5 && v.length <= 8 },
  Pattern: { schema: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, check: (v) => typeof v === 'string' && /^[A-Z]{3}-\d{4}$/.test(v) },
  TypeArray: { schema: { type: ['string', 'null'], minLength: 2 }, check: (v) => v === null || (typeof v === 'string' && v.length >= 2) },
  Array: { schema: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 4, uniqueItems: true }, check: (v) => Array.isArray(v) && v.length >= 2 && v.length <= 4 },
  Map: { schema: { type: 'object', additionalProperties: { type: 'integer' } }, check: (v) => typeof v === 'object' && v !== null && Object.keys(v).length >= 1 },
  AllOf: {
    schema: { allOf: [{ $ref: '#/components/schemas/Plant' }, { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } }] },
    check: (v) => typeof (v as Json).name === 'string' && Number.isInteger((v as Json).id),
  },
  OneOf: { schema: { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] }, check: (v) => (typeof v === 'string' && v.length <= 3) || Number.isInteger(v) },
  AnyOf: { schema: { anyOf: [{ $ref: '#/components/schemas/Plant' }, { type: 'boolean' }] }, check: (v) => typeof v === 'boolean' || typeof (v as Json).name === 'string' },
  Discriminated: {
    schema: {
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat' } },
    },
    check: (v) => ((v as Json).petType === 'cat' && 'purrs' in (v as Json)) || ((v as Json).petType === 'Dog' && 'barks' in (v as Json)),
  },
  WithExample: { schema: { type: 'object', properties: { n: { type: 'integer' } }, example: { n: 1 }, 'x-internal': true }, check: (v) => Object.keys(v as Json).join() === 'n' },
  ReadWrite: {
    schema: {
      type: 'object',
      required: ['id', 'password'],
      properties: { id: { type: 'integer', readOnly: true }, password: { type: 'string', writeOnly: true }, name: { type: 'string' } },
    },
    check: (v) => Number.isInteger((v as Json).id) && !('password' in (v as Json)) && typeof (v as Json).name === 'string',
  },
  FakerName: { schema: { type: 'string', 'x-faker': 'person.firstName' }, check: (v) => typeof v === 'string' && /^[A-Z][a-zA-Z' -]+$/.test(v) },
  FakerArgs: { schema: { type: 'integer', 'x-faker': { 'number.int': { min: 1, max: 10 } } }, check: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10 },
  FakerArgsArray: { schema: { type: 'integer', 'x-faker': { 'number.int': [{ min: 20, max: 25 }] } }, check: (v) => Number.isInteger(v) && (v as number) >= 20 && (v as number) <= 25 },
  FakerUnknown: { schema: { type: 'string', format: 'uuid', 'x-faker': 'no.such.method' }, check: (v) => typeof v === 'string' && UUID.test(v) },
  RefSibling31: { schema: { $ref: '#/components/schemas/Plant', required: ['tag'] }, check: (v) => typeof (v as Json).tag === 'string' },
};

const doc31 = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/plants': {
      post: {
        responses: {
          200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } } },
          201: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Plant' } } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Plant: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } },
      Cat: { type: 'object', required: ['petType', 'purrs'], properties: { petType: { type: 'string' }, purrs: { type: 'boolean' } } },
      Dog: { type: 'object', required: ['petType', 'barks'], properties: { petType: { type: 'string' }, barks: { type: 'boolean' } } },
      Node: {
        type: 'object',
        required: ['value', 'children'],
        properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
      },
      Chain: { type: 'object', required: ['value'], properties: { value: { type: 'integer' }, next: { $ref: '#/components/schemas/Chain' } } },
      Tree: { type: 'object', properties: { left: { anyOf: [{ $ref: '#/components/schemas/Tree' }, { type: 'null' }] } }, required: ['left'] },
      Ping: { type: 'object', properties: { pong: { $ref: '#/components/schemas/Pong' } } },
      Pong: { type: 'object', properties: { ping: { $ref: '#/components/schemas/Ping' }, pongs: { type: 'array', items: { $ref: '#/components/schemas/Pong' } } } },
      Impossible: { type: 'object', required: ['self'], properties: { self: { $ref: '#/components/schemas/Impossible' } } },
      ...Object.fromEntries(Object.entries(CASES).map(([name, c]) => [name, c.schema])),
    },
  },
};

const doc30 = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {},
  components: {
    schemas: {
      Nullable: { type: 'string', nullable: true, format: 'email' },
      NullableObject: {
        type: 'object',
        required: ['a'],
        properties: { a: { type: 'integer', nullable: true }, b: { $ref: '#/components/schemas/Nullable' } },
      },
      ExclusiveBool: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: true },
      ExclusiveNumber: { type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 2 },
      ExclusiveFalse: { type: 'integer', minimum: 5, exclusiveMinimum: false, maximum: 5 },
      User: {
        type: 'object',
        required: ['id', 'password'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, password: { type: 'string', writeOnly: true } },
      },
      // In 3.0 keywords next to $ref are ignored.
      RefSibling: { $ref: '#/components/schemas/User', required: ['nonexistent'] },
    },
  },
};

/**
 * Validates `value` against the schema at `pointer` of `document`, the way the document's version
 * means it, for a response: `required` does not apply to writeOnly properties.
 */
function validator(document: Json): (pointer: string, value: unknown) => string | null {
  const is31 = String(document.openapi).startsWith('3.1');
  const ajv = is31 ? new Ajv2020({ strict: false, allErrors: true }) : new AjvDraft04.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const id = 'https://stub.test/openapi.json';
  ajv.addSchema({ ...responseView(document) as Json, [is31 ? '$id' : 'id']: id });
  return (pointer, value) => {
    const validate = ajv.getSchema(`${id}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
}

function responseView(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(responseView);
  if (typeof node !== 'object' || node === null) return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, responseView(v)]));
  const properties = copy.properties as Record<string, Json> | undefined;
  if (Array.isArray(copy.required) && properties) copy.required = copy.required.filter((name) => properties[name]?.writeOnly !== true);
  return copy;
}

const validate31 = validator(doc31);
const validate30 = validator(doc30);

function depth(node: unknown): number {
  if (Array.isArray(node)) return 1 + Math.max(0, ...node.map(depth));
  if (typeof node === 'object' && node !== null) return 1 + Math.max(0, ...Object.values(node).map(depth));
  return 0;
}

describe('determinism', () => {
  it('gives the same value for the same seed, pointer and key, whatever was generated before', () => {
    const a = createDataGenerator(doc31, { seed: 42 });
    const b = createDataGenerator(doc31, { seed: 42 });
    const pointers = ['/components/schemas/Plant', '/components/schemas/Node', '/components/schemas/FakerName', '/components/schemas/Uuid'];
    const first = pointers.map((p) => KEYS.slice(0, 5).map((k) => a.generate(p, k)));
    // b: reverse order, other keys and pointers interleaved.
    for (let pi = pointers.length - 1; pi >= 0; pi--) {
      for (let ki = 4; ki >= 0; ki--) {
        b.generate('/components/schemas/FakerArgs', `other ${ki}`);
        expect(b.generate(pointers[pi], KEYS[ki])).toEqual(first[pi][ki]);
        b.generate(pointers[(pi + 1) % pointers.length], `noise ${pi}`);
      }
    }
    // And `a` itself, after all that, still agrees with its first answers.
    expect(pointers.map((p) => KEYS.slice(0, 5).map((k) => a.generate(p, k)))).toEqual(first);
  });

  it('differs between keys, pointers and seeds', () => {
    const gen = createDataGenerator(doc31, { seed: 1 });
    const values = new Set(KEYS.map((k) => JSON.stringify(gen.generate('/components/schemas/Plant', k))));
    expect(values.size).toBeGreaterThan(KEYS.length - 3);
    const names = new Set(KEYS.map((k) => gen.generate('/components/schemas/FakerName', k)));
    expect(names.size).toBeGreaterThan(10);
    const other = createDataGenerator(doc31, { seed: 2 });
    expect(other.generate('/components/schemas/Plant', KEYS[0])).not.toEqual(gen.generate('/components/schemas/Plant', KEYS[0]));
    expect(gen.generate('/components/schemas/Uuid', KEYS[0])).not.toEqual(gen.generate('/components/schemas/Uuid', KEYS[0] + ' '));
  });

  it('is deterministic without a seed too: seed 0', () => {
    const a = createDataGenerator(doc31, {});
    const b = createDataGenerator(doc31, { seed: 0 });
    for (const pointer of ['/components/schemas/Uuid', '/components/schemas/FakerName', '/components/schemas/Plant']) {
      expect(a.generate(pointer, 'same key')).toEqual(b.generate(pointer, 'same key'));
      expect(a.generate(pointer, 'same key', true)).toEqual(b.generate(pointer, 'same key', true));
    }
  });

  it('does not mutate the document', () => {
    const copy = structuredClone(doc31);
    const gen = createDataGenerator(copy, { seed: 3 });
    for (const name of Object.keys(copy.components.schemas)) gen.generate(`/components/schemas/${name}`, 'k');
    expect(copy).toEqual(doc31);
  });
});

describe('keywords (OpenAPI 3.1)', () => {
  const gen = createDataGenerator(doc31, { seed: 7 });
  it.each(Object.keys(CASES))('%s', (name) => {
    const pointer = `/components/schemas/${name}`;
    for (const key of KEYS) {
      const value = gen.generate(pointer, key);
      expect(validate31(pointer, value), `${JSON.stringify(value)}`).toBeNull();
      expect(CASES[name].check(value), `${JSON.stringify(value)}`).toBe(true);
    }
  });

  it('generates both branches of a type array and of a oneOf', () => {
    const kinds = (name: string) => new Set(KEYS.map((k) => typeof gen.generate(`/components/schemas/${name}`, k)));
    expect(kinds('TypeArray')).toEqual(new Set(['string', 'object']));
    expect(kinds('OneOf')).toEqual(new Set(['string', 'number']));
    const pets = new Set(KEYS.map((k) => (gen.generate('/components/schemas/Discriminated', k) as Json).petType));
    expect(pets).toEqual(new Set(['cat', 'Dog']));
  });

  it('always generates optional properties', () => {
    for (const key of KEYS) expect(Object.keys(gen.generate('/components/schemas/Plant', key) as Json).sort()).toEqual(['name', 'tag']);
  });

  it('resolves pointers into paths', () => {
    const pointer = '/paths/~1plants/post/responses/200/content/application~1json/schema';
    const value = gen.generate(pointer, 'POST /plants {}');
    expect(validate31(pointer, value)).toBeNull();
    expect(typeof (value as Json).name).toBe('string');
    const list = '/paths/~1plants/post/responses/201/content/application~1json/schema';
    const values = KEYS.map((k) => gen.generate(list, k) as unknown[]);
    for (const v of values) expect(validate31(list, v)).toBeNull();
    expect(Math.max(...values.map((v) => v.length))).toBeGreaterThan(1);
    expect(() => gen.generate('/components/schemas/Nope', 'k')).toThrow(/No schema/);
  });
});

describe('recursion', () => {
  const gen = createDataGenerator(doc31, { seed: 11 });
  it.each(['Node', 'Chain', 'Tree', 'Ping', 'Pong'])('%s terminates and validates', (name) => {
    const pointer = `/components/schemas/${name}`;
    let deepest = 0;
    for (const key of KEYS) {
      const value = gen.generate(pointer, key);
      expect(validate31(pointer, value), JSON.stringify(value)).toBeNull();
      deepest = Math.max(deepest, depth(value));
    }
    expect(deepest).toBeGreaterThan(1);
    expect(deepest).toBeLessThan(12);
  });

  it('recurses more than one level', () => {
    const node = gen.generate('/components/schemas/Node', 'k') as { children: Array<{ children: unknown[] }> };
    expect(node.children.length).toBeGreaterThan(0);
    expect(node.children[0].children).toEqual([]);
    const chain = gen.generate('/components/schemas/Chain', 'k') as Json;
    expect(chain.next).toMatchObject({ value: expect.any(Number) });
  });

  it('budgets schemas where every type refers to every other', () => {
    const names = Array.from({ length: 12 }, (_, i) => `T${i}`);
    const schemas = Object.fromEntries(names.map((n) => [n, {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, ...Object.fromEntries(names.map((m) => [m.toLowerCase(), { $ref: `#/components/schemas/${m}` }])) },
    }]));
    const dense = { openapi: '3.1.0', components: { schemas } };
    const validate = validator(dense);
    const g = createDataGenerator(dense, { seed: 1 });
    const start = performance.now();
    const value = g.generate('/components/schemas/T0', 'k');
    expect(performance.now() - start).toBeLessThan(2000);
    expect(validate('/components/schemas/T0', value)).toBeNull();
  });

  it('returns null for a schema without finite instances', () => {
    expect(gen.generate('/components/schemas/Impossible', 'k')).toBeNull();
  });
});

describe('OpenAPI 3.0', () => {
  const gen = createDataGenerator(doc30, { seed: 5 });
  const each = (name: string, validateAs = name) => KEYS.map((k) => {
    const value = gen.generate(`/components/schemas/${name}`, k);
    expect(validate30(`/components/schemas/${validateAs}`, value), JSON.stringify(value)).toBeNull();
    return value;
  });

  it('nullable: true allows null, and still generates values', () => {
    const values = each('Nullable');
    expect(values).toContain(null);
    expect(values.some((v) => typeof v === 'string' && v.includes('@'))).toBe(true);
    const objects = each('NullableObject') as Json[];
    expect(objects.some((o) => o.a === null)).toBe(true);
    expect(objects.some((o) => Number.isInteger(o.a))).toBe(true);
  });

  it('boolean exclusiveMinimum / exclusiveMaximum', () => {
    expect(new Set(each('ExclusiveBool'))).toEqual(new Set([1, 2]));
    for (const v of each('ExclusiveNumber')) expect(v as number).toBeGreaterThan(1);
    expect(new Set(each('ExclusiveFalse'))).toEqual(new Set([5]));
  });

  it('drops writeOnly properties, keeps readOnly ones, ignores $ref siblings', () => {
    for (const v of each('User') as Json[]) expect(Object.keys(v)).toEqual(['id']);
    // (ajv-draft-04 applies $ref siblings, so this one is checked against the target alone.)
    for (const v of each('RefSibling', 'User') as Json[]) expect(Object.keys(v)).toEqual(['id']);
  });
});

describe('robustness', () => {
  it('returns null instead of throwing when json-schema-faker cannot satisfy a schema', () => {
    const odd = {
      openapi: '3.1.0',
      components: {
        schemas: {
          Contradiction: { type: 'object', additionalProperties: false, required: ['a'] },
          EnumVsLength: { type: 'string', enum: ['long value'], maxLength: 3 },
          External: { $ref: 'other.yaml#/Thing' },
          UnknownType: { type: 'file' },
        },
      },
    };
    const g = createDataGenerator(odd, { seed: 1 });
    expect(g.generate('/components/schemas/Contradiction', 'k')).toBeNull();
    // An enum is generated from its values alone; the answer's self-check reports the contradiction.
    expect(g.generate('/components/schemas/EnumVsLength', 'k', true)).toBe('long value');
    expect(() => g.generate('/components/schemas/External', 'k')).not.toThrow();
    expect(g.generate('/components/schemas/UnknownType', 'k')).toBeNull();
  });
});

describe('repeated calls', () => {
  it('answers from the compiled schema as a fresh generator does, call after call', () => {
    const gen = createDataGenerator(doc31, { seed: 1 });
    const pointer = '/components/schemas/ReadWrite';
    gen.generate(pointer, 'warm-up');
    for (let i = 0; i < 200; i++) {
      const value = gen.generate(pointer, `key ${i}`);
      expect(validate31(pointer, value), JSON.stringify(value)).toBeNull();
      expect(CASES.ReadWrite.check(value), JSON.stringify(value)).toBe(true);
      if (i % 50 === 0) expect(createDataGenerator(doc31, { seed: 1 }).generate(pointer, `key ${i}`)).toEqual(value);
    }
  });
});
