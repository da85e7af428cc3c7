// Static data as Prism makes it (the compat policy's `staticData: 'sample'`): one plain value per
// schema, the schema's own example, default or first enum value, else `"string"`, `0`, `false`,
// `{}` filled with its properties. Stoplight's json-schema-sampler makes it, the library Prism
// itself uses, so a client tested against Prism gets the same bytes.
import { valueAtPointer } from '../common/json-pointer.js';
import { requireInNode } from '../common/require-in-node.js';

interface SamplerLibrary {
  sample(schema: unknown, options: { ticks?: number }, document: unknown): unknown;
  SchemaSizeExceededError: new () => Error;
}

/** A schema whose sample would be too large to make (Prism's SCHEMA_TOO_COMPLEX). */
export class SchemaTooComplexError extends Error {}

/**
 * How much work one sample may take, the figure Prism gives the sampler: `minItems: 3000` is over
 * it, and answered 500 rather than built.
 */
const TICKS = 2500;

let library: SamplerLibrary | null | undefined;

/**
 * The sample of the schema at `pointer` in `document` (refs resolved against the document); null
 * outside Node, where the library is not loaded (the caller generates data instead). Throws
 * SchemaTooComplexError when the sample would be too large.
 */
export function schemaSample(document: object, pointer: string): { value: unknown } | null {
  library ??= requireInNode<SamplerLibrary>('@stoplight/json-schema-sampler');
  if (library === null) return null;
  const schema = valueAtPointer(document, pointer)?.value;
  if (schema === undefined) return { value: null };
  try {
    return { value: library.sample(schema, { ticks: TICKS }, document) };
  } catch (error) {
    if (error instanceof library.SchemaSizeExceededError) throw new SchemaTooComplexError(`the sample of ${pointer} is too large to make`);
    // A schema the sampler cannot read (a broken $ref) is a null body, as generation failing is.
    return { value: null };
  }
}
