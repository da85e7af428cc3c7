// No request or document makes the server do unbounded work: checks whose cost could grow faster
// than their input are linear (uniqueItems), generated data and expanded YAML are bounded in size,
// and SIGTERM ends the process within its grace whatever it is doing. These tests state the
// behaviour over real HTTP and real processes; how long the work takes is measured by
// `npm run soak`, never asserted here.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { startCli } from './helpers/cli.js';
import { post } from './helpers/http.js';

const UNIQUE_DOCUMENT = `
openapi: 3.1.0
info: { title: Unique items, version: '1' }
paths:
  /batches:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: array, uniqueItems: true, items: { type: [object, array, number, string, 'null'] } }
      responses:
        '204': { description: stored }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-bounded-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function stubFor(name: string, document: string): Promise<RunningStub> {
  const spec = join(dir, name);
  await writeFile(spec, document);
  return startStub({ spec, fixtures: join(dir, 'no-fixtures'), port: 0, watch: false, log: () => {} });
}

/**
 * About 900 KiB of distinct small objects (36,000). Ajv's pairwise check took 13 s for 224 KiB
 * and would take minutes for this; one pass takes a fraction of a second.
 */
function manyObjects(duplicateAtEnd: boolean): string {
  const items = Array.from({ length: 36_000 }, (_, i) => ({ id: i, name: `n${i}` }));
  if (duplicateAtEnd) items.push({ name: 'n0', id: 0 });
  return JSON.stringify(items);
}

describe('uniqueItems is checked by canonical JSON, in one pass', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await stubFor('unique.yaml', UNIQUE_DOCUMENT);
  });
  afterAll(() => stub.close());

  const cases = [
    { name: 'distinct objects pass', body: '[{"a":1},{"a":2},{"b":1}]', status: 204, message: undefined },
    { name: 'objects equal up to key order are duplicates', body: '[{"a":1,"b":[2]},{"b":[2],"a":1}]', status: 400, message: '/: must NOT have duplicate items (items ## 1 and 0 are identical)' },
    { name: 'deeply equal nested values are duplicates', body: '[7,{"a":[1,{"x":null}]},{"a":[1,{"x":null}]}]', status: 400, message: '/: must NOT have duplicate items (items ## 2 and 1 are identical)' },
    { name: '1 and 1.0 are the same number', body: '[1,1.0]', status: 400, message: '/: must NOT have duplicate items (items ## 1 and 0 are identical)' },
    { name: 'arrays differing only in order are distinct', body: '[[1,2],[2,1]]', status: 204, message: undefined },
    { name: 'a string and a number of the same text are distinct', body: '["1",1,null,"null"]', status: 204, message: undefined },
    { name: 'a 900 KiB body of distinct objects passes', body: manyObjects(false), status: 204, message: undefined },
    { name: 'a 900 KiB body with one duplicate at its end is refused, naming both items', body: manyObjects(true), status: 400, message: '/: must NOT have duplicate items (items ## 36000 and 0 are identical)' },
  ];

  it.each(cases)('$name', async ({ body, status, message }) => {
    // Not a timing assertion: the pairwise check would not answer the large bodies at all within
    // the test's time.
    const answer = await post(`${stub.url}/batches`, body, { 'content-type': 'application/json' });
    expect(answer.status).toBe(status);
    if (message === undefined) {
      expect(answer.text).toBe('');
    } else {
      expect(answer.headers.get('content-type')).toMatch(/json/);
      expect(answer.json.detail ?? answer.json.message).toBe(message);
    }
  });
});

const GREEDY_DOCUMENT = `
openapi: 3.0.3
info: { title: Greedy, version: '1' }
paths:
  /grid:
    get:
      responses:
        '200':
          description: 27 million strings
          content:
            application/json:
              schema:
                type: array
                minItems: 300
                items:
                  type: array
                  minItems: 300
                  items: { type: array, minItems: 300, items: { type: string, minLength: 10 } }
  /long:
    get:
      responses:
        '200': { description: 100 MB, content: { application/json: { schema: { $ref: '#/components/schemas/Huge' } } } }
  /pattern:
    get:
      responses:
        '200': { description: a billion characters, content: { application/json: { schema: { type: string, pattern: '^((a{1000}){1000}){1000}$' } } } }
  /fine:
    get:
      responses:
        '200': { description: small, content: { application/json: { schema: { type: array, minItems: 5, maxItems: 5, items: { type: string, minLength: 3, maxLength: 3 } } } } }
components:
  schemas:
    Huge: { type: string, minLength: 100000000 }
