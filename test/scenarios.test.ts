// Issue 3: choosing what the stub answers (scenario fixtures, Prefer, sticky scenarios, delays),
// seeded generated data, fixtures checked against the spec at start-up, and hot reload. All over
// real HTTP against servers started on port 0.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Ajv } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { pollUntil } from './helpers/poll.js';
import { createPlant, JSON_HEADERS, PROBLEM_TYPE } from './helpers/plant.js';

// CommonJS default export, seen through NodeNext's ESM interop.
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'openapi.yaml');
const FIXTURES = join(ROOT, 'fixtures');
const VALID = '{"id":7,"name":"Ficus","tag":"fig"}';
/** The admin API is Express, which adds a charset to the media type. */
const ADMIN_PROBLEM_TYPE = /^application\/problem\+json(; charset=utf-8)?$/;

const shipped = parseYaml(await readFile(join(FIXTURES, 'create-plant.yaml'), 'utf8')) as {
  scenarios: Record<string, { status: number; body: unknown; delay?: number }>;
};
const SHIPPED_NAMES = Object.keys(shipped.scenarios);
/** The shipped fixtures answered at once (slow-create is for delay tests, not the table). */
const INSTANT = SHIPPED_NAMES.filter((name) => shipped.scenarios[name].delay === undefined);

const plantStore = parseYaml(await readFile(SPEC, 'utf8')) as { components: { schemas: Record<string, object> } };
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const isPlant = ajv.compile(plantStore.components.schemas.Plant);

const temps: string[] = [];
const started: RunningStub[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-scenarios-'));
  temps.push(dir);
  return dir;
}

async function start(options: Parameters<typeof startStub>[0]): Promise<RunningStub> {
  const stub = await startStub({ port: 0, watch: false, ...options });
  started.push(stub);
  return stub;
}

/**
 * A selection the stub cannot honour: 422 problem+json (not 400, which the API documents with its
 * own Error shape). The title is Node's reason phrase for 422.
 */
function unprocessable(detail: string): Record<string, unknown> {
  return { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail };
}

afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('scenario selection on POST /plants', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  it('ships the fixtures this suite expects', () => {
    expect(INSTANT).toEqual(expect.arrayContaining(['duplicate-id', 'unknown-tag', 'name-too-long']));
  });

  it.each(INSTANT)('X-Mock-Scenario: %s answers that fixture, naming it in X-Mock-Scenario', async (name) => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': name });
    expect(response.status).toBe(shipped.scenarios[name].status);
    expect(response.headers.get('x-mock-scenario')).toBe(name);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios[name].body));
  });

  it('an invalid body with a scenario header still gets the validation 400, not the fixture', async () => {
    const response = await createPlant(stub.url, '{"name":"Ficus"}', { 'x-mock-scenario': 'duplicate-id' });
    expect(response.status).toBe(400);
    expect(response.text).toBe('{"error":400,"message":"/id: is required"}');
    expect(response.headers.get('x-mock-scenario')).toBeNull();
  });

  it('a scenario header without authentication is 401: auth comes before selection', async () => {
    const response = await request(`${stub.url}/plants`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-scenario': 'duplicate-id' }, body: VALID,
    });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 401, message: expect.stringContaining('Authorization') });
    expect(response.headers.get('x-mock-scenario')).toBeNull();
  });

  it('an unknown scenario is a 422 problem listing the known scenario names', async () => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'no-such-scenario' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.headers.get('x-mock-scenario')).toBeNull();
    expect(response.json).toEqual({
      ...unprocessable(`unknown scenario "no-such-scenario" for POST /plants; known scenarios: ${SHIPPED_NAMES.join(', ')}`),
      knownScenarios: SHIPPED_NAMES,
    });
  });

  it('Prefer: code=400 answers a documented 400 fixture', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=400' });
    expect(response.status).toBe(400);
    const name = response.headers.get('x-mock-scenario')!;
    expect(INSTANT).toContain(name);
    expect(response.text).toBe(JSON.stringify(shipped.scenarios[name].body));
  });

  it('Prefer: code=200 answers generated Plant data at once, skipping the 3-second slow-create fixture', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { prefer: 'code=200' });
    const elapsed = performance.now() - t0;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(isPlant(response.json), `${response.text}: ${JSON.stringify(isPlant.errors)}`).toBe(true);
    expect(response.text).not.toBe(JSON.stringify(shipped.scenarios['slow-create'].body));
    // slow-create waits 3000 ms; an answer well inside that cannot have been it.
    expect(elapsed).toBeLessThan(1_500);
  });

  it('Prefer: code=418 is a 422 problem listing the documented statuses', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=418' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual({
      ...unprocessable('Prefer: code=418 is not documented for POST /plants; documented statuses: 200, 400'),
      documentedStatuses: ['200', '400'],
    });
  });

  it('Prefer: code=abc is a 422 problem, not a silent default', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=abc' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual(unprocessable('Prefer: code=abc is not an HTTP status code'));
  });

  it('Prefer: example=duplicate-id answers that scenario, never a 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'example=duplicate-id' });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-mock-scenario')).toBe('duplicate-id');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios['duplicate-id'].body));
  });

  it('Prefer: code=400, example=unknown-tag answers that scenario, not the first 400 fixture', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=400, example=unknown-tag' });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-mock-scenario')).toBe('unknown-tag');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios['unknown-tag'].body));
  });

  it('Prefer: code=200, example=duplicate-id (a 400 scenario) is a 422 problem listing the names for 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=200, example=duplicate-id' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual({
      ...unprocessable('no example or scenario "duplicate-id" answers 200 for POST /plants; known for 200: slow-create'),
      knownExamples: ['slow-create'],
    });
  });

  it('Prefer: example=<unknown> is a 422 problem listing the known names, never a 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'example=no-such-example' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    // The plant store documents no examples, so the known names are the scenarios.
    expect(response.json).toEqual({
      ...unprocessable(`unknown example "no-such-example" for POST /plants; known examples and scenarios: ${SHIPPED_NAMES.join(', ')}`),
      knownExamples: SHIPPED_NAMES,
    });
  });

  it('Prefer: dynamic=true answers generated data valid against Plant', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await createPlant(stub.url, `{"id":${i},"name":"Ficus"}`, { prefer: 'dynamic=true' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-mock-scenario')).toBe('generated');
      expect(isPlant(response.json), `${response.text}: ${JSON.stringify(isPlant.errors)}`).toBe(true);
    }
  });

  it('GET /__admin/scenarios lists the POST /plants scenarios with name and status', async () => {
    const response = await request(`${stub.url}/__admin/scenarios`);
    expect(response.status).toBe(200);
    const operation = response.json.operations.find((entry: { operation: string }) => entry.operation === 'POST /plants');
    expect(operation).toBeDefined();
    expect(operation.scenarios.map(({ name, status }: { name: string; status: number }) => ({ name, status }))).toEqual(
      SHIPPED_NAMES.map((name) => ({ name, status: shipped.scenarios[name].status })),
    );
    expect(response.json.sticky).toBeNull();
  });
});

describe('sticky scenarios through /__admin/scenario', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  const putSticky = (name: string) =>
    request(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });

  it('a sticky scenario answers plain requests, yields to a request\'s own selection, and clears', async () => {
    expect((await createPlant(stub.url, VALID)).headers.get('x-mock-scenario')).toBe('echo');

    const put = await putSticky('unknown-tag');
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ sticky: 'unknown-tag' });

    for (let i = 0; i < 2; i++) {
      const plain = await createPlant(stub.url, VALID);
      expect(plain.status).toBe(400);
      expect(plain.headers.get('x-mock-scenario')).toBe('unknown-tag');
      expect(plain.text).toBe(JSON.stringify(shipped.scenarios['unknown-tag'].body));
    }
    const own = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id' });
    expect(own.headers.get('x-mock-scenario')).toBe('duplicate-id');
    expect(own.text).toBe(JSON.stringify(shipped.scenarios['duplicate-id'].body));
    const preferred = await createPlant(stub.url, VALID, { prefer: 'dynamic=true' });
    expect(preferred.status).toBe(200);
    expect(preferred.headers.get('x-mock-scenario')).toBe('generated');
    // Validation still comes first.
    expect((await createPlant(stub.url, '{}')).text).toBe('{"error":400,"message":"/name: is required; /id: is required"}');
    expect((await request(`${stub.url}/__admin/scenarios`)).json.sticky).toBe('unknown-tag');

    const cleared = await request(`${stub.url}/__admin/scenario`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    const after = await createPlant(stub.url, VALID);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-mock-scenario')).toBe('echo');
    expect(after.text).toBe('{"name":"Ficus","tag":"fig"}');
  });

  it('PUT with an unknown name is a 404 problem listing the names, and changes nothing', async () => {
    const response = await putSticky('no-such-scenario');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(ADMIN_PROBLEM_TYPE);
    expect(response.json).toMatchObject({ status: 404, knownScenarios: SHIPPED_NAMES });
    expect(response.json.detail).toContain('no-such-scenario');
    expect((await createPlant(stub.url, VALID)).headers.get('x-mock-scenario')).toBe('echo');
  });

  it('PUT without a name is a 400 problem', async () => {
    const response = await request(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(ADMIN_PROBLEM_TYPE);
  });
});

