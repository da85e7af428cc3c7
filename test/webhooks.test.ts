// Webhooks and callbacks, sent to a real receiver on 127.0.0.1: the full Plant Store's newPlant
// webhook carries exactly the NewPlant that POST /plants received, after the answer; it can be
// fired on demand, its target registered by flag or admin API; failed deliveries are retried;
// a 3.0 callback goes to the URL its runtime expression reads from the request.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { runCli, startCli } from './helpers/cli.js';
import { JSON_HEADERS, JSON_TYPE, PROBLEM_TYPE } from './helpers/plant.js';
import { haveRedis, startRedis } from './helpers/redis.js';

const SPECS = join(import.meta.dirname, 'specs');
const BIG_ID = '9223372036854775806';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver: records what arrives, answers with the next scripted status (then 200). */
class Receiver {
  readonly received: Received[] = [];
  statuses: number[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
        this.received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(this.statuses.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Waits (bounded) until `count` requests have arrived. */
  async arrived(count: number): Promise<Received[]> {
    const deadline = Date.now() + 10_000;
    while (this.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.received;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('the full Plant Store’s newPlant webhook', () => {
  const receiver = new Receiver();
  let stub: RunningStub;

  beforeAll(async () => {
    await receiver.start();
    stub = await startStub({
      spec: join(SPECS, 'plant-store-full.yaml'), fixtures: join(SPECS, 'plant-store-full-fixtures'), port: 0, watch: false, stateful: true,
      webhooks: { newPlant: `${receiver.url}/hooks/plants` },
    });
  });
  afterAll(async () => {
    await stub?.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.statuses = [];
  });

  it('is sent after POST /plants with exactly the NewPlant it received, as JSON', async () => {
    const created = await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: `{"id":${BIG_ID},"name":"Fern","tag":"fern"}` });
    expect(created.status).toBe(200);
    const [hook] = await receiver.arrived(1);
    expect(hook).toMatchObject({ method: 'POST', url: '/hooks/plants', body: `{"id":${BIG_ID},"name":"Fern","tag":"fern"}` });
    expect(hook.headers['content-type']).toBe(JSON_TYPE);
    const listed = await request(`${stub.url}/__admin/webhooks`);
    expect(listed.json.webhooks).toEqual([{ name: 'newPlant', target: `${receiver.url}/hooks/plants` }]);
    expect(listed.json.deliveries.at(-1)).toMatchObject({ kind: 'webhook', name: 'newPlant', target: `${receiver.url}/hooks/plants`, status: 200, attempts: 1 });
  });

  it('is not sent for an answer that is not a success (a taken id)', async () => {
    const again = await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: `{"id":${BIG_ID},"name":"Fern"}` });
    expect(again.status).toBe(400);
    const fired = await request(`${stub.url}/__admin/webhooks/newPlant/fire`, { method: 'POST' }); // a marker that arrives after it
    expect(fired.status).toBe(202);
    expect((await receiver.arrived(1)).map((hook) => hook.url)).toEqual(['/hooks/plants']);
    expect(receiver.received).toHaveLength(1);
  });

  it.each([
    ['with a payload, sends it as given', '{"id":3,"name":"Ivy"}', '{"id":3,"name":"Ivy"}'],
    ['without one, sends data valid for NewPlant', '', expect.stringMatching(/"name":/)],
  ])('fired on demand %s', async (_name, body, expected) => {
    const fired = await request(`${stub.url}/__admin/webhooks/newPlant/fire`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect([fired.status, fired.json]).toEqual([202, { queued: 'newPlant', target: `${receiver.url}/hooks/plants` }]);
    const [hook] = await receiver.arrived(1);
    expect(hook.body).toEqual(expected);
    expect(JSON.parse(hook.body)).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
  });

  it.each([
    ['a payload that breaks NewPlant', 'newPlant', '{"id":"x"}', 400, { violations: ['/name: is required', '/id: must be an integer'] }],
    ['a webhook the document lacks', 'oldPlant', '', 404, { knownWebhooks: ['newPlant'] }],
  ])('fire refuses %s, and sends nothing', async (_name, name, body, status, extra) => {
    const fired = await request(`${stub.url}/__admin/webhooks/${name}/fire`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(fired.status).toBe(status);
    expect(fired.headers.get('content-type')).toContain(PROBLEM_TYPE);
    expect(fired.json).toMatchObject(extra);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toEqual([]);
  });

  it('retries a receiver that answers 503, with backoff, and records how many tries it took', async () => {
    receiver.statuses = [503, 503];
    expect((await request(`${stub.url}/__admin/webhooks/newPlant/fire`, { method: 'POST' })).status).toBe(202);
    await receiver.arrived(3);
    const deadline = Date.now() + 5_000;
    let last = (await request(`${stub.url}/__admin/webhooks`)).json.deliveries.at(-1);
    while (last.attempts !== 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      last = (await request(`${stub.url}/__admin/webhooks`)).json.deliveries.at(-1);
    }
    expect(last).toMatchObject({ status: 200, attempts: 3 });
    expect(last.error).toBeUndefined();
  });

  it('takes a new target from PUT /__admin/webhooks/NAME, and refuses one that is not http(s)', async () => {
    const moved = await request(`${stub.url}/__admin/webhooks/newPlant`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${receiver.url}/moved` }) });
    expect([moved.status, moved.json]).toEqual([200, { name: 'newPlant', target: `${receiver.url}/moved` }]);
    const bad = await request(`${stub.url}/__admin/webhooks/newPlant`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"url":"file:///etc/passwd"}' });
    expect(bad.status).toBe(400);
    await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":4,"name":"Sage"}' });
    expect((await receiver.arrived(1))[0].url).toBe('/moved');
  });
});

describe('a 3.0 callback', () => {
  const receiver = new Receiver();
  let stub: RunningStub;

  beforeAll(async () => {
    await receiver.start();
    stub = await startStub({ spec: join(SPECS, 'subscriptions-3.0.yaml'), fixtures: join(SPECS, 'no-fixtures'), port: 0, watch: false });
  });
  afterAll(async () => {
    await stub?.close();
    await receiver.stop();
  });

  it('goes to the URL its expression reads from the request body, with the documented example and header', async () => {
    const subscribed = await request(`${stub.url}/subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl: `${receiver.url}/events`, topic: 'ferns' }) });
    expect([subscribed.status, subscribed.json]).toEqual([201, { id: 1 }]);
    const [callback] = await receiver.arrived(1);
    expect(callback).toMatchObject({ method: 'POST', url: '/events?topic=ferns', body: '{"event":"watered","at":"2026-01-01T08:00:00Z"}' });
    expect(callback.headers['x-event-kind']).toBe('plant-added');
    expect(callback.headers['content-type']).toBe(JSON_TYPE);
  });

  it('is not sent when the request is refused', async () => {
    receiver.received.length = 0;
    const refused = await request(`${stub.url}/subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl: `${receiver.url}/events` }) });
    expect(refused.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toEqual([]);
  });
});

describe('--webhook on the command line', () => {
  const receiver = new Receiver();
  const spec = join(SPECS, 'plant-store-full.yaml');
  const fixtures = join(SPECS, 'plant-store-full-fixtures');
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('registers the target: a created plant reaches it', async () => {
    const cli = await startCli(['--spec', spec, '--fixtures', fixtures, '--port', '0', '--quiet', '--no-watch', '--webhook', `newPlant=${receiver.url}/cli`]);
    try {
      expect((await request(`${cli.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
      expect((await receiver.arrived(1)).map((hook) => [hook.url, hook.body])).toEqual([['/cli', '{"id":1,"name":"Fern"}']]);
    } finally {
      await cli.stop();
    }
  });

  // A create answered from the state sends what the fixture names as one answered without state
  // (a stub started without the fixture sends nothing in either mode: the fixture is the trigger).
  it.each([
    ['answered without state', []],
    ['answered from the state', ['--stateful']],
    ['answered from the state two workers share', ['--stateful', '--workers', '2']],
    ['answered from a Redis state store', ['--stateful', '--state-store', 'REDIS']],
  ])('a created plant %s reaches it', async (_name, flags) => {
    if (flags.includes('REDIS') && !haveRedis) return;
    const redis = flags.includes('REDIS') ? await startRedis() : null;
    const cli = await startCli(['--spec', spec, '--fixtures', fixtures, '--port', '0', '--quiet', '--no-watch', ...flags.map((flag) => (flag === 'REDIS' ? redis!.url : flag)), '--webhook', `newPlant=${receiver.url}/modes`], { timeoutMs: 20_000 });
    try {
      receiver.received.length = 0;
      expect((await request(`${cli.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":7,"name":"Ivy"}' })).status).toBe(200);
      expect((await receiver.arrived(1)).map((hook) => [hook.url, hook.body])).toEqual([['/modes', '{"id":7,"name":"Ivy"}']]);
    } finally {
      await cli.stop();
      await redis?.stop();
    }
  });

  it.each([
    ['without NAME=', 'http://127.0.0.1:9/x', 'plant-store-stub: --webhook: expected NAME=URL, got "http://127.0.0.1:9/x"\n'],
    ['naming a webhook the document lacks', 'oldPlant=http://127.0.0.1:9/x', 'plant-store-stub: --webhook: oldPlant: the document has no such webhook; known: newPlant\n'],
    ['to a URL that is not http(s)', 'newPlant=ftp://127.0.0.1/x', 'plant-store-stub: --webhook: newPlant: the target must be an http:// or https:// URL, got ftp://127.0.0.1/x\n'],
  ])('refuses one %s with one line and exit code 2', async (_name, flag, stderr) => {
    const run = await runCli(['--spec', spec, '--fixtures', fixtures, '--port', '0', '--quiet', '--no-watch', '--webhook', flag]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(stderr);
  });
});

describe('a webhook named by one scenario', () => {
  const receiver = new Receiver();
  let stub: RunningStub;
  let fixtures: string;

  beforeAll(async () => {
    await receiver.start();
    fixtures = await mkdtemp(join(tmpdir(), 'stub-webhook-fixtures-'));
    await writeFile(join(fixtures, 'add-plant.yaml'), [
      'operation: POST /plants',
      'scenarios:',
      '  bulk:',
      '    status: 200',
      '    body: { id: 9, name: Bulk }',
      '    webhooks: [newPlant]',
    ].join('\n'));
    stub = await startStub({ spec: join(SPECS, 'plant-store-full.yaml'), fixtures, port: 0, watch: false, webhooks: { newPlant: `${receiver.url}/bulk` } });
  });
  afterAll(async () => {
    await stub?.close();
    await receiver.stop();
    await rm(fixtures, { recursive: true, force: true });
  });

  it('is sent after that scenario’s answer only', async () => {
    const plain = await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' });
    expect([plain.status, plain.headers.get('x-mock-scenario')]).toEqual([200, 'echo']);
    const bulk = await request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'bulk' }, body: '{"id":2,"name":"Ivy"}' });
    expect([bulk.status, bulk.json]).toEqual([200, { id: 9, name: 'Bulk' }]);
    expect((await receiver.arrived(1)).map((hook) => [hook.url, hook.body])).toEqual([['/bulk', '{"id":2,"name":"Ivy"}']]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });
});
