// A page of the journal (GET /__admin/requests?limit&offset): the newest `limit` entries the
// filter keeps, after skipping the newest `offset`, listed oldest first with the `total` kept. The
// same answers in one process, across --workers and across instances on one Redis; with Redis, the
// page is what is read (one LRANGE of it), not the whole journal.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createPlant } from './helpers/plant.js';
import { request } from './helpers/http.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

/** Seven plants created one after another (ids 1 to 7), with a 405 after the third and the sixth. */
async function fillJournal(url: string): Promise<void> {
  for (let id = 1; id <= 7; id++) {
    expect((await createPlant(url, { id, name: `plant ${id}` }, { connection: 'close' })).status).toBe(200);
    if (id === 3 || id === 6) expect((await request(`${url}/plants`, { method: 'DELETE', headers: { connection: 'close' } })).status).toBe(405);
    // Entries of different workers are merged by time, which counts milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

/** Query -> the created ids listed (null for the 405s), and the total said (absent without a page). */
const PAGES: Array<[string, Array<number | null>, number | undefined]> = [
  ['', [1, 2, 3, null, 4, 5, 6, null, 7], undefined],
  ['?limit=3', [6, null, 7], 9],
  ['?limit=3&offset=2', [4, 5, 6], 9],
  ['?limit=4&offset=7', [1, 2], 9],
  ['?offset=6', [1, 2, 3], 9],
  ['?limit=100', [1, 2, 3, null, 4, 5, 6, null, 7], 9],
  ['?offset=9', [], 9],
  ['?status=200&limit=2', [6, 7], 7],
  ['?status=200&limit=2&offset=5', [1, 2], 7],
  ['?method=DELETE&limit=1', [null], 2],
  ['?status=404&limit=5', [], 0],
];

const REFUSED: Array<[string, string]> = [
  ['?limit=0', 'limit must be a whole number from 1, got 0'],
  ['?limit=ten', 'limit must be a whole number from 1, got ten'],
  ['?offset=-1', 'offset must be a whole number, got -1'],
  ['?limit=1&limit=2', 'limit must be given once'],
];

function checkPages(url: () => string): void {
  it.each(PAGES)('GET /__admin/requests%s lists the page asked for, oldest first', async (query, ids, total) => {
    const listed = await request(`${url()}/__admin/requests${query}`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(listed.json.requests.map((entry: { body: { id?: number } | null }) => entry.body?.id ?? null)).toEqual(ids);
    expect(listed.json.total).toBe(total);
  });

  it.each(REFUSED)('refuses %s with a 400 that says why', async (query, detail) => {
    const refused = await request(`${url()}/__admin/requests${query}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.json.detail).toBe(detail);
  });
}

describe('a page of the journal in one process', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ port: 0, watch: false, log: () => {} });
    await fillJournal(stub.url);
  });
  afterAll(() => stub?.close());
  checkPages(() => stub.url);

  it('is what stub.requests() returns for the same filter', () => {
    expect(stub.requests({ limit: 2, offset: 1 }).map((entry) => (entry.body as { id?: number } | null)?.id ?? null)).toEqual([6, null]);
  });
});

describe('a page of the journal with --workers 2', () => {
  let cli: StartedCli;
  beforeAll(async () => {
    cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch'], { timeoutMs: 20_000 });
    await fillJournal(cli.url);
  }, 30_000);
  afterAll(() => cli?.stop('SIGKILL'));
  checkPages(() => cli.url);
});

describe.skipIf(!haveRedis)('a page of the journal across two instances on one Redis', () => {
  let redis: RunningRedis;
  let first: RunningStub;
  let second: RunningStub;
  let monitor: Redis;
  const commands: string[][] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const options = { port: 0, watch: false, log: () => {}, stateStore: redis.url };
    [first, second] = [await startStub(options), await startStub(options)];
    for (let id = 1; id <= 7; id++) {
      // Alternating instances: the journal in Redis is the one both write.
      const url = id % 2 === 0 ? second.url : first.url;
      expect((await createPlant(url, { id, name: `plant ${id}` })).status).toBe(200);
      if (id === 3 || id === 6) expect((await request(`${url}/plants`, { method: 'DELETE' })).status).toBe(405);
    }
    const watcher = new Redis(redis.url);
    monitor = await watcher.monitor();
    watcher.disconnect();
    monitor.on('monitor', (_time: string, args: string[]) => void commands.push(args));
  }, 20_000);
  afterAll(async () => {
    monitor?.disconnect();
    await Promise.all([first?.close(), second?.close()]);
    await redis?.stop();
  });
  checkPages(() => second.url);

  it('reads only the page from Redis when nothing is filtered: its length and one LRANGE of the page', async () => {
    commands.length = 0;
    expect((await request(`${first.url}/__admin/requests?limit=2&offset=3`)).json.requests).toHaveLength(2);
    // MONITOR reports commands a moment after they run: wait (bounded) for the read to show.
    for (let waited = 0; waited < 2_000 && !commands.some(([name]) => /^lrange$/i.test(name)); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const journalReads = commands.filter(([name]) => /^(lrange|llen)$/i.test(name));
    expect(journalReads.map(([name, , ...range]) => [name.toLowerCase(), ...range])).toEqual([['llen'], ['lrange', '-5', '-4']]);
  });
});