`;

describe('generated data is bounded, and the start names each schema asking for more', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await stubFor('greedy.yaml', GREEDY_DOCUMENT);
  });
  afterAll(() => stub.close());

  it('lists every schema that asks for more than is generated at GET /__admin/warnings, by pointer', async () => {
    const answer = await fetch(`${stub.url}/__admin/warnings`).then((r) => r.json()) as { warnings: Array<{ file: string; pointer: string; kind: string; reason: string }> };
    const capped = answer.warnings.filter((w) => w.kind === 'schema asking for more data than is generated');
    expect(capped.map((w) => w.pointer).sort()).toEqual([
      '/components/schemas/Huge',
      '/paths/~1grid/get/responses/200/content/application~1json/schema/items',
      '/paths/~1pattern/get/responses/200/content/application~1json/schema',
    ]);
    for (const warning of capped) {
      expect(warning.file).toBe(join(dir, 'greedy.yaml'));
      expect(warning.reason).toMatch(/^its smallest valid value is about [\d,]+ MB of JSON; generated data is capped at about 100 KB/);
    }
  });

  // Not a timing assertion: unbounded, the first two never answered at all (a minute, 587 MB).
  const cases = [
    { path: '/grid', check: (body: unknown) => Array.isArray(body) && body.length >= 1 && body.every((row) => Array.isArray(row)) },
    { path: '/long', check: (body: unknown) => typeof body === 'string' && body.length > 0 },
    { path: '/pattern', check: (body: unknown) => typeof body === 'string' },
    { path: '/fine', check: (body: unknown) => Array.isArray(body) && body.length === 5 && body.every((item) => typeof item === 'string' && item.length === 3) },
  ];
  it.each(cases)('GET $path answers 200 with generated data of at most about 100 KB', async ({ path, check }) => {
    const answer = await fetch(`${stub.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    const text = await answer.text();
    expect(text.length).toBeLessThanOrEqual(110_000);
    expect(check(JSON.parse(text))).toBe(true);
  });
});

describe('YAML aliases that expand beyond bounds ("billion laughs")', () => {
  /** Ten levels of ten aliases: 10^10 values from a 1 KB file, with 90 aliases (under the cap). */
  const laughs = (key: string) => [
    `${key}:`,
    '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from({ length: 9 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
  ].join('\n');

  it('a document that expands too far is refused at start, naming the file', async () => {
    const spec = join(dir, 'laughs.yaml');
    await writeFile(spec, `openapi: 3.0.3\ninfo: { title: Laughs, version: '1' }\npaths: {}\n${laughs('x-laughs')}\n`);
    const attempt = startStub({ spec, fixtures: join(dir, 'no-fixtures'), port: 0, watch: false, log: () => {} });
    await expect(attempt).rejects.toThrow(`${spec}: its YAML aliases (\`*name\`) expand it to more than 5,000,000 values ("billion laughs")`);
  });

  it('a fixture that expands too far is refused the same way', async () => {
    const fixtures = join(dir, 'laughing-fixtures');
    await mkdir(fixtures, { recursive: true });
    const fixture = join(fixtures, 'create-plant.yaml');
    await writeFile(fixture, `operation: POST /plants\nscenarios: {}\n${laughs('x-laughs')}\n`);
    const attempt = startStub({ spec: 'openapi.yaml', fixtures, port: 0, watch: false, log: () => {} });
    await expect(attempt).rejects.toThrow(`${fixture}: its YAML aliases`);
  });

  it('aliases that expand modestly are read as usual', async () => {
    const spec = join(dir, 'anchors.yaml');
    await writeFile(spec, `openapi: 3.0.3
info: { title: Anchors, version: '1' }
paths:
  /a:
    get:
      responses:
        '200': &ok { description: ok, content: { application/json: { schema: { type: string, enum: [same] } } } }
  /b:
    get:
      responses:
        '200': *ok
`);
    const stub = await startStub({ spec, fixtures: join(dir, 'no-fixtures'), port: 0, watch: false, log: () => {} });
    try {
      const answer = await fetch(`${stub.url}/b`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toBe('same');
    } finally {
      await stub.close();
    }
  });
});

describe('SIGTERM ends the process within the grace, whatever is running', { timeout: 40_000 }, () => {
  it('with generation requests in flight, the CLI exits 0 after SIGTERM', async () => {
    const spec = join(dir, 'greedy-cli.yaml');
    await writeFile(spec, GREEDY_DOCUMENT);
    const cli = await startCli(['--spec', spec, '--fixtures', join(dir, 'no-fixtures'), '--port', '0', '--no-watch', '--quiet'], { timeoutMs: 20_000 });
    const inFlight = Array.from({ length: 6 }, () => fetch(`${cli.url}/grid`).then((r) => r.status, () => 'dropped'));
    await new Promise((r) => setTimeout(r, 100));
    // stop() fails the test if the process is still there 10 s after the signal.
    const exited = await cli.stop('SIGTERM', 10_000);
    expect(exited).toMatchObject({ code: 0, signal: null });
    expect(exited.stdout).toContain('SIGTERM: finishing in-flight requests');
    for (const status of await Promise.all(inFlight)) expect([200, 'dropped']).toContain(status);
  });

  it('a main thread that never gets back to its event loop is ended by the watchdog thread at the deadline', async () => {
    // The watchdog as the CLI arms it, in a process whose main thread then spins forever.
    const watchdog = join(import.meta.dirname, '..', 'dist', 'http', 'exit-watchdog.js');
    const script = `import(${JSON.stringify(watchdog)}).then(({ armExitWatchdog }) => { armExitWatchdog(300, 'SIGTERM'); for (;;); })`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const ended = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (code, signal) => {
        clearTimeout(guard);
        resolve({ code, signal });
      });
    });
    expect(ended).toEqual({ code: null, signal: 'SIGKILL' });
    expect(stderr).toBe('SIGTERM: still busy 300 ms later; stopped without finishing (coverage not written)\n');
  });
});
