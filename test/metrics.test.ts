// GET /__admin/metrics in the Prometheus text format, scraped after a known set of requests: each
// request counted once by operation, status and where its answer came from, refusals by kind,
// latency per operation, the journal, deliveries, reloads and the stored items and bytes. Guarded
// like the rest of the admin API. With --workers a scrape through any worker is the whole server's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, createPlant, PROBLEM_TYPE } from './helpers/plant.js';
import { pollUntil } from './helpers/poll.js';
import { startCli } from './helpers/cli.js';
import { raw } from './helpers/raw-http.js';
import { LocalStateStore } from '../src/stub/local-state-store.js';

const SPECS = join(import.meta.dirname, 'specs');
const SPEC = join(SPECS, 'plant-store-full.yaml');
const NO_FIXTURES = join(SPECS, 'no-fixtures');
const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';

/** The samples of a scrape: `name{label="value",…}` -> value (labels as written, in order). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

/** A webhook receiver answering 204 to everything. */
async function startReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('metrics after a known set of requests', () => {
  let stub: RunningStub;
  let receiver: { url: string; server: Server };
  let scrape: TestResponse;
  let found: Map<string, number>;

  beforeAll(async () => {
    receiver = await startReceiver();
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, webhooks: { newPlant: `${receiver.url}/hooks` } });
    const sent = [
      () => createPlant(stub.url, { id: 1, name: 'Fern' }),
      () => createPlant(stub.url, { id: 2, name: 'Ivy' }),
      () => createPlant(stub.url, { id: 1, name: 'Fern again' }),
      () => createPlant(stub.url, { tag: 5 }),
      () => createPlant(stub.url, { id: 3, name: 'Sage' }, { authorization: '' }),
      () => request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS }),
      () => request(`${stub.url}/plants/99`, { headers: AUTH_HEADERS }),
      () => request(`${stub.url}/nowhere`, { headers: AUTH_HEADERS }),
      () => request(`${stub.url}/plants`, { method: 'PATCH', headers: AUTH_HEADERS }),
      () => createPlant(stub.url, { id: 4, name: 'Rue' }, { 'x-mock-scenario': 'no-such-scenario' }),
    ];
    // One after another: the state each step sees is the one before it left.
    for (const send of sent) await send();
    expect((await request(`${stub.url}/__admin/reload`, { method: 'POST' })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await request(`${stub.url}/__admin/webhooks/newPlant/fire`, { method: 'POST' })).status).toBe(202);
    // Webhooks leave after the answer that queued them: wait (bounded) until both are counted.
    scrape = await pollUntil(() => request(`${stub.url}/__admin/metrics`), (answer) => answer.text.includes('stub_deliveries_total{kind="webhook",outcome="delivered"} 2'), 10_000);
    found = samples(scrape.text);
  }, 20_000);

  afterAll(async () => {
    await stub?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('answers 200 in the Prometheus text format', () => {
    expect([scrape.status, scrape.headers.get('content-type')]).toEqual([200, TEXT_FORMAT]);
    expect(scrape.text).toContain('# TYPE stub_requests_total counter\n');
    expect(scrape.text).toContain('# TYPE stub_request_duration_seconds histogram\n');
  });

  const requests: Array<[string, number]> = [
    ['stub_requests_total{operation="POST /plants",status="200",origin="state"}', 2],
    ['stub_requests_total{operation="POST /plants",status="400",origin="refusal"}', 2],
    ['stub_requests_total{operation="POST /plants",status="401",origin="refusal"}', 1],
    ['stub_requests_total{operation="POST /plants",status="422",origin="refusal"}', 1],
    ['stub_requests_total{operation="GET /plants/{id}",status="200",origin="state"}', 1],
    ['stub_requests_total{operation="GET /plants/{id}",status="404",origin="refusal"}', 1],
    ['stub_requests_total{operation="none",status="404",origin="refusal"}', 1],
    ['stub_requests_total{operation="none",status="405",origin="refusal"}', 1],
  ];
  it.each(requests)('counts %s as %i', (sample, count) => {
    expect(found.get(sample)).toBe(count);
  });

  it('counts every request once and none of the admin requests', () => {
    const total = [...found].filter(([name]) => name.startsWith('stub_requests_total{')).reduce((sum, [, value]) => sum + value, 0);
    expect(total).toBe(10);
  });

  const refusals: Array<[string, number]> = [
    ['invalid_request', 1],
    ['item_exists', 1],
    ['unauthenticated', 1],
    ['selection', 1],
    ['no_item', 1],
    ['no_operation', 1],
    ['method_not_allowed', 1],
  ];
  it.each(refusals)('counts refusals of kind %s: %i', (kind, count) => {
    expect(found.get(`stub_refusals_total{kind="${kind}"}`)).toBe(count);
  });

  it('has a latency histogram per operation whose count is its requests, +Inf bucket included', () => {
    expect(found.get('stub_request_duration_seconds_count{operation="POST /plants"}')).toBe(6);
    expect(found.get('stub_request_duration_seconds_bucket{operation="POST /plants",le="+Inf"}')).toBe(6);
    expect(found.get('stub_request_duration_seconds_count{operation="GET /plants/{id}"}')).toBe(2);
    expect(found.get('stub_request_duration_seconds_count{operation="none"}')).toBe(2);
    expect(found.get('stub_request_duration_seconds_sum{operation="POST /plants"}')).toBeGreaterThan(0);
  });

  it('reports the journal, the delivered webhooks, the empty queue, the reload and no store error', () => {
    expect(found.get('stub_journal_entries')).toBe(10);
    expect(found.get('stub_deliveries_total{kind="webhook",outcome="delivered"}')).toBe(2);
    expect(found.get('stub_delivery_queue_depth')).toBe(0);
    expect(found.get('stub_reloads_total{outcome="ok"}')).toBe(1);
    expect(found.get('stub_reload_duration_seconds_count')).toBe(1);
    expect(found.get('stub_state_store_errors_total')).toBe(0);
  });

  it('reports the stored items and their bytes per resource', async () => {
    const state = (await request(`${stub.url}/__admin/state`)).json as Record<string, unknown[]>;
    expect(found.get('stub_stored_items{resource="/plants"}')).toBe(2);
    expect(found.get('stub_stored_bytes{resource="/plants"}')).toBe(state['/plants'].reduce((sum: number, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0));
  });
});

describe('refusals counted by the name they carry, not guessed from their status', () => {
  /** Three items of this note fit under MAX_STATE; a fourth does not. */
  const NOTE = 'x'.repeat(3_000);
  const MAX_STATE = 10_000;
  let stub: RunningStub;
  let found: Map<string, number>;
  const answers: Array<[number, string]> = [];

  beforeAll(async () => {
    stub = await startStub({ spec: join(SPECS, 'items.yaml'), fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, maxStateBytes: MAX_STATE });
    const create = async (i: number, headers: Record<string, string> = {}) => {
      const answer = await request(`${stub.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name: `big${i}`, note: NOTE }) });
      answers.push([answer.status, String(answer.json?.detail ?? '')]);
    };
    for (let i = 0; i < 4; i++) await create(i);
    await create(4, { 'x-mock-scenario': 'no-such-scenario' });
    // Another process changing the same items first, every time: the store refuses the change.
    const apply = vi.spyOn(LocalStateStore.prototype, 'apply').mockReturnValue('conflict');
    try {
      await request(`${stub.url}/__admin/state`, { method: 'DELETE' });
      await create(5);
    } finally {
      apply.mockRestore();
    }
    found = samples((await request(`${stub.url}/__admin/metrics`)).text);
  }, 20_000);

  afterAll(async () => {
    await stub?.close();
  });

  it('answered a full store 422, an unknown scenario 422 and a busy store 503', () => {
    expect(answers.map(([status]) => status)).toEqual([201, 201, 201, 422, 422, 503]);
    expect(answers[3][1]).toMatch(/--max-state/);
    expect(answers[4][1]).toMatch(/^unknown scenario "no-such-scenario"/);
    expect(answers[5][1]).toMatch(/nothing was stored; retry$/);
  });

  const kinds: Array<[string, number | undefined]> = [
    ['state_store_full', 1],
    ['selection', 1],
    ['state_store_busy', 1],
    ['state_store_unavailable', undefined],
    ['internal_error', undefined],
  ];
  it.each(kinds)('counts refusals of kind %s: %s', (kind, count) => {
    expect(found.get(`stub_refusals_total{kind="${kind}"}`)).toBe(count);
  });

  it('counts no store error: a busy store answered', () => {
    expect(found.get('stub_state_store_errors_total')).toBe(0);
    expect(found.get('stub_requests_total{operation="POST /items",status="503",origin="refusal"}')).toBe(1);
  });
});

describe('metrics are guarded like the rest of the admin API', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ port: 0, watch: false, adminToken: 'admin-secret' });
  });
  afterAll(async () => {
    await stub?.close();
  });

  const cases: Array<[string, Record<string, string>, number, string]> = [
    ['without the admin token: 401 problem+json', {}, 401, PROBLEM_TYPE],
    ['with a wrong admin token: 401 problem+json', { authorization: 'Bearer nope' }, 401, PROBLEM_TYPE],
    ['with the admin token: 200 text format', { authorization: 'Bearer admin-secret' }, 200, TEXT_FORMAT],
  ];
  it.each(cases)('answers a scrape %s', async (_name, headers, status, type) => {
    const answer = await request(`${stub.url}/__admin/metrics`, { headers });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([status, type]);
    if (status === 200) expect(answer.text).toContain('stub_requests_total');
    else expect(answer.text).not.toContain('stub_requests_total');
  });

  it('without an admin token, refuses a Host that is not this machine', async () => {
    const open = await startStub({ port: 0, watch: false });
    try {
      const answer = await raw(open.port, 'GET /__admin/metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
      expect(answer.status).toBe(403);
      expect(answer.headers).toContain(`content-type: ${PROBLEM_TYPE}`);
      expect(answer.body).not.toContain('stub_requests_total');
    } finally {
      await open.close();
    }
  });
});

describe('metrics with --workers 2', () => {
  it('a scrape through any worker counts the whole server’s requests', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--quiet', '--workers', '2']);
    try {
      // Separate connections, so the system spreads them over both workers.
      for (let i = 0; i < 8; i++) {
        expect((await createPlant(cli.url, { id: i, name: `Plant ${i}` }, { connection: 'close' })).status).toBe(200);
      }
      for (let i = 0; i < 2; i++) {
        const scrape = await request(`${cli.url}/__admin/metrics`, { headers: { connection: 'close' } });
        expect([scrape.status, samples(scrape.text).get('stub_requests_total{operation="POST /plants",status="200",origin="echo"}')]).toEqual([200, 8]);
        expect(samples(scrape.text).get('stub_request_duration_seconds_count{operation="POST /plants"}')).toBe(8);
      }
    } finally {
      await cli.stop('SIGTERM');
    }
  }, 30_000);
});
