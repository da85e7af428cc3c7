// A broken document stops the start with one message naming the file and the place (the JSON
// pointer, or YAML's line and column): examples that break their schema, a bad $ref, a YAML
// error; and, under --strict, any warning. Variants of the library documents are written to a
// scratch folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub } from '../src/index.js';
import { runCli } from './helpers/cli.js';

const SPEC_30 = 'test/specs/library-3.0.yaml';
const SPEC_31 = 'test/specs/library-3.1.yaml';

let emptyFixtures: string;
let scratch: string;

beforeAll(async () => {
  emptyFixtures = await mkdtemp(join(tmpdir(), 'stub-broken-fixtures-'));
  scratch = await mkdtemp(join(tmpdir(), 'stub-broken-specs-'));
});

afterAll(async () => {
  await rm(emptyFixtures, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe('documents that must not start', () => {
  /** Writes a variant of a spec into the scratch folder and returns its path. */
  async function variant(name: string, from: string, edit: (text: string) => string): Promise<string> {
    const original = await readFile(from, 'utf8');
    const changed = edit(original);
    expect(changed).not.toBe(original); // the edit really happened
    const file = join(scratch, name);
    await writeFile(file, changed);
    return file;
  }

  const refusals: Array<{ name: string; file: () => Promise<string>; message: (file: string) => string | RegExp; strict?: true }> = [
    {
      name: 'with --strict, a single example that breaks its schema names the spec and the JSON pointer of the example', strict: true,
      file: () => variant('bad-example.yaml', SPEC_30, (t) => t.replace('            price: 9.99\n', '            price: 0\n')),
      message: (f) => `${f}: /paths/~1books/post/responses/201/content/application~1json/example: this example breaks its response schema (/price: must be > 0); served only when asked for by name; --strict refuses documents with warnings`,
    },
    {
      name: 'with --strict, a named example that breaks its schema names the example in the pointer', strict: true,
      file: () => variant('bad-named-example.yaml', SPEC_30, (t) => t.replace('                    copies: 4\n', '                    copies: four\n')),
      message: (f) => `${f}: /paths/~1books~1{bookId}/get/responses/200/content/application~1json/examples/poem/value: this example breaks its response schema (/copies: must be an integer); served only when asked for by name; --strict refuses documents with warnings`,
    },
    {
      name: 'with --strict, an example in a referenced components response is named where it is written', strict: true,
      file: () => variant('bad-component-example.yaml', SPEC_30, (t) => t.replace('traceId: trace-0000beef', 'traceId: nope')),
      message: (f) => `${f}: /components/responses/Problem/content/application~1json/example: this example breaks its response schema (/traceId: must match pattern "^trace-[0-9a-f]{8}$"); served only when asked for by name; --strict refuses documents with warnings`,
    },
    {
      name: 'a YAML syntax error names the file, line and column',
      file: () => variant('bad-yaml.yaml', SPEC_31, (t) => t.replace('      minimum: -3000\n', '      minimum: -3000\n\tmaximum: 2100\n')),
      message: (f) => `${f}: invalid YAML at line 13, column 1: tab characters must not be used in indentation`,
    },
    {
      name: 'an internal $ref to nothing is an unresolvable $ref naming where it is written and what it points to',
      file: () => variant('bad-ref.yaml', SPEC_31, (t) => t.replace("$ref: '#/components/schemas/Year'", "$ref: '#/components/schemas/Yeer'")),
      message: (f) => `${f}: /components/schemas/NewAuthor/properties/born/$ref: unresolvable $ref "#/components/schemas/Yeer": the document has nothing there`,
    },
    {
      name: 'a $ref to a missing file is an unresolvable $ref naming that file',
      file: () => variant('bad-external-ref.yaml', SPEC_31, (t) => t.replace("$ref: '#/components/schemas/Year'", "$ref: './no-such-file.yaml#/Year'")),
      message: (f) => new RegExp(`^${escapeRegExp(f)}: unresolvable \\$ref: .*no-such-file\\.yaml`),
    },
    {
      name: 'a document of an OpenAPI version the stub does not know is refused naming the version',
      file: async () => {
        const file = join(scratch, 'future.yaml');
        await writeFile(file, 'openapi: 4.0.0\ninfo: {title: Future, version: "1"}\npaths: {}\n');
        return file;
      },
      message: (f) => `${f}: /openapi: only OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0 are served, found "openapi: 4.0.0"`,
    },
  ];

  it.each(refusals)('$name', async ({ file, message, strict }) => {
    const spec = await file();
    const error = await startStub({ spec, fixtures: emptyFixtures, port: 0, watch: false, strict, log: () => {} }).then(
      async (stub) => {
        await stub.close();
        return null;
      },
      (e: unknown) => e as Error,
    );
    expect(error?.name).toBe('ConfigError');
    const expected = message(spec);
    if (typeof expected === 'string') expect(error?.message).toBe(expected);
    else expect(error?.message).toMatch(expected);
  });

  it('the CLI with --strict refuses a document with a warning: one line on stderr naming file and pointer, exit code 2', async () => {
    const spec = await variant('cli-bad-example.yaml', SPEC_30, (t) => t.replace('            price: 9.99\n', '            price: 0\n'));
    const { code, stdout, stderr } = await runCli(['--spec', spec, '--port', '0', '--fixtures', emptyFixtures, '--no-watch', '--strict']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`plant-store-stub: ${spec}: /paths/~1books/post/responses/201/content/application~1json/example: this example breaks its response schema (/price: must be > 0); served only when asked for by name; --strict refuses documents with warnings\n`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
