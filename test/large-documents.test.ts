// Documents of more than COMPILED_WHOLE_UP_TO operations start without compiling their
// validators: each is compiled on first use, and what that finds (a response example that breaks
// its schema, a schema Ajv cannot compile) becomes a warning then, never a 5xx. --strict still
// compiles and checks everything before it starts. Documents without `$ref`s to other files are
// not bundled, and a `$ref` to nothing names where it is written.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { COMPILED_WHOLE_UP_TO } from '../src/openapi/compile-operations.js';
import { startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';

const OPERATIONS = COMPILED_WHOLE_UP_TO + 20;

/** A JSON document: one GET per /items{i}, whose 200 has a broken and a valid example, and /weird, whose schema Ajv refuses. */
function largeDocument(): object {
  const paths: Record<string, object> = {};
  for (let i = 0; i < OPERATIONS; i++) {
    paths[`/items${i}`] = {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Item' },
                examples: { broken: { value: { name: 7 } }, fine: { value: { name: `item ${i}` } } },
              },
            },
          },
        },
      },
    };
  }
  paths['/weird'] = {
    get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'wobbly' } } } } } },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Many items', version: '1' },
    paths,
    components: { schemas: { Item: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
  };
}

let dir: string;
let file: string;
let stub: RunningStub;
const log: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-large-'));
  file = join(dir, 'large.json');
  await writeFile(file, JSON.stringify(largeDocument(), null, 2));
  stub = await startStub({ spec: file, fixtures: join(dir, 'none'), port: 0, watch: false, log: (line) => log.push(line) });
});
afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

const warnings = async () => ((await request(`${stub.url}/__admin/warnings`)).json as { warnings: Array<{ pointer: string; kind: string; reason: string }> }).warnings;

describe(`a document of ${OPERATIONS} operations`, () => {
  it('starts without checking response examples, and says so instead of printing example warnings', async () => {
    expect(log).toContain(`note: ${OPERATIONS + 1} operations: each operation's validators are compiled on first use and its response examples checked then (what that finds is added to GET /__admin/warnings)`);
    expect(log.filter((line) => line.startsWith('warning:') && line.includes('response example'))).toEqual([]);
    expect(await warnings()).toEqual([]);
  });

  it('checks an operation’s examples when it is first used: the valid one is served, the broken one becomes a warning', async () => {
    const answer = await request(`${stub.url}/items3`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('example:fine');
    expect(answer.json).toEqual({ name: 'item 3' });
    expect(await warnings()).toEqual([{
      file,
      pointer: '/paths/~1items3/get/responses/200/content/application~1json/examples/broken/value',
      kind: 'response example that breaks its schema',
      reason: expect.stringContaining('/name: must be a string'),
    }]);
  });

  it('answers an operation whose schema Ajv cannot compile, and lists that schema as a warning', async () => {
    const answer = await request(`${stub.url}/weird`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await warnings()).toContainEqual({
      file,
      pointer: '/paths/~1weird/get/responses/200/content/application~1json/schema',
      kind: 'schema that cannot be compiled',
      reason: expect.stringContaining('wobbly'),
    });
  });

  it('from the command line, lists its first 25 operations and says where the rest are; at shutdown, tables the operations called', async () => {
    const cli = await startCli(['--spec', file, '--fixtures', join(dir, 'none'), '--port', '0', '--no-watch'], { timeoutMs: 30_000 });
    try {
      const lines = cli.stdout().split('\n');
      const start = lines.findIndex((line) => line === `Many items stub listening on ${cli.url}`);
      expect(start, cli.stdout()).toBeGreaterThanOrEqual(0);
      expect(lines.slice(start + 1, start + 3)).toEqual([`  GET     ${cli.url}/items0`, `  GET     ${cli.url}/items1`]);
      expect(lines[start + 25]).toBe(`  GET     ${cli.url}/items24`);
      expect(lines[start + 26]).toBe(`  … and ${OPERATIONS + 1 - 25} more operations: the admin page lists them all, ${cli.url}/__admin/`);
      expect(lines[start + 27]).toBe(`  health: ${cli.url}/__admin/health   journal: ${cli.url}/__admin/requests`);
      expect((await request(`${cli.url}/items3`)).status).toBe(200);
      expect((await request(`${cli.url}/items3`)).status).toBe(200);
      const { code, stdout } = await cli.stop('SIGTERM');
      expect(code).toBe(0);
      // At shutdown, the coverage table shows the operations called, and counts the others.
      expect(stdout.slice(stdout.indexOf('coverage: ')).trimEnd().split('\n')).toEqual([
        `coverage: 1/${OPERATIONS + 1} (1%)`,
        '  GET /items3',
        '    ✓ 200 (2)',
        `  … and ${OPERATIONS} operations not called (--coverage-out and GET /__admin/coverage list every one)`,
      ]);
    } finally {
      await cli.stop();
    }
  });

  it('with strict: true, compiles everything before starting and refuses the first broken example', async () => {
    await expect(startStub({ spec: file, fixtures: join(dir, 'none'), port: 0, watch: false, strict: true, log: () => {} })).rejects.toThrow(
      `${file}: /paths/~1items0/get/responses/200/content/application~1json/examples/broken/value: this example breaks its response schema`,
    );
  });
});

describe('references inside one file', () => {
  it.each([
    { name: 'a $ref to nothing', ref: '#/components/schemas/Itme', problem: '/paths/~1a/get/responses/200/content/application~1json/schema/$ref: unresolvable $ref "#/components/schemas/Itme": the document has nothing there' },
    { name: 'a $ref that is not a JSON pointer', ref: '#Item', problem: '/paths/~1a/get/responses/200/content/application~1json/schema/$ref: unresolvable $ref "#Item": the document has nothing there' },
  ])('$name stops the start, naming where it is written', async ({ ref, problem }) => {
    const bad = join(dir, 'bad-ref.json');
    const document = {
      openapi: '3.0.3',
      info: { title: 'bad', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } } } } },
      components: { schemas: { Item: { type: 'string' } } },
    };
    await writeFile(bad, JSON.stringify(document));
    await expect(startStub({ spec: bad, fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {} })).rejects.toThrow(`${bad}: ${problem}`);
  });
});