describe('X-Mock-Delay', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  it('a delayed request does not hold up an undelayed one started at the same time', async () => {
    const t0 = performance.now();
    const timed = (headers: Record<string, string>) => createPlant(stub.url, VALID, headers).then((response) => ({ response, ms: performance.now() - t0 }));
    const order: string[] = [];
    const [slow, fast] = await Promise.all([
      timed({ 'x-mock-delay': '300' }).then((r) => (order.push('slow'), r)),
      timed({}).then((r) => (order.push('fast'), r)),
    ]);
    expect(order).toEqual(['fast', 'slow']);
    expect(slow.response.status).toBe(200);
    expect(fast.response.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(300);
    expect(fast.ms).toBeLessThan(slow.ms);
  });

  it('a scenario with X-Mock-Delay answers the scenario after the delay', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id', 'x-mock-delay': '150' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
    expect(response.headers.get('x-mock-scenario')).toBe('duplicate-id');
  });

  it.each(['abc', '-1', '60001', '1.5', '', '1e3', '0x10', '+5'])('X-Mock-Delay: "%s" is a 422 problem', async (value) => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-delay': value });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual(unprocessable(`X-Mock-Delay must be a whole number of milliseconds from 0 to 60000, got "${value}"`));
  });
});

// Prefer: code=N picks a fixture with that status, but never one that scripts a delay or a fault:
// those are served only when asked for by name. Past them: the documented example, else generated.
describe('Prefer: code=N skips fixtures that script a delay or a fault', () => {
  const SLOW_MS = 1_500;
  // Delayed and faulted fixtures come first, so a first-match rule would pick them.
  const FIXTURE = `operation: POST /plants
scenarios:
  slow-ok: {status: 200, delay: ${SLOW_MS}, body: {name: Slow}}
  reset-ok: {status: 200, fault: reset, body: {name: Reset}}
  quick-ok: {status: 200, body: {name: Quick, tag: ok}}
  slow-error: {status: 400, delay: ${SLOW_MS}, body: {error: 1, message: slow}}
  closed-error: {status: 400, fault: close, body: {error: 2, message: closed}}
`;
  const ERROR_REF = "                $ref: '#/components/schemas/Error'\n";
  let stub: RunningStub;

  beforeAll(async () => {
    const dir = await tempDir();
    const spec = await readFile(SPEC, 'utf8');
    expect(spec.split(ERROR_REF)).toHaveLength(2);
    // The plant store with a documented example for its 400 response.
    await writeFile(join(dir, 'openapi.yaml'), spec.replace(ERROR_REF, `${ERROR_REF}              example: {error: 9, message: documented}\n`));
    await mkdir(join(dir, 'fixtures'));
    await writeFile(join(dir, 'fixtures', 'plants.yaml'), FIXTURE);
    stub = await start({ spec: join(dir, 'openapi.yaml'), fixtures: join(dir, 'fixtures') });
  });

  // Prefer -> status, X-Mock-Scenario, exact body; every one answered at once.
  const cases: Array<[string, string, number, string, string]> = [
    ['code=200 passes the delayed and the faulted 200 fixtures and answers the plain one', 'code=200', 200, 'quick-ok', '{"name":"Quick","tag":"ok"}'],
    ['code=400 passes the delayed and the faulted 400 fixtures and answers the documented example', 'code=400', 400, 'example:default', '{"error":9,"message":"documented"}'],
  ];

  it.each(cases)('Prefer: %s', async (_name, prefer, status, label, body) => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { prefer });
    const elapsed = performance.now() - t0;
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-mock-scenario')).toBe(label);
    expect(response.text).toBe(body);
    expect(elapsed).toBeLessThan(SLOW_MS - 500);
  });

  it('the delayed fixture is still served when asked for by name, after its delay', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'slow-ok' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(SLOW_MS);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('slow-ok');
    expect(response.text).toBe('{"name":"Slow"}');
  });

  it('the faulted fixture is still served when asked for by name: the connection is reset', async () => {
    await expect(createPlant(stub.url, VALID, { 'x-mock-scenario': 'reset-ok' })).rejects.toThrow(TypeError);
    // And the server goes on serving.
    const after = await createPlant(stub.url, VALID, { prefer: 'code=200' });
    expect(after.headers.get('x-mock-scenario')).toBe('quick-ok');
  });
});

