// Hostile input against the shared state: creates racing
// through --workers, and a Redis that holds what another program wrote, carries messages the stub
// never sent, or stops answering. Nothing acknowledged is lost, no instance dies, every answer is
// valid JSON, and no request waits forever.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS, PROBLEM_TYPE } from './helpers/plant.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const ITEMS_SPEC = join(import.meta.dirname, 'specs', 'items.yaml');
const PLANTS_SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
const KEY = 'plant-store-stub:';
/** The figure: 400 creates at once without an id lost all but 44 items. */
const CREATES = 400;

const fresh = { connection: 'close' };

/** Waits (bounded in count) until `check` holds; the last value is returned for the test to assert on. */
async function eventually<T>(probe: () => Promise<T>, check: (value: T) => boolean, tries = 100): Promise<T> {
  let value = await probe();
  for (let i = 1; i < tries && !check(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

describe('creates without an id, all at once, through --workers 2', () => {
  let cli: StartedCli;

  beforeAll(async () => {
    cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', '--stateful', '--spec', ITEMS_SPEC, '--fixtures', NO_FIXTURES], { timeoutMs: 20_000 });
  }, 25_000);

  afterAll(async () => {
    await cli?.stop('SIGKILL');
  });

  it(`answers each of ${CREATES} creates 201 only when that very item is stored under that id (else 503 with Retry-After)`, async () => {
    const answers = await Promise.all(Array.from({ length: CREATES }, (_, i) =>
      request(`${cli.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json', ...fresh }, body: JSON.stringify({ name: `auto${i}` }) })));
    const list = (await request(`${cli.url}/items`)).json as Array<{ id: string; name: string }>;
    const stored = new Map(list.map((item) => [item.id, item.name]));
    const acknowledged = answers.filter((answer) => answer.status === 201).map((answer) => answer.json as { id: string; name: string });
    expect(acknowledged.filter((item) => stored.get(item.id) !== item.name)).toEqual([]);
    expect(new Set(list.map((item) => item.id)).size).toBe(list.length);
    expect(list.length).toBe(acknowledged.length);
    for (const answer of answers.filter((one) => one.status !== 201)) {
      expect([answer.status, answer.headers.get('retry-after'), answer.json.detail]).toEqual([503, '1', expect.stringMatching(/nothing was stored; retry$/)]);
    }
  }, 60_000);
});

describe.skipIf(!haveRedis)('a message on the admin channel that this stub never sent', () => {
  let redis: RunningRedis;
  let a: StartedCli;
  let b: StartedCli;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    const args = ['--port', '0', '--no-watch', '--state-store', redis.url]; // the Plant Store and its fixtures
    [a, b] = await Promise.all([startCli(args, { timeoutMs: 20_000 }), startCli(args, { timeoutMs: 20_000 })]);
    client = new Redis(redis.url);
  }, 25_000);

  afterAll(async () => {
    client?.disconnect();
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    await redis?.stop();
  });

  const foreign: Array<[string, string, string]> = [
    ['text that is not JSON', 'admin-changes', 'not json at all'],
    ['JSON that is not a change', 'admin-changes', '{"id":"x"}'],
    ['a change of an unknown kind', 'admin-changes', '{"id":"x","change":{"kind":"format-disk"}}'],
    ['JSON null', 'admin-changes', 'null'],
    ['an acknowledgement that is not JSON', 'admin-acks', '{"id":'],
  ];
  it.each(foreign)('%s is ignored, and every instance keeps serving', async (_name, channel, message) => {
    expect(await client.publish(`${KEY}${channel}`, message)).toBe(2);
    for (const stub of [a, b]) {
      const health = await request(`${stub.url}/__admin/health`);
      expect(health.status).toBe(200);
    }
  });

  it('says once that a foreign message was ignored', () => {
    for (const stub of [a, b]) {
      expect((stub.stdout() + stub.stderr()).match(/a message on plant-store-stub:admin-changes is not an admin change this stub sends; it was ignored/g)).toHaveLength(1);
    }
  });

  it('admin changes of its own still reach every instance', async () => {
    const set = await request(`${a.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"unknown-tag"}' });
    expect([set.status, set.json]).toEqual([200, { sticky: 'unknown-tag' }]);
    expect((await request(`${b.url}/__admin/scenarios`)).json.sticky).toBe('unknown-tag');
  });
});

describe.skipIf(!haveRedis)('data in Redis that this stub did not write', () => {
  let redis: RunningRedis;
  let stub: RunningStub;
  let client: Redis;
  const logged: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    stub = await startStub({ spec: PLANTS_SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: (line) => void logged.push(line) });
    client = new Redis(redis.url);
    expect((await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
    await client
      .multi()
      .zadd(`${KEY}order:/plants`, 100, '2') // an order entry with no item behind it
      .hset(`${KEY}items:/plants`, '3', 'not json')
      .zadd(`${KEY}order:/plants`, 101, '3')
      .hset(`${KEY}items:/plants`, '4', '[1,2]')
      .zadd(`${KEY}order:/plants`, 102, '4')
      .rpush(`${KEY}journal`, 'not json', '{"method":1}')
      .hset(`${KEY}coverage:status`, 'no newline', 'many')
      .exec();
  }, 20_000);

  afterAll(async () => {
    client?.disconnect();
    await stub?.close();
    await redis?.stop();
  });

  const reads: Array<[string, string, (response: TestResponse) => void]> = [
    ['GET /__admin/state', '/__admin/state', (response) => expect(JSON.parse(response.text)).toEqual({ '/plants': [{ id: 1, name: 'Fern' }] })],
    ['GET /plants', '/plants', (response) => expect(JSON.parse(response.text)).toEqual([{ id: 1, name: 'Fern' }])],
    ['GET /__admin/requests', '/__admin/requests', (response) => {
      const methods = JSON.parse(response.text).requests.map((entry: { method: unknown }) => entry.method);
      expect(methods[0]).toBe('POST');
      expect(methods.filter((method: unknown) => method !== 'GET' && method !== 'POST')).toEqual([]);
    }],
    ['GET /__admin/coverage', '/__admin/coverage', (response) => expect(JSON.parse(response.text).operations.length).toBeGreaterThan(0)],
  ];
  it.each(reads)('%s answers valid JSON holding only what the stub wrote', async (_name, path, check) => {
    const response = await request(`${stub.url}${path}`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    check(response);
  });

  it('GET /plants/3 (an item that is not JSON) is the API’s 404, not the foreign text', async () => {
    const response = await request(`${stub.url}/plants/3`, { headers: AUTH_HEADERS });
    expect([response.status, response.json]).toEqual([404, { error: 404, message: '/plants: no item with id 3' }]);
  });

  it('reports each broken item once, naming it', () => {
    const lines = logged.filter((line) => line.startsWith('state store: /plants item'));
    expect(lines).toEqual([
      'state store: /plants item "2" is listed but has no item; it is left out of what the stub serves (another program wrote under the plant-store-stub: keys?)',
      'state store: /plants item "3" is not a JSON object; it is left out of what the stub serves (another program wrote under the plant-store-stub: keys?)',
      'state store: /plants item "4" is not a JSON object; it is left out of what the stub serves (another program wrote under the plant-store-stub: keys?)',
    ]);
  });
});

describe.skipIf(!haveRedis)('a Redis that stops answering (SIGSTOP)', () => {
  let redis: RunningRedis;
  let stub: RunningStub;

  beforeAll(async () => {
    redis = await startRedis();
    stub = await startStub({ spec: PLANTS_SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
    expect((await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
    redis.pause();
  }, 20_000);

  afterAll(async () => {
    redis?.resume();
    await stub?.close();
    await redis?.stop();
  });

  const requests: Array<[string, string, string, string | undefined, RegExp]> = [
    ['a stateful read', 'GET', '/plants/1', undefined, /^the state store did not answer \(Redis gave no answer within 2 s\); retry when it is back$/],
    ['a stateful create', 'POST', '/plants', '{"id":2,"name":"Ivy"}', /^the state store did not answer \(Redis gave no answer within 2 s\); retry when it is back$/],
    ['an admin read', 'GET', '/__admin/requests', undefined, /^the stub's shared state did not answer: Redis gave no answer within 2 s$/],
  ];
  it.each(requests)('%s gets a 503 in plain words with Retry-After, not an answer that never comes', async (_name, method, path, body, detail) => {
    const response = await request(`${stub.url}${path}`, { method, headers: body === undefined ? AUTH_HEADERS : JSON_HEADERS, body, signal: AbortSignal.timeout(15_000) });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain(PROBLEM_TYPE);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.json.detail).toMatch(detail);
  }, 20_000);

  it('answers as before once Redis goes on', async () => {
    redis.resume();
    const back = await eventually(() => request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS }), (response) => response.status === 200);
    expect([back.status, back.json]).toEqual([200, { id: 1, name: 'Fern' }]);
  }, 20_000);
});

describe('the bytes a store keeps (--max-state)', () => {
  /** Three items of this note fit under MAX_STATE; a fourth does not. */
  const NOTE = 'x'.repeat(3_000);
  const MAX_STATE = 10_000;
  const FULL_DETAIL = `the stored items would take more than ${MAX_STATE} bytes, the most the stub keeps (--max-state); delete some (or DELETE /__admin/state), or start it with a larger --max-state`;
  let redis: RunningRedis | undefined;
  const stops: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    if (haveRedis) redis = await startRedis();
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await redis?.stop();
  });

  const stores: Array<[string, () => Promise<string>]> = [
    ['in the process', async () => {
      const stub = await startStub({ spec: ITEMS_SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, maxStateBytes: MAX_STATE });
      stops.push(() => stub.close());
      return stub.url;
    }],
    ['at the cluster primary (--workers 2)', async () => {
      const cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', '--stateful', '--spec', ITEMS_SPEC, '--fixtures', NO_FIXTURES, '--max-state', String(MAX_STATE)], { timeoutMs: 20_000 });
      stops.push(() => cli.stop('SIGKILL'));
      return cli.url;
    }],
    ...(haveRedis ? [['in Redis', async () => {
      const stub = await startStub({ spec: ITEMS_SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis!.url, maxStateBytes: MAX_STATE });
      stops.push(() => stub.close());
      return stub.url;
    }] as [string, () => Promise<string>]] : []),
  ];
  it.each(stores)('%s: a create beyond the cap is a 422 saying so and stores nothing; a delete makes room; one page is read from a full store', async (_name, start) => {
    const url = await start();
    const create = (i: number) => request(`${url}/items`, { method: 'POST', headers: { 'content-type': 'application/json', ...fresh }, body: JSON.stringify({ name: `big${i}`, note: NOTE }) });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await create(i)).status);
    expect(statuses).toEqual([201, 201, 201, 422]);
    const refused = await create(4);
    expect([refused.status, refused.headers.get('content-type'), refused.json.detail]).toEqual([422, expect.stringContaining(PROBLEM_TYPE), FULL_DETAIL]);
    const page = await request(`${url}/items?limit=1`);
    expect([page.status, page.json.map((item: { name: string }) => item.name)]).toEqual([200, ['big0']]);
    const listed = (await request(`${url}/items`)).json as Array<{ id: string; name: string }>;
    expect(listed.map((item) => item.name)).toEqual(['big0', 'big1', 'big2']);
    const tooMuch = await request(`${url}/__admin/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ '/items': [0, 1, 2, 3].map((i) => ({ id: `p${i}`, name: `p${i}`, note: NOTE })) }) });
    expect([tooMuch.status, tooMuch.json.violations]).toEqual([400, [expect.stringMatching(new RegExp(`^/: the items take \\d+ bytes, more than the ${MAX_STATE} the store keeps \\(--max-state\\)$`))]]);
    expect((await request(`${url}/__admin/state`, { method: 'DELETE' })).status).toBe(204);
    expect((await create(5)).status).toBe(201);
  }, 30_000);

  it('refuses a cap that is not a whole number of bytes', async () => {
    await expect(startStub({ port: 0, watch: false, stateful: true, maxStateBytes: 0 })).rejects.toThrow(/^maxStateBytes: /);
  });
});
