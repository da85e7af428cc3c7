// What fails while a request is answered is told apart by what it is, not by its message: with
// the store in another process (Redis), the store's outage (it refused a command, it went away) is
// a 503 in plain words with Retry-After, counted as a store error; anything else is a bug of the
// stub, a 500 problem+json holding nothing of the error, its stack in the log, counted as an
// internal error, in the API and the admin API alike, and in the fetch handler as in the server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { RedisStateStore } from '../src/stub/redis-state-store.js';
import { StubAdmin } from '../src/stub/admin-facade.js';
import { LocalStateStore } from '../src/stub/local-state-store.js';
import { createFetchHandler } from '../src/fetch.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS, PROBLEM_TYPE } from './helpers/plant.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
/** A message no client may ever read: it names the stub's insides. */
const SECRET = "Cannot read properties of undefined (reading 'secretField')";

/** `name{labels}` -> value of a metrics scrape. */
async function metrics(url: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const line of (await request(`${url}/__admin/metrics`)).text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

function expectPlainProblem(response: TestResponse, status: number, detail: RegExp): void {
  expect([response.status, response.headers.get('content-type')]).toEqual([status, expect.stringContaining(PROBLEM_TYPE)]);
  expect(response.json.detail).toMatch(detail);
  for (const leak of [SECRET, 'secretField', 'TypeError', 'WRONGTYPE', 'ECONNREFUSED', 'ioredis', ' at ']) expect(response.text).not.toContain(leak);
}

describe.skipIf(!haveRedis)('a failure while a stateful request is answered with Redis: an outage or a bug', () => {
  let redis: RunningRedis;
  let stub: RunningStub;
  const stderr: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
    expect((await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
  }, 20_000);

  afterAll(async () => {
    await stub?.close();
    await redis?.stop();
  });

  it('a bug (a TypeError in the store\'s code) is a 500 holding nothing of it, its stack in the log', async () => {
    const answer = vi.spyOn(RedisStateStore.prototype, 'answer').mockRejectedValueOnce(new TypeError(SECRET));
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
    let response: TestResponse;
    try {
      response = await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS });
    } finally {
      write.mockRestore();
      answer.mockRestore();
    }
    expectPlainProblem(response, 500, /^the stub failed to handle this request; see its log$/);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(stderr.join('')).toMatch(new RegExp(`^internal error on GET /plants/1: TypeError: ${SECRET.replace(/[()]/g, '\\$&')}\\n    at `, 'm'));
    // The store itself is fine: the next request is answered from it.
    expect((await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS })).json).toEqual({ id: 1, name: 'Fern' });
  });

  it('the store refusing a command (foreign data under its keys) is a 503 in plain words', async () => {
    const outside = new Redis(redis.url);
    try {
      await outside.set('plant-store-stub:items:/plants', 'not a hash');
      const response = await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS });
      expectPlainProblem(response, 503, /^the state store did not answer \(Redis holds data under the stub's keys that the stub did not write\); retry when it is back$/);
      expect(response.headers.get('retry-after')).toBe('1');
      await outside.del('plant-store-stub:items:/plants');
    } finally {
      outside.disconnect();
    }
  });

  it('a stopped Redis is a 503 in plain words', async () => {
    await redis.stop();
    const responses = [
      await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS, signal: AbortSignal.timeout(15_000) }),
      await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":2,"name":"Ivy"}', signal: AbortSignal.timeout(15_000) }),
    ];
    for (const response of responses) {
      expectPlainProblem(response, 503, /^the state store did not answer \((Redis gave no answer within 2 s|the connection to Redis is down)\); retry when it is back$/);
      expect(response.headers.get('retry-after')).toBe('1');
    }
  }, 20_000);

  it('counts the bug as an internal error and the three outages as store errors', async () => {
    const found = await metrics(stub.url);
    expect(found.get('stub_refusals_total{kind="internal_error"}')).toBe(1);
    expect(found.get('stub_refusals_total{kind="state_store_unavailable"}')).toBe(3);
    expect(found.get('stub_state_store_errors_total')).toBe(3);
    expect(found.get('stub_requests_total{operation="GET /plants/{id}",status="500",origin="refusal"}')).toBe(1);
  });
});

describe.skipIf(!haveRedis)('a failure while an admin request is answered: an outage or a bug', () => {
  let redis: RunningRedis;
  let stub: RunningStub;

  beforeAll(async () => {
    redis = await startRedis();
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
  }, 20_000);

  afterAll(async () => {
    await stub?.close();
    await redis?.stop();
  });

  it('a bug in an admin read is a 500 holding nothing of it, its stack in the log', async () => {
    const coverage = vi.spyOn(StubAdmin.prototype, 'wholeCoverage').mockRejectedValueOnce(new TypeError(SECRET));
    const logged: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (logged.push(String(chunk)), true));
    let response: TestResponse;
    try {
      response = await request(`${stub.url}/__admin/coverage`);
    } finally {
      write.mockRestore();
      coverage.mockRestore();
    }
    expectPlainProblem(response, 500, /^the stub failed to answer this admin request; its log says why$/);
    expect(logged.join('')).toMatch(new RegExp(`^internal error on GET /__admin/coverage: TypeError: ${SECRET.replace(/[()]/g, '\\$&')}\\n    at `, 'm'));
    expect((await request(`${stub.url}/__admin/coverage`)).status).toBe(200);
  });

  it('the store refusing an admin read (foreign data under the journal\'s key) is a 503 in plain words', async () => {
    const outside = new Redis(redis.url);
    try {
      await outside.set('plant-store-stub:journal', 'not a list');
      for (const path of ['/__admin/requests', '/__admin/requests?limit=5']) {
        const response = await request(`${stub.url}${path}`);
        expectPlainProblem(response, 503, /^the stub's shared state did not answer: Redis holds data under the stub's keys that the stub did not write$/);
        expect(response.headers.get('retry-after')).toBe('1');
      }
      await outside.del('plant-store-stub:journal');
      expect((await request(`${stub.url}/__admin/requests`)).status).toBe(200);
    } finally {
      outside.disconnect();
    }
  });
});

describe('a bug while a request is answered, alike in the server and the fetch handler', () => {
  it('is a 500 holding nothing of it, with the same body, its stack reported (stderr; the handler\'s log)', async () => {
    const spec = readFileSync(SPEC, 'utf8');
    const logged: string[] = [];
    const server = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, log: () => {} });
    const handle = await createFetchHandler({ document: spec, stateful: true, baseUrl: 'http://plants.test', log: (line) => logged.push(line) });
    const failing = vi.spyOn(LocalStateStore.prototype, 'answer').mockImplementation(() => {
      throw new TypeError(SECRET);
    });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (logged.push(String(chunk)), true));
    try {
      const overHttp = await request(`${server.url}/plants/1`, { headers: AUTH_HEADERS });
      const answered = (await handle(new Request('http://plants.test/plants/1', { headers: AUTH_HEADERS })))!;
      expectPlainProblem(overHttp, 500, /^the stub failed to handle this request; see its log$/);
      expect([answered.status, answered.headers.get('content-type'), await answered.text()]).toEqual([500, overHttp.headers.get('content-type'), overHttp.text]);
    } finally {
      write.mockRestore();
      failing.mockRestore();
      await server.close();
    }
    const reports = logged.filter((line) => line.startsWith('internal error on GET /plants/1: TypeError: '));
    expect(reports).toHaveLength(2);
    for (const report of reports) expect(report).toContain('\n    at ');
  });
});
