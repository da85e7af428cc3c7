// What probes and load balancers read: GET /__admin/health is 503 with a plain-words reason while
// the shared state store cannot be reached, and 200 again once it is back; GET /__admin/ready is
// 503 from the moment a shutdown begins, while the stub keeps answering what arrives for its drain
// period (--drain-ms, startStub's drainMs), then closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant, JSON_TYPE } from './helpers/plant.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';
import { pollUntil } from './helpers/poll.js';
import { runCli, startCli } from './helpers/cli.js';

const OK = { status: 'ok', spec: 'OpenAPI Plant Store', operations: 1 };
const UNREACHABLE = 'the state store (Redis) cannot be reached: stateful requests and admin reads answer 503 until it is back';
const SHUTTING_DOWN = { status: 'shutting down', reason: 'the stub is shutting down; send new requests to another instance' };

describe('readiness and the drain period (startStub)', () => {
  let stub: RunningStub;

  beforeAll(async () => {
    stub = await startStub({ port: 0, watch: false, drainMs: 1_500 });
  });
  afterAll(async () => {
    await stub?.close();
  });

  it('answers 200 {"status":"ready"} while serving, to any Host and without the admin token', async () => {
    const ready = await request(`${stub.url}/__admin/ready`, { headers: { host: '10.0.0.7:4010' } });
    expect([ready.status, ready.headers.get('content-type'), ready.json]).toEqual([200, `${JSON_TYPE}; charset=utf-8`, { status: 'ready' }]);
  });

  it('turns 503 as soon as close() begins, keeps answering during the drain (each answer closing its connection), then stops accepting', async () => {
    const closed = stub.close();
    const ready = await request(`${stub.url}/__admin/ready`);
    expect([ready.status, ready.json]).toEqual([503, SHUTTING_DOWN]);
    const created = await createPlant(stub.url, { id: 1, name: 'Fern' });
    expect([created.status, created.headers.get('connection'), created.json]).toEqual([200, 'close', { name: 'Fern' }]);
    const health = await request(`${stub.url}/__admin/health`);
    expect([health.status, health.json]).toEqual([200, OK]);
    await closed;
    await expect(request(`${stub.url}/__admin/ready`)).rejects.toThrow();
  });
});

describe('the drain period from the command line', () => {
  it('refuses a --drain-ms that is not a whole number, naming the flag', async () => {
    const run = await runCli(['--drain-ms', 'soon']);
    expect([run.code, run.stderr]).toEqual([2, 'plant-store-stub: --drain-ms: must be a whole number, got "soon"\n']);
  });

  it('refuses a --drain-ms over ten minutes, naming the flag', async () => {
    const run = await runCli(['--drain-ms', '600001']);
    expect([run.code, run.stderr]).toEqual([2, 'plant-store-stub: --drain-ms: must be a whole number from 0 to 600000, got 600001\n']);
  });

  it('on SIGTERM says it is draining, answers ready 503 and requests 200 meanwhile, then exits 0', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--quiet', '--drain-ms', '1500']);
    const before = await request(`${cli.url}/__admin/ready`);
    expect(before.status).toBe(200);
    cli.child.kill('SIGTERM');
    const ready = await pollUntil(() => request(`${cli.url}/__admin/ready`), (answer) => answer.status !== 200, 5_000);
    expect([ready.status, ready.json]).toEqual([503, SHUTTING_DOWN]);
    expect((await createPlant(cli.url, { id: 2, name: 'Ivy' })).status).toBe(200);
    const run = await cli.stop('SIGTERM', 10_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('SIGTERM: not ready; serving for 1500 ms (--drain-ms) before closing…\nSIGTERM: finishing in-flight requests…\n');
  });
});

describe.skipIf(!haveRedis)('health with a shared state store', () => {
  let redis: RunningRedis;
  let stub: RunningStub;

  beforeAll(async () => {
    redis = await startRedis();
    stub = await startStub({ port: 0, watch: false, stateful: true, stateStore: redis.url });
  }, 20_000);
  afterAll(async () => {
    await stub?.close();
    await redis?.stop();
  });

  it('is 200 ok while Redis answers', async () => {
    const health = await request(`${stub.url}/__admin/health`);
    expect([health.status, health.json]).toEqual([200, OK]);
  });

  it('is 503 with the same plain reason while Redis is paused (connected, answering nothing), and 200 once it resumes', async () => {
    redis.pause();
    try {
      const health = await request(`${stub.url}/__admin/health`);
      expect([health.status, health.json]).toEqual([503, { ...OK, status: 'unavailable', reason: UNREACHABLE }]);
    } finally {
      redis.resume();
    }
    const back = await pollUntil(() => request(`${stub.url}/__admin/health`), (answer) => answer.status === 200, 10_000, 100);
    expect([back.status, back.json]).toEqual([200, OK]);
  }, 20_000);

  it('is 503 with the reason in plain words while Redis is down (no client library message, no URL), and ready stays 200', async () => {
    await redis.stop();
    const health = await pollUntil(() => request(`${stub.url}/__admin/health`), (answer) => answer.status !== 200, 5_000);
    expect([health.status, health.headers.get('content-type'), health.json]).toEqual([503, `${JSON_TYPE}; charset=utf-8`, { ...OK, status: 'unavailable', reason: UNREACHABLE }]);
    expect(health.text).not.toMatch(/ECONNREFUSED|Connection is closed|redis:\/\//);
    // Every instance shares the store, and operations that do not need it still answer: a
    // balancer keeps sending here.
    expect((await request(`${stub.url}/__admin/ready`)).status).toBe(200);
  });

  it('is 200 ok again once Redis is back', async () => {
    redis = await startRedis(redis.port);
    const health = await pollUntil(() => request(`${stub.url}/__admin/health`), (answer) => answer.status === 200, 15_000, 100);
    expect([health.status, health.json]).toEqual([200, OK]);
  }, 20_000);
});
