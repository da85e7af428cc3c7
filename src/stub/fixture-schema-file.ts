// `plant-store-stub fixture-schema [--spec FILE]`: the fixture files' JSON Schema for a document,
// without starting a stub (docs/scenarios-and-fixtures.md, "Editor support").
import { parseArgs } from 'node:util';
import { loadDocument } from '../openapi/load-document.js';
import { compileSpec } from '../openapi/compile-operations.js';
import { loadGeneratorLibraries } from '../generate/generator-libraries.js';
import { fixtureSchema } from '../scenarios/fixture-schema.js';
import { STUB_POLICY } from '../config/compat-policy.js';
import { ConfigError } from '../config/config-error.js';
import { resolveOptions } from '../config/options.js';

/** The schema as the command prints it, from the command's arguments (after `fixture-schema`). */
export async function fixtureSchemaText(argv: string[]): Promise<string> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { spec: { type: 'string' } } }));
  } catch (error) {
    throw new ConfigError('fixture-schema', `${(error as Error).message.split('\n')[0]} (it takes --spec FILE)`);
  }
  const spec = resolveOptions({ spec: values.spec, log: false }).spec;
  return `${JSON.stringify(await fixtureSchemaOf(spec), null, 2)}\n`;
}

export async function fixtureSchemaOf(specPath: string): Promise<object> {
  const spec = await loadDocument(specPath);
  await loadGeneratorLibraries();
  const compiled = compileSpec(spec, { tokens: [], seed: 0, strict: false, policy: STUB_POLICY });
  return fixtureSchema(compiled, spec.document as Record<string, unknown>);
}
