// Mistakes a user makes at the edges, answered with what to do about them, through the CLI: a
// flag or a fixture's operation near a real one names it, a broken .json file is reported as
// JSON with its line and column, a document without paths says so at start, a Swagger 1.2
// document is named as such, a state file that could never be written stops the start, and
// flags npm took for itself (`npm start --spec x`) are named with the command that works.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type StartedCli } from './helpers/cli.js';

let dir: string;
const CLI = resolve(import.meta.dirname, '..', 'dist', 'cli.js');
const started: StartedCli[] = [];

const TREES = 'openapi: 3.0.3\ninfo: {title: Trees, version: "1"}\npaths:\n  /trees:\n    get:\n      responses:\n        "200": {description: the trees}\n';
const NO_PATHS = 'openapi: 3.0.3\ninfo: {title: Empty, version: "1"}\npaths: {}\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-suggestions-'));
  await mkdir(join(dir, 'near-fixtures'));
  await writeFile(join(dir, 'near-fixtures', 'create.yaml'), 'operation: post /plant\nscenarios:\n  fern:\n    status: 200\n    body: {name: Fern}\n');
  await writeFile(join(dir, 'near-fixtures', 'trees.yaml'), 'operation: GET /trees/{id}\nscenarios:\n  oak:\n    status: 200\n    body: {}\n');
  await mkdir(join(dir, 'json-fixtures'));
  await writeFile(join(dir, 'json-fixtures', 'create.json'), '{\n  "operation": "POST /plants",\n  "scenarios": {\n    "fern": {"status": 200,}\n  }\n}\n');
  await writeFile(join(dir, 'broken.json'), '{\n  "openapi": "3.0.3",\n  "info": {"title": "Broken", "version": "1"},\n  "paths": {\n    "/plants": {\n  }\n');
  await writeFile(join(dir, 'truncated-token.json'), '{\n  "openapi": "3.0.3",\n  "paths": {"/a": tru}\n}\n');
  await writeFile(join(dir, 'empty.yaml'), NO_PATHS);
  await writeFile(join(dir, 'no-operations.yaml'), 'openapi: 3.1.0\ninfo: {title: Parameters only, version: "1"}\npaths:\n  /plants:\n    summary: nothing to call\n');
  await mkdir(join(dir, 'no-fixtures'));
  await writeFile(join(dir, 'trees.yaml'), TREES);
  await mkdir(join(dir, 'api', 'resources'), { recursive: true });
  await writeFile(join(dir, 'api', 'public.v2.yaml'), TREES);
  await writeFile(join(dir, 'api', 'notes.txt'), 'not a document\n');
  await writeFile(join(dir, 'pets-1.2.json'), JSON.stringify({ swaggerVersion: '1.2', apiVersion: '1.0', apis: [{ path: '/pets' }] }));
  await writeFile(join(dir, 'pets-1.2.yaml'), 'swagger: "1.2"\ninfo: {title: Pets}\n');
  await writeFile(join(dir, 'unquoted-2.yaml'), 'swagger: 2.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n');
});

afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('refusals to start that name the fix', () => {
  const cases: Array<{ name: string; args: () => string[]; line: () => string }> = [
    { name: 'an unknown flag two letters from a real one names the real one', args: () => ['--sepc', 'openapi.yaml'], line: () => "Unknown option '--sepc'; did you mean --spec?" },
    { name: 'an unknown flag one letter short of a real one names it', args: () => ['--fixture', 'fixtures'], line: () => "Unknown option '--fixture'; did you mean --fixtures?" },
    { name: 'a flag written with a value after = is named the same way', args: () => ['--prot=4011'], line: () => "Unknown option '--prot'; did you mean --port?" },
    { name: 'an unknown flag near no real one only points at --help', args: () => ['--colour'], line: () => "Unknown option '--colour' (see --help)" },
    { name: 'a broken .json document is reported as JSON with its line and column', args: () => ['--spec', join(dir, 'broken.json')], line: () => `${join(dir, 'broken.json')}: invalid JSON at line 7, column 1: close brace expected` },
    { name: 'a .json document with a misspelt value names where the value starts', args: () => ['--spec', join(dir, 'truncated-token.json')], line: () => `${join(dir, 'truncated-token.json')}: invalid JSON at line 3, column 19: invalid symbol` },
    { name: 'a broken .json fixture is reported as JSON with its line and column', args: () => ['--fixtures', join(dir, 'json-fixtures')], line: () => `${join(dir, 'json-fixtures', 'create.json')}: invalid JSON at line 4, column 28: property name expected` },
    {
      name: 'a spec named by a URL the stub cannot read says to save it as a file',
      args: () => ['--spec', 'ftp://api.example.test/v2/openapi.yaml'],
      line: () => 'ftp://api.example.test/v2/openapi.yaml: a URL the stub cannot read (it reads files and http(s) URLs): save the document as a file and pass --spec openapi.yaml',
    },
    { name: 'a spec that is a folder names the documents in it', args: () => ['--spec', join(dir, 'api')], line: () => `${join(dir, 'api')}: a folder, not a document; the documents in it: public.v2.yaml` },
    { name: 'with --strict, a document without paths is refused saying so', args: () => ['--strict', '--spec', join(dir, 'empty.yaml'), '--fixtures', join(dir, 'no-fixtures')], line: () => `${join(dir, 'empty.yaml')}: /paths: the document has no paths, so nothing is served (every request but /__admin/ is answered 404); --strict refuses documents with warnings` },
    {
      name: 'a Swagger 1.2 document is named as 1.2, with the converter that makes it OpenAPI 3',
      args: () => ['--spec', join(dir, 'pets-1.2.json')],
      line: () => `${join(dir, 'pets-1.2.json')}: /swaggerVersion: this is a Swagger 1.2 document; the stub serves OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0: convert it first (npx api-spec-converter --from=swagger_1 --to=openapi_3 --syntax=yaml FILE > openapi.yaml)`,
    },
    {
      name: 'a document saying swagger: "1.2" is named as 1.2 too',
      args: () => ['--spec', join(dir, 'pets-1.2.yaml')],
      line: () => `${join(dir, 'pets-1.2.yaml')}: /swagger: this is a Swagger 1.2 document; the stub serves OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0: convert it first (npx api-spec-converter --from=swagger_1 --to=openapi_3 --syntax=yaml FILE > openapi.yaml)`,
    },
    {
      name: 'swagger: 2.0 written as a number says how 2.0 is written',
      args: () => ['--spec', join(dir, 'unquoted-2.yaml')],
      line: () => `${join(dir, 'unquoted-2.yaml')}: /openapi: only OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0 are served, found "swagger: 2" (Swagger 2.0 is written swagger: "2.0")`,
    },
    { name: 'a --state-file that is a folder is refused before serving', args: () => ['--state-file', dir], line: () => `--state-file: cannot write ${dir} (EISDIR); give a file in a folder the stub may write` },
    // /proc/self exists but takes no new file, for root too: changes could never be written there.
    { name: 'a --state-file in a folder the stub cannot write is refused before serving', args: () => ['--state-file', '/proc/self/state.json'], line: () => '--state-file: cannot write /proc/self/state.json (ENOENT); give a file in a folder the stub may write' },
  ];
  it.concurrent.each(cases)('$name', async ({ args, line }) => {
    const run = await runCli(['--port', '0', '--no-watch', '--quiet', ...args()]);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', `plant-store-stub: ${line()}\n`]);
  }, 20_000);
});

