// --state-store redis://…: two stub instances on one real redis-server act as one server: one
// stateful store, one journal and coverage, one sticky scenario. When Redis goes away, stateful
// requests get a 503 naming the store and the outage is logged once; when it is back, they work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, startStub, type RunningStub } from '../src/index.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS, PROBLEM_TYPE } from './helpers/plant.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';
import { freePort } from './helpers/ports.js';
import { join } from 'node:path';

const SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
const BIG_ID = '9223372036854775806';

const plants = (stub: RunningStub, method = 'GET', target = '/plants', body?: string): Promise<TestResponse> =>
  request(`${stub.url}${target}`, { method, headers: body === undefined ? AUTH_HEADERS : JSON_HEADERS, body });

describe.skipIf(!haveRedis)('two instances on one Redis', () => {
  let redis: RunningRedis;
  let a: RunningStub;
  let b: RunningStub;
  const logged: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    const options = { spec: SPEC, fixtures: 'fixtures', port: 0, watch: false, stateful: true, stateStore: redis.url, log: (line: string) => void logged.push(line) };
    a = await startStub({ ...options, fixtures: NO_FIXTURES });
    b = await startStub({ ...options, fixtures: NO_FIXTURES });
  }, 20_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  // Run in order: each step sees what the steps before it left, whichever instance made it.
  const steps: Array<[string, (s: { a: RunningStub; b: RunningStub }) => Promise<TestResponse>, number, unknown]> = [
    ['a plant created through A', ({ a }) => plants(a, 'POST', '/plants', `{"id":${BIG_ID},"name":"Fern"}`), 200, { id: Number(BIG_ID), name: 'Fern' }],
    ['is listed through B, every digit kept', ({ b }) => plants(b), 200, [{ id: Number(BIG_ID), name: 'Fern' }]],
    ['the same id through B is the API’s 400', ({ b }) => plants(b, 'POST', '/plants', `{"id":${BIG_ID},"name":"Again"}`), 400, { error: 400, message: `/plants: an item with id ${BIG_ID} already exists` }],
    ['a second plant through B', ({ b }) => plants(b, 'POST', '/plants', '{"id":2,"name":"Ivy"}'), 200, { id: 2, name: 'Ivy' }],
    ['is read through A', ({ a }) => plants(a, 'GET', '/plants/2'), 200, { id: 2, name: 'Ivy' }],
    ['deleted through A', ({ a }) => plants(a, 'DELETE', '/plants/2'), 204, undefined],
    ['is gone through B', ({ b }) => plants(b, 'GET', '/plants/2'), 404, { error: 404, message: '/plants: no item with id 2' }],
  ];
  it.each(steps)('%s', async (_name, send, status, json) => {
    const response = await send({ a, b });
    expect(response.status).toBe(status);
    expect(response.json).toEqual(json);
  });

  it('the list through A is exact and oldest first', async () => {
    expect((await plants(a)).text).toBe(`[{"id":${BIG_ID},"name":"Fern"}]`);
  });

  it('journal and coverage read through either instance are both instances’; a reset through one empties both', async () => {
    const journals = await Promise.all([a, b].map((stub) => request(`${stub.url}/__admin/requests`)));
    for (const journal of journals) {
      expect(journal.status).toBe(200);
      expect(journal.json.requests.map((entry: { method: string; path: string; status: number }) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
        'POST /plants 200', 'GET /plants 200', 'POST /plants 400', 'POST /plants 200', 'GET /plants/{id}'.replace('{id}', '2') + ' 200',
        'DELETE /plants/2 204', 'GET /plants/2 404', 'GET /plants 200',
      ]);
    }
    expect(journals[0].text).toContain(`"body":{"id":${BIG_ID},"name":"Fern"}`);
    const coverage = await request(`${b.url}/__admin/coverage`);
    expect(coverage.json.operations.find((op: { operation: string }) => op.operation === 'POST /plants').responses)
      .toEqual([{ status: '200', exercised: true, hits: 2 }, { status: '400', exercised: true, hits: 1 }]);
    expect((await request(`${b.url}/__admin/requests`, { method: 'DELETE' })).status).toBe(204);
    for (const stub of [a, b]) expect((await request(`${stub.url}/__admin/requests`)).json).toEqual({ requests: [] });
  });

  it('PUT /__admin/state through A replaces the store B serves', async () => {
    const put = await request(`${a.url}/__admin/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"/plants":[{"id":5,"name":"Sage"},{"id":6,"name":"Rue"}]}' });
    expect(put.status).toBe(200);
    expect((await plants(b)).json).toEqual([{ id: 5, name: 'Sage' }, { id: 6, name: 'Rue' }]);
    expect((await request(`${b.url}/__admin/state`)).text).toBe('{"/plants": [{"id":5,"name":"Sage"}, {"id":6,"name":"Rue"}]}');
  });

  it('when Redis goes away, stateful requests get a 503 naming the store, logged once; when it is back, they work again', async () => {
    await redis.stop();
    const down = await Promise.all([plants(a), plants(b), plants(a, 'POST', '/plants', '{"id":7,"name":"Mint"}')]);
    for (const response of down) {
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toContain(PROBLEM_TYPE);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.json.detail).toMatch(/^the state store did not answer \(.+\); retry when it is back$/);
    }
    const admin = await request(`${a.url}/__admin/requests`);
    expect([admin.status, admin.json.detail]).toEqual([503, expect.stringMatching(/^the stub's shared state did not answer: /)]);
    // Health says so, in plain words (test/health-and-readiness.test.ts has the whole answer).
    expect((await request(`${a.url}/__admin/health`)).status).toBe(503);
    const lostLines = () => logged.filter((line) => line.startsWith(`state store ${redis.url}: connection lost (`));
    const deadlineLost = Date.now() + 5_000;
    while (lostLines().length < 2 && Date.now() < deadlineLost) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lostLines()).toHaveLength(2); // once per instance, not once per request

    redis = await startRedis(redis.port);
    const deadline = Date.now() + 10_000;
    let back = await plants(a);
    while (back.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      back = await plants(a);
    }
    expect([back.status, back.json]).toEqual([200, []]); // a new, empty Redis
    expect((await plants(b, 'POST', '/plants', '{"id":8,"name":"Dill"}')).status).toBe(200);
    expect((await plants(a)).json).toEqual([{ id: 8, name: 'Dill' }]);
    expect(logged.filter((line) => line === `state store ${redis.url}: connected again`).length).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe.skipIf(!haveRedis)('the sticky scenario on one Redis', () => {
  let redis: RunningRedis;
  let a: RunningStub;
  let b: RunningStub;

  beforeAll(async () => {
    redis = await startRedis();
    a = await startStub({ port: 0, watch: false, stateStore: redis.url });
    b = await startStub({ port: 0, watch: false, stateStore: redis.url });
  }, 20_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  const create = (stub: RunningStub) => request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' });

  it('set through A answers through B at once, and an instance started later has it too; cleared through B, cleared everywhere', async () => {
    const set = await request(`${a.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"unknown-tag"}' });
    expect(set.status).toBe(200);
    for (const stub of [a, b]) expect([(await create(stub)).status, (await create(stub)).headers.get('x-mock-scenario')]).toEqual([400, 'unknown-tag']);
    const late = await startStub({ port: 0, watch: false, stateStore: redis.url });
    try {
      expect((await create(late)).headers.get('x-mock-scenario')).toBe('unknown-tag');
      expect((await request(`${b.url}/__admin/scenario`, { method: 'DELETE' })).status).toBe(204);
      for (const stub of [a, b, late]) expect((await create(stub)).headers.get('x-mock-scenario')).toBe('echo');
    } finally {
      await late.close();
    }
  });
});

describe.skipIf(!haveRedis)('a state store that cannot be used', () => {
  it('refuses to start when Redis cannot be reached, naming the URL', async () => {
    const url = `redis://127.0.0.1:${await freePort()}/0`;
    const failure = startStub({ port: 0, watch: false, stateStore: url });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(new RegExp(`^state store ${url}: cannot be reached \\(ECONNREFUSED\\)$`));
  });

  it.each([
    ['a URL that is not redis://', { stateStore: 'http://127.0.0.1:6379' }, 'stateStore: must be redis://HOST:PORT/DB, got http://127.0.0.1:6379'],
    ['a state file beside it', { stateStore: 'redis://127.0.0.1:6379/0', stateFile: 'state.json' }, 'stateFile: cannot be combined with a state store: Redis keeps the state; choose one'],
  ])('refuses %s', async (_name, options, message) => {
    await expect(startStub({ port: 0, watch: false, ...options })).rejects.toThrow(message);
  });
});