const THINGS_SPEC = `openapi: 3.1.0
info:
  title: Things
  version: 1.0.0
paths:
  /things/{id}:
    get:
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: integer
            minimum: 1
        - name: view
          in: query
          schema:
            type: string
      responses:
        '200':
          description: one thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
components:
  schemas:
    Thing:
      type: object
      required: [uuid, createdAt, email, count, status]
      properties:
        uuid:
          type: string
          format: uuid
        createdAt:
          type: string
          format: date-time
        email:
          type: string
          format: email
        count:
          type: integer
          minimum: 10
          maximum: 20
        status:
          type: string
          enum: [available, pending, sold]
`;

describe('seeded generated data', () => {
  const paths = [...Array.from({ length: 8 }, (_, i) => `/things/${i + 1}`), '/things/1?view=full', '/things/2?view=short'];
  let dir: string;
  let thing: ReturnType<typeof ajv.compile>;

  beforeAll(async () => {
    dir = await tempDir();
    await writeFile(join(dir, 'things.yaml'), THINGS_SPEC);
    thing = ajv.compile((parseYaml(THINGS_SPEC) as { components: { schemas: { Thing: object } } }).components.schemas.Thing);
  });

  async function fetchAll(stub: RunningStub, order: string[]): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    for (const path of order) {
      const response = await request(`${stub.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-mock-scenario')).toBe('generated');
      bodies.set(path, response.text);
    }
    return bodies;
  }

  it('the same seed gives the same bytes per request, whatever the order; another seed gives others', async () => {
    const fixtures = join(dir, 'no-fixtures');
    const [a, b, c] = await Promise.all([
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 42 }),
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 42 }),
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 43 }),
    ]);
    const forward = await fetchAll(a, paths);
    // Instance b sees the requests reversed, interleaved with repeats.
    const shuffled = [...paths].reverse().flatMap((path, i) => (i % 3 === 0 ? [path, paths[i]] : [path]));
    const backward = await fetchAll(b, shuffled);
    const again = await fetchAll(a, [...paths].reverse());
    const otherSeed = await fetchAll(c, paths);

    for (const path of paths) {
      expect(backward.get(path), path).toBe(forward.get(path));
      expect(again.get(path), path).toBe(forward.get(path));
      expect(otherSeed.get(path), path).not.toBe(forward.get(path));
      const value = JSON.parse(forward.get(path)!);
      expect(thing(value), `${path}: ${JSON.stringify(thing.errors)}`).toBe(true);
    }
    // Different requests get different data, not one canned object.
    expect(new Set(forward.values()).size).toBe(paths.length);
  });

  it('a path parameter that breaks its schema is refused before generation', async () => {
    const stub = await start({ spec: join(dir, 'things.yaml'), fixtures: join(dir, 'no-fixtures'), seed: 42 });
    const response = await request(`${stub.url}/things/0`);
    expect(response.status).toBe(400);
  });
});

describe('fixtures are checked against the spec at start-up', () => {
  const fixture = (operation: string, name: string, scenario: string) =>
    `operation: ${operation}\nscenarios:\n  ${name}:\n${scenario.replace(/^/gm, '    ')}\n`;

  async function fixturesDir(files: Record<string, string>): Promise<string> {
    const dir = await tempDir();
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('a fixture body that breaks the Error schema refuses start-up, naming the file and the pointer', async () => {
    const dir = await fixturesDir({ 'bad.yaml': fixture('POST /plants', 'broken-error', 'status: 400\nbody:\n  error: "x"\n  message: oops') });
    const attempt = startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    const error = (await attempt.catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toContain(join(dir, 'bad.yaml'));
    expect(error.message).toContain('/scenarios/broken-error/body/error');
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('a fixture missing a required Error field names that field', async () => {
    const dir = await fixturesDir({ 'bad.yaml': fixture('POST /plants', 'no-message', 'status: 400\nbody:\n  error: 1') });
    await expect(startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false })).rejects.toThrow(/bad\.yaml.*\/scenarios\/no-message\/body\/message/);
  });

  it('a fixture with an undocumented status (418) refuses start-up, naming /scenarios/<name>/status', async () => {
    const dir = await fixturesDir({ 'teapot.yaml': fixture('POST /plants', 'teapot', 'status: 418\nbody:\n  error: 418\n  message: short and stout') });
    const attempt = startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/teapot\.yaml: \/scenarios\/teapot\/status: 418 is not documented/);
  });

  it('a fixture for an operation the spec lacks only warns; the stub starts and serves', async () => {
    const dir = await fixturesDir({
      'orphan.yaml': fixture('DELETE /plants/{id}', 'gone', 'status: 204'),
      'good.yaml': fixture('POST /plants', 'ok-one', 'status: 400\nbody:\n  error: 9\n  message: fine'),
    });
    const lines: string[] = [];
    const stub = await start({ spec: SPEC, fixtures: dir, log: (line) => lines.push(line) });
    expect(lines.some((line) => line.startsWith('warning:') && line.includes('orphan.yaml') && line.includes('DELETE /plants/{id}'))).toBe(true);
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'ok-one' });
    expect(response.status).toBe(400);
    expect(response.text).toBe('{"error":9,"message":"fine"}');
  });
});

describe('hot reload', { timeout: 30_000 }, () => {
  // A reload waits for a quiet second after the last write; 8 s is ample even on a loaded CI machine.
  const PICKUP_MS = 8_000;

  async function workspace(): Promise<{ dir: string; spec: string; fixture: string; lines: string[]; stub: RunningStub }> {
    const dir = await tempDir();
    await mkdir(join(dir, 'fixtures'));
    const spec = join(dir, 'openapi.yaml');
    const fixture = join(dir, 'fixtures', 'create-plant.yaml');
    await copyFile(SPEC, spec);
    await copyFile(join(FIXTURES, 'create-plant.yaml'), fixture);
    const lines: string[] = [];
    const stub = await start({ spec, fixtures: join(dir, 'fixtures'), watch: true, log: (line) => lines.push(line) });
    return { dir, spec, fixture, lines, stub };
  }

  /** Waits for the next log line matching `pattern` after `from` lines. */
  const logged = (lines: string[], from: number, pattern: RegExp) =>
    pollUntil(async () => lines.slice(from).some((line) => pattern.test(line)), Boolean, PICKUP_MS);

  it('fixture edits are served within seconds; a broken fixture keeps the last good version serving', async () => {
    const { fixture, lines, stub } = await workspace();
    const original = await readFile(fixture, 'utf8');
    expect(original).toContain('message: A plant with this id already exists');
    const duplicate = () => createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id' }).then((r) => r.text);
    expect(await duplicate()).toBe('{"error":1001,"message":"A plant with this id already exists"}');

    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: That id is taken (edited)'));
    const edited = '{"error":1001,"message":"That id is taken (edited)"}';
    expect(await pollUntil(duplicate, (text) => text === edited, PICKUP_MS)).toBe(edited);

    const before = lines.length;
    await writeFile(fixture, original.replace('error: 1001', 'error: "x"'));
    expect(await logged(lines, before, /reload refused/)).toBe(true);
    expect(lines.slice(before).find((line) => /reload refused/.test(line))).toContain('/scenarios/duplicate-id/body/error');
    // For about a second the last good version keeps serving.
    const unchanged = await pollUntil(duplicate, (text) => text !== edited, 1_000, 100);
    expect(unchanged).toBe(edited);

    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: Edited again'));
    const again = '{"error":1001,"message":"Edited again"}';
    expect(await pollUntil(duplicate, (text) => text === again, PICKUP_MS)).toBe(again);
  });

  it('the sticky scenario survives a reload; when an edit removes it, it is cleared with a warning', async () => {
    const { fixture, lines, stub } = await workspace();
    const original = await readFile(fixture, 'utf8');
    stub.useScenario('name-too-long');
    const plain = () => createPlant(stub.url, '{"id":1,"name":"Ficus"}').then((r) => `${r.status} ${r.headers.get('x-mock-scenario')}`);
    expect(await plain()).toBe('400 name-too-long');

    let before = lines.length;
    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: Edited'));
    expect(await logged(lines, before, /^reloaded /)).toBe(true);
    expect(await plain()).toBe('400 name-too-long');

    before = lines.length;
    await writeFile(fixture, original.replace('  name-too-long:', '  name-far-too-long:'));
    expect(await logged(lines, before, /^reloaded /)).toBe(true);
    expect(lines.slice(before)).toContain('warning: the sticky scenario "name-too-long" is no longer in the fixtures; it was cleared');
    expect(await plain()).toBe('200 echo');
  });

  it('spec edits are served within seconds; a broken spec keeps the last good version serving', async () => {
    const { spec, lines, stub } = await workspace();
    const original = await readFile(spec, 'utf8');
    const plain = () => createPlant(stub.url, '{"id":1,"name":"Ficus"}').then((r) => `${r.status} ${r.text}`);
    expect(await plain()).toBe('200 {"name":"Ficus"}');

    const requiredId = '          required:\n            - id\n';
    expect(original).toContain(requiredId);
    await writeFile(spec, original.replace(requiredId, `${requiredId}            - colour\n`));
    const refused = '400 {"error":400,"message":"/colour: is required"}';
    expect(await pollUntil(plain, (text) => text === refused, PICKUP_MS)).toBe(refused);

    const before = lines.length;
    await writeFile(spec, original.replace('paths:', 'paths: [unclosed'));
    expect(await logged(lines, before, /reload refused/)).toBe(true);
    expect(await pollUntil(plain, (text) => text !== refused, 1_000, 100)).toBe(refused);

    await writeFile(spec, original);
    expect(await pollUntil(plain, (text) => text === '200 {"name":"Ficus"}', PICKUP_MS)).toBe('200 {"name":"Ficus"}');
  });
});

describe('a fixtures folder that does not exist', () => {
  it('is a warning naming it, so a typo in --fixtures does not look like "no scenarios"', async () => {
    const lines: string[] = [];
    const stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtrues', port: 0, watch: false, log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual(['warning: fixtrues: no such folder; no scenarios are served']);
    } finally {
      await stub.close();
    }
  });
});

describe('odd entries in the fixtures folder', () => {
  it('skips a FIFO and a folder named like fixtures, with a warning naming each, and serves the real ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'odd-fixtures-'));
    try {
      await copyFile(join('fixtures', 'create-plant.yaml'), join(dir, 'create-plant.yaml'));
      execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
      await mkdir(join(dir, 'folder.yaml'));
      const lines: string[] = [];
      const stub = await startStub({ spec: 'openapi.yaml', fixtures: dir, port: 0, watch: false, log: (line) => lines.push(line) });
      try {
        expect(lines).toEqual(expect.arrayContaining([
          `warning: ${join(dir, 'folder.yaml')}: not a regular file; skipped`,
          `warning: ${join(dir, 'pipe.yaml')}: not a regular file; skipped`,
        ]));
        const answer = await request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'duplicate-id' }, body: '{"id":1,"name":"Fern"}' });
        expect(answer.status).toBe(400);
        expect(answer.json).toEqual({ error: 1001, message: 'A plant with this id already exists' });
      } finally {
        await stub.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