describe('warnings at start that name the fix', () => {
  it('a fixture naming an operation near a real one suggests it, one naming nothing near does not, and neither is served', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--fixtures', join(dir, 'near-fixtures')]);
    started.push(cli);
    const warnings = cli.stdout().split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toEqual([
      `warning: ${join(dir, 'near-fixtures', 'create.yaml')}: the spec has no operation "post /plant" (did you mean "POST /plants"?); its scenarios are not served`,
      `warning: ${join(dir, 'near-fixtures', 'trees.yaml')}: the spec has no operation "GET /trees/{id}"; its scenarios are not served`,
    ]);
    const answer = await fetch(`${cli.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-mock-scenario': 'fern' },
      body: '{"id":1,"name":"Monstera"}',
    });
    expect([answer.status, answer.headers.get('content-type'), await answer.json()]).toEqual([422, 'application/problem+json', {
      type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'unknown scenario "fern" for POST /plants; known scenarios: none', knownScenarios: [],
    }]);
  });

  it.each([
    ['a document whose paths are empty', 'empty.yaml', 'the document has no paths'],
    ['a document whose paths hold no operation', 'no-operations.yaml', 'no path of the document has an operation'],
  ])('%s says so at start, lists it at /__admin/warnings, and answers 404', async (_name, file, what) => {
    const spec = join(dir, file);
    const cli = await startCli(['--port', '0', '--no-watch', '--spec', spec, '--fixtures', join(dir, 'no-fixtures')]);
    started.push(cli);
    const reason = `${what}, so nothing is served (every request but /__admin/ is answered 404)`;
    const lines = cli.stdout().split('\n');
    expect(lines.filter((line) => line.startsWith('warning: '))).toEqual([`warning: ${spec}: ${reason} (--strict refuses it)`]);
    expect(lines.findIndex((line) => line.startsWith('warning: '))).toBeLessThan(lines.findIndex((line) => line.includes(' listening on ')));
    const listed = await fetch(`${cli.url}/__admin/warnings`);
    expect([listed.status, await listed.json()]).toEqual([200, { warnings: [{ file: spec, pointer: '/paths', kind: 'document without paths', reason }] }]);
    const answer = await fetch(`${cli.url}/plants`);
    expect([answer.status, answer.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
  });

  // The CLI runs in the project's folder, whose ./fixtures holds the Plant Store's: what a user who
  // serves their own document from a clone (`npm start -- --spec ../my-api/openapi.yaml`) sees.
  it.each([
    {
      name: 'the default ./fixtures, all for operations another document has, is one note naming --fixtures, and no warning',
      args: [] as string[],
      said: ['note: ./fixtures (the default --fixtures folder) holds fixtures for another document only (POST /plants), so none are served; name this document\'s folder with --fixtures DIR'],
      listed: [],
    },
    {
      name: 'the same folder named with --fixtures is a warning per file, listed at /__admin/warnings',
      args: ['--fixtures', 'fixtures'],
      said: ['warning: fixtures/create-plant.yaml: the spec has no operation "POST /plants"; its scenarios are not served'],
      listed: [{ file: 'fixtures/create-plant.yaml', pointer: '/operation', kind: 'fixture for an operation the document lacks', reason: 'the spec has no operation "POST /plants"; its scenarios are not served' }],
    },
  ])('$name', async ({ args, said, listed }) => {
    const cli = await startCli(['--port', '0', '--no-watch', '--spec', join(dir, 'trees.yaml'), ...args]);
    started.push(cli);
    expect(cli.stdout().split('\n').filter((line) => /^(note|warning): /.test(line))).toEqual(said);
    const warnings = await fetch(`${cli.url}/__admin/warnings`);
    expect([warnings.status, await warnings.json()]).toEqual([200, { warnings: listed }]);
    const answer = await fetch(`${cli.url}/trees`);
    expect(answer.status).toBe(200);
  });
});

describe('flags that reach the stub another way than the user wrote', () => {
  it('--seed-items alone turns stateful mode on and says so: the seeded items are listed', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--spec', 'test/specs/plant-store-full.yaml', '--fixtures', 'test/specs/plant-store-full-fixtures', '--seed-items', '2']);
    started.push(cli);
    const lines = cli.stdout().split('\n');
    expect(lines[0]).toBe("note: --seed-items fills stateful mode's store, so stateful mode is on (as with --stateful)");
    expect(lines).toContain('  stateful: 1 resource; 0 path pairs left stateless, see /__admin/resources');
    const list = await fetch(`${cli.url}/plants`, { headers: { authorization: 'Bearer t' } });
    expect([list.status, list.headers.get('x-mock-scenario'), ((await list.json()) as Array<{ id: number }>).map((plant) => plant.id)]).toEqual([200, 'state', [1, 2]]);
  });

  // What npm does with `npm start --spec x.yaml --port 0` (the `--` forgotten): a real npm runs a
  // package whose start script is the stub, as a clone's `npm start` is.
  it.each([
    { typed: ['--spec', 'x.yaml', '--port', '0'], line: "npm took --spec, --port for itself, not for the stub; put the stub's flags after --: npm start -- --spec … --port …" },
    { typed: ['--spec=x.yaml', '--stateful'], line: "npm took --spec, --stateful for itself, not for the stub; put the stub's flags after --: npm start -- --spec x.yaml --stateful" },
  ])('npm start $typed without -- is refused, naming the command that works', async ({ typed, line }) => {
    const project = await mkdtemp(join(dir, 'npm-'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'npm-start', version: '1.0.0', private: true, scripts: { start: `node ${JSON.stringify(CLI)}` } }));
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile('npm', ['start', ...typed], { cwd: project, timeout: 20_000 }, (error, _stdout, stderr) => resolve({ code: error ? (error as { code?: number }).code ?? null : 0, stderr }));
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr.split('\n')).toContain(`plant-store-stub: ${line}`);
  }, 30_000);
});
