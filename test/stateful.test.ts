// Stateful mode over real HTTP: with the full Plant Store document, what a client creates is
// listed, read and deleted; a taken id gets the API's 400; scenarios, Prefer and faults change
// nothing; /__admin/state shows, replaces and empties the store; --state-file survives restarts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { runCli, startCli } from './helpers/cli.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS, JSON_TYPE, PROBLEM_TYPE } from './helpers/plant.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
const BIG_ID = '9223372036854775806';

interface Step {
  name: string;
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  contentType?: string;
  /** The exact body text, or a check of the parsed body. */
  text?: string;
  json?: unknown;
  scenario?: string | null;
}

/** Run in order against one stub: each step sees what the steps before it left. */
const LIFE_CYCLE: Step[] = [
  { name: 'an empty store lists no plant', target: '/plants', status: 200, contentType: JSON_TYPE, text: '[]', scenario: 'state' },
  { name: 'a created plant is answered as stored, id included', method: 'POST', target: '/plants', body: '{"id":1,"name":"Fern","tag":"fern"}',
    status: 200, contentType: JSON_TYPE, json: { id: 1, name: 'Fern', tag: 'fern' }, scenario: 'state' },
  { name: 'an int64 id keeps every digit', method: 'POST', target: '/plants', body: `{"id":${BIG_ID},"name":"Big"}`,
    status: 200, text: `{"id":${BIG_ID},"name":"Big"}` },
  { name: 'the same id again is the API’s own 400 naming the id, by itself', method: 'POST', target: '/plants', body: '{"id":1,"name":"Again"}',
    status: 400, contentType: JSON_TYPE, json: { error: 400, message: '/plants: an item with id 1 already exists' }, scenario: null },
  { name: 'the list holds both, oldest first, exact', target: '/plants', status: 200, text: `[{"id":1,"name":"Fern","tag":"fern"},{"id":${BIG_ID},"name":"Big"}]` },
  { name: 'a documented limit is honoured', target: '/plants?limit=1', status: 200, json: [{ id: 1, name: 'Fern', tag: 'fern' }] },
  { name: 'a plant is read by its id', target: '/plants/1', status: 200, json: { id: 1, name: 'Fern', tag: 'fern' }, scenario: 'state' },
  { name: 'an unknown id is the documented 404 in the API’s shape', target: '/plants/7', status: 404, contentType: JSON_TYPE,
    json: { error: 404, message: '/plants: no item with id 7' }, scenario: null },
  { name: 'a scenario wins and creates nothing', method: 'POST', target: '/plants', headers: { 'x-mock-scenario': 'nope' }, body: '{"id":2,"name":"Ivy"}',
    status: 422, contentType: PROBLEM_TYPE },
  { name: 'Prefer wins and creates nothing', method: 'POST', target: '/plants', headers: { prefer: 'code=400' }, body: '{"id":3,"name":"Moss"}',
    status: 400, scenario: 'generated' },
  { name: 'so neither of them is listed', target: '/plants', status: 200, text: `[{"id":1,"name":"Fern","tag":"fern"},{"id":${BIG_ID},"name":"Big"}]` },
  { name: 'a delete answers the documented 204', method: 'DELETE', target: '/plants/1', status: 204, text: '', scenario: 'state' },
  { name: 'the deleted plant is gone', target: '/plants/1', status: 404, json: { error: 404, message: '/plants: no item with id 1' } },
  { name: 'deleting it again is 404', method: 'DELETE', target: '/plants/1', status: 404, json: { error: 404, message: '/plants: no item with id 1' } },
  { name: 'the list again holds what is left', target: '/plants', status: 200, text: `[{"id":${BIG_ID},"name":"Big"}]` },
];

async function send(url: string, { method = 'GET', target, headers = {}, body }: Pick<Step, 'method' | 'target' | 'headers' | 'body'>): Promise<TestResponse> {
  return request(`${url}${target}`, { method, headers: { ...(body === undefined ? AUTH_HEADERS : JSON_HEADERS), ...headers }, body });
}

function expectStep(response: TestResponse, step: Step): void {
  expect(response.status).toBe(step.status);
  if (step.contentType) expect(response.headers.get('content-type')).toContain(step.contentType);
  if (step.text !== undefined) expect(response.text).toBe(step.text);
  if (step.json !== undefined) expect(response.json).toEqual(step.json);
  if (step.scenario !== undefined) expect(response.headers.get('x-mock-scenario')).toBe(step.scenario);
}

describe('stateful mode with the full Plant Store', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, seed: 3 });
  });
  afterAll(() => stub?.close());

  it.each(LIFE_CYCLE.map((step, i) => [`${i + 1}. ${step.name}`, step] as const))('%s', async (_name, step) => {
    expectStep(await send(stub.url, step), step);
  });

  it('journals which requests changed the state', () => {
    const changes = stub.requests().filter((entry) => entry.stateChange).map((entry) => [entry.method, entry.path, entry.stateChange]);
    expect(changes).toEqual([
      ['POST', '/plants', { action: 'create', resource: '/plants', id: '1' }],
      ['POST', '/plants', { action: 'create', resource: '/plants', id: BIG_ID }],
      ['DELETE', '/plants/1', { action: 'delete', resource: '/plants', id: '1' }],
    ]);
  });
});

