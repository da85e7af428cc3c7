// Deterministic response data from the JSON Schemas of an OpenAPI 3.0 / 3.1 document.
//
// json-schema-faker (jsf) 0.6 does the value generation. Each schema is compiled once per pointer
// into a self-contained JSON Schema that jsf handles well (jsf-schema.ts), then every call runs jsf
// (and the shared faker instance, for `x-faker`) from a seed derived from hash(seed, pointer, key),
// so a call never depends on what was generated before it.
//
// Decisions:
// - Optional properties are always generated (optionalsProbability 1), so responses are rich.
//   Arrays get 1..3 items (never fewer than minItems, never more than maxItems).
// - By default the schemas' own values come first (`example`, `examples`, `default`, `enum`, see
//   jsf-schema.ts) and only the rest is generated: a frontend sees the document's realistic values.
//   `dynamic` calls set them aside and generate everything.
// - Deterministic without a seed too (seed 0): the same request gets the same bytes across
//   restarts; another seed gives another data set.
// - Nullable values are null with jsf's natural odds (one of the listed types).
import type { Faker } from '@faker-js/faker';
import { EXTRA_FORMATS } from './extra-formats.js';
import { generatorLibraries } from './generator-libraries.js';
import { createJsfCompiler, type JsfSchema } from './jsf-schema.js';
import { cheapRandomizer, fnv1a } from './seeded-random.js';
import { boundSchema } from './size-bounds.js';
import { schemaSample } from './schema-sample.js';

export interface DataGenerator {
  /**
   * Generates a value for the schema at `pointer` (a JSON pointer into the document, e.g.
   * '/components/schemas/Plant'). `key` identifies the request: the same (seed, pointer, key,
   * dynamic) always gives the same value, regardless of what was generated before. `dynamic`
   * sets the schemas' own example values aside. Throws only when nothing exists at `pointer`, and
   * (`staticData: 'sample'`) SchemaTooComplexError when the sample would be too large.
   */
  generate(pointer: string, key: string, dynamic?: boolean): unknown;
  /**
   * Whether trying again for `pointer` cannot bring data that fits: it is made smaller than its
   * schema asks (size-bounds.ts; known once generated for), or the data is Prism's plain sample
   * (`staticData: 'sample'`), which Prism sends as made, its violations reported, never generated
   * again with other data (trying again would answer the first request of an operation with
   * faker's data and, once its schema had been bounded, the next ones with the sample).
   */
  capped(pointer: string): boolean;
}

export interface DataGeneratorOptions {
  /** Picks the data set; default 0. */
  seed?: number;
  /** Data that is not dynamic: realistic (default), or Prism's plain sample of the schema (schema-sample.ts). */
  staticData?: 'realistic' | 'sample';
}

/**
 * A generator for `document` (a parsed OpenAPI document; it is never modified). Throws
 * an error until `loadGeneratorLibraries()` has finished (see generator-libraries.ts).
 *
 * @example
 * const generator = createDataGenerator(document, { seed: 42 });
 * generator.generate('/components/schemas/Plant', 'GET /plants/1'); // the same value every time
 */
export function createDataGenerator(document: object, options: DataGeneratorOptions = {}): DataGenerator {
  const { seed = 0, staticData = 'realistic' } = options;
  const modes = [false, true].map((dynamic) => ({ compiler: createJsfCompiler(document, { documentValues: !dynamic }), entries: new Map<string, JsfSchema>() }));
  // Built on first use: faker is loaded lazily.
  let fakerInstance: Faker | null = null;
  /** Pointers whose schema boundSchema() lowered. */
  const cappedPointers = new Set<string>();
  const faker = (): Faker => (fakerInstance ??= generatorLibraries().createFaker(cheapRandomizer()));
  const jsfOptions = {
    extensions: { get faker() { return faker(); } },
    optionalsProbability: 1,
    alwaysFakeOptionals: false,
    minItems: 1,
    maxDefaultItems: 3,
    maxDepth: 256,
    useDefaultValue: false,
    useExamplesValue: false,
    failOnInvalidTypes: false,
    formats: EXTRA_FORMATS,
  };

  return {
    generate(pointer, key, dynamic = false) {
      const sample = !dynamic && staticData === 'sample' ? schemaSample(document, pointer) : null;
      if (sample) return sample.value;
      const { generateSync } = generatorLibraries();
      const { compiler, entries } = modes[dynamic ? 1 : 0];
      let entry = entries.get(pointer);
      if (entry === undefined) {
        entry = compiler.compileForJsf(pointer);
        // Bounded once per pointer, so no request can make jsf build a value of gigabytes.
        const bounded = entry.schema === undefined ? undefined : boundSchema(entry.schema);
        if (bounded !== entry.schema) {
          entry = { ...entry, schema: bounded };
          cappedPointers.add(pointer);
        }
        entries.set(pointer, entry);
      }
      if (entry.schema === undefined) return null;
      const callSeed = fnv1a(`${seed}\u0000${pointer}\u0000${key}`);
      // generateSync is synchronous, so nothing else can use (or reseed) the faker instance until it
      // returns; jsf builds its own PRNG from `seed` on every call and keeps no state between calls.
      if (entry.usesFaker) faker().seed(callSeed);
      try {
        return generateSync(entry.schema, { ...jsfOptions, seed: callSeed | 0 });
      } catch {
        // jsf throws on schemas it cannot satisfy (e.g. required properties missing from `properties`
        // while additionalProperties is false, enum values that contradict other constraints).
        // Best effort: null.
        return null;
      }
    },
    capped: (pointer) => staticData === 'sample' || cappedPointers.has(pointer),
  };
}