describe('/__admin/state', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true });
  });
  afterAll(() => stub?.close());

  const admin = (method: string, body?: string) => request(`${stub.url}/__admin/state`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body });

  it.each([
    ['PUT replaces the store with a valid state and answers it', 'PUT', `{"/plants":[{"id":${BIG_ID},"name":"Rose"},{"id":2,"name":"Sage"}]}`, 200, `{"/plants": [{"id":${BIG_ID},"name":"Rose"}, {"id":2,"name":"Sage"}]}`],
    ['GET shows it, numbers exact', 'GET', undefined, 200, `{"/plants": [{"id":${BIG_ID},"name":"Rose"}, {"id":2,"name":"Sage"}]}`],
  ] as const)('%s', async (_name, method, body, status, text) => {
    const response = await admin(method, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain(JSON_TYPE);
    expect(response.text).toBe(text);
  });

  it('serves what PUT stored', async () => {
    const response = await send(stub.url, { target: '/plants/2' });
    expect([response.status, response.json]).toEqual([200, { id: 2, name: 'Sage' }]);
  });

  it.each([
    ['an item that breaks the create schema', '{"/plants":[{"id":4,"name":5}]}', ['/~1plants/0/name: must be a string']],
    ['an item without its id', '{"/plants":[{"name":"Sage"}]}', ['/~1plants/0/id: is required']],
    ['two items with one id', '{"/plants":[{"id":4,"name":"A"},{"id":4,"name":"B"}]}', ['/~1plants/1/id: 4 is already the identity of an earlier item']],
    ['a resource the document lacks', '{"/trees":[]}', ['/~1trees: is not a resource of the document; known: /plants']],
    ['text that is not JSON', '{"/plants":', [expect.stringMatching(/^\/: invalid JSON/)]],
  ])('PUT refuses %s with 400 naming where, and changes nothing', async (_name, body, violations) => {
    const response = await admin('PUT', body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain(PROBLEM_TYPE);
    expect(response.json).toMatchObject({ status: 400, violations });
    expect((await admin('GET')).json).toEqual({ '/plants': [{ id: Number(BIG_ID), name: 'Rose' }, { id: 2, name: 'Sage' }] });
  });

  it('DELETE empties the store', async () => {
    const deleted = await admin('DELETE');
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await admin('GET')).text).toBe('{}');
    expect((await send(stub.url, { target: '/plants' })).text).toBe('[]');
  });
});

describe('without --stateful', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, seed: 3 });
  });
  afterAll(() => stub?.close());

  it('answers as before: nothing is stored, a read is generated', async () => {
    const created = await send(stub.url, { method: 'POST', target: '/plants', body: '{"id":1,"name":"Fern"}' });
    expect([created.status, created.headers.get('x-mock-scenario'), created.json]).toEqual([200, 'echo', { id: 1, name: 'Fern' }]);
    const again = await send(stub.url, { method: 'POST', target: '/plants', body: '{"id":1,"name":"Fern"}' });
    expect(again.status).toBe(200);
    const read = await send(stub.url, { target: '/plants/99' });
    expect([read.status, read.headers.get('x-mock-scenario')]).toEqual([200, 'generated']);
  });

  it('answers /__admin/state with 404 saying how to turn it on', async () => {
    const response = await request(`${stub.url}/__admin/state`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain(PROBLEM_TYPE);
    expect(response.json.detail).toBe('stateful mode is off; start the stub with --stateful (stateful: true) to keep resources');
  });
});

describe('--state-file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-state-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const args = (file: string) => ['--spec', SPEC, '--fixtures', NO_FIXTURES, '--port', '0', '--quiet', '--no-watch', '--state-file', file];

  it('keeps the plants across a graceful restart and a kill -9 (a second after the change)', async () => {
    const file = join(dir, 'state.json');
    const first = await startCli(args(file));
    expect((await send(first.url, { method: 'POST', target: '/plants', body: `{"id":${BIG_ID},"name":"Fern"}` })).status).toBe(200);
    await first.stop('SIGTERM');
    expect(await readFile(file, 'utf8')).toBe(`{\n  "/plants": [{"id":${BIG_ID},"name":"Fern"}]\n}\n`);

    const second = await startCli(args(file));
    expect((await send(second.url, { target: '/plants' })).text).toBe(`[{"id":${BIG_ID},"name":"Fern"}]`);
    expect((await send(second.url, { method: 'POST', target: '/plants', body: '{"id":2,"name":"Ivy"}' })).status).toBe(200);
    // Written at most a second after the change: wait for the file to say so, then kill without grace.
    const deadline = Date.now() + 5_000;
    while (!(await readFile(file, 'utf8')).includes('"Ivy"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await second.stop('SIGKILL');

    const third = await startCli(args(file));
    expect((await send(third.url, { target: '/plants' })).json).toEqual([{ id: Number(BIG_ID), name: 'Fern' }, { id: 2, name: 'Ivy' }]);
    await third.stop('SIGTERM');
  }, 30_000);

  it.each([
    ['not JSON', '{"/plants": [', /^plant-store-stub: .*broken\.json: is not a state file: \/: invalid JSON/m],
    ['an item that breaks the schema', '{"/plants": [{"id": 1}]}', /^plant-store-stub: .*broken\.json: is not a state file: \/~1plants\/0\/name: is required\n$/m],
  ])('a file that is %s stops the start with its name and the problem', async (_name, text, message) => {
    const file = join(dir, 'broken.json');
    await writeFile(file, text);
    const { code, stderr } = await runCli(args(file));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
