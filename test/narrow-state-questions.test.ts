// What a stateful request asks the store (issue 36): only what it needs (one item, one page, a
// count, a new id), answered exactly in every mode: in the process, at the cluster primary
// (--workers 2) and in Redis. The narrow answers are what the whole state holds; a page after
// deletes lists each item left once; in Redis a read by id is one HGET whatever the store holds,
// and creates through two instances at once never share an id.
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const SPEC = join(import.meta.dirname, 'specs', 'shelved-items.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
const JSON_HEADERS = { 'content-type': 'application/json' };
const KEY = 'plant-store-stub:';

type Item = { id: number; name?: string; title?: string; shelf_id?: string };

const post = (url: string, path: string, body: object) => request(`${url}${path}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });

/** Every item of a list, page after page (`limit`, `offset`), as the client sees them. */
async function pagedThrough(url: string, path: string, limit: number): Promise<Item[]> {
  const all: Item[] = [];
  for (let offset = 0; offset < 1_000; offset += limit) {
    const page = await request(`${url}${path}?limit=${limit}&offset=${offset}`);
    expect(page.status).toBe(200);
    all.push(...(page.json as Item[]));
    if ((page.json as Item[]).length < limit) break;
  }
  return all;
}

interface Mode {
  name: string;
  start(): Promise<{ url: string; stop(): Promise<unknown> }>;
}

let redis: RunningRedis | undefined;

const modes: Mode[] = [
  { name: 'in the process', start: async () => {
    const stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, log: () => {} });
    return { url: stub.url, stop: () => stub.close() };
  } },
  { name: 'at the cluster primary (--workers 2)', start: async () => {
    const cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', '--stateful', '--spec', SPEC, '--fixtures', NO_FIXTURES], { timeoutMs: 20_000 });
    return { url: cli.url, stop: () => cli.stop('SIGKILL') };
  } },
  ...(haveRedis ? [{ name: 'in Redis', start: async () => {
    redis ??= await startRedis();
    const stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
    await request(`${stub.url}/__admin/state`, { method: 'DELETE' });
    return { url: stub.url, stop: () => stub.close() };
  } }] : []),
];

afterAll(async () => {
  await redis?.stop();
});

describe.each(modes)('a store $name', (mode) => {
  let url: string;
  let stop: () => Promise<unknown>;

  beforeAll(async () => {
    ({ url, stop } = await mode.start());
    for (let i = 1; i <= 30; i++) expect((await post(url, '/items', { name: `item ${i}` })).status).toBe(201);
    for (const [shelf, title] of [['a', 'Emma'], ['b', 'Dune'], ['a', 'Ulysses'], ['b', 'Solaris'], ['a', 'Beloved']]) {
      expect((await post(url, `/shelves/${shelf}/books`, { title })).status).toBe(201);
    }
  }, 30_000);

  afterAll(async () => {
    await stop?.();
  });

  it('numbers created items one above the largest, and lists them oldest first, page by page', async () => {
    const listed = await pagedThrough(url, '/items', 7);
    expect(listed.map((item) => item.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('lists each item left once after deletes in the middle, through pages that cross them', async () => {
    for (const id of [3, 8, 9, 10, 15, 22]) expect((await request(`${url}/items/${id}`, { method: 'DELETE' })).status).toBe(204);
    const listed = (await pagedThrough(url, '/items', 4)).map((item) => item.id);
    expect(listed).toEqual(Array.from({ length: 30 }, (_, i) => i + 1).filter((id) => ![3, 8, 9, 10, 15, 22].includes(id)));
    expect((await request(`${url}/items?limit=3&offset=23`)).json).toEqual([{ id: 30, name: 'item 30' }]);
    expect((await request(`${url}/items?limit=3&offset=24`)).json).toEqual([]);
  });

  it('answers every read, page and count as the whole state holds them', async () => {
    expect((await request(`${url}/items/16`, { method: 'PUT', headers: JSON_HEADERS, body: '{"name":"renamed"}' })).status).toBe(200);
    const whole = (await request(`${url}/__admin/state`)).json as Record<string, Item[]>;
    expect(await pagedThrough(url, '/items', 5)).toEqual(whole['/items']);
    for (const item of whole['/items']) expect((await request(`${url}/items/${item.id}`)).json).toEqual(item);
    for (const shelf of ['a', 'b']) {
      const books = whole['/shelves/{shelf_id}/books'].filter((book) => book.shelf_id === shelf);
      expect(await pagedThrough(url, `/shelves/${shelf}/books`, 2)).toEqual(books);
      for (const book of books) expect((await request(`${url}/shelves/${shelf}/books/${book.id}`)).json).toEqual(book);
    }
    expect((await request(`${url}/shelves/b/books/1`)).status).toBe(404);
  });

  it('does not give a deleted newest item\'s id to the next create', async () => {
    const made = await post(url, '/items', { name: 'newest' });
    expect((await request(`${url}/items/${made.json.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await post(url, '/items', { name: 'next' })).json.id).toBe(made.json.id + 1);
  });
});

describe.skipIf(!haveRedis)('Redis asked only for what a request needs', () => {
  let stub: RunningStub;
  let other: RunningStub;
  let monitor: Redis;
  let client: Redis;
  /** Each command Redis ran, with where it came from (`lua`: from inside a script). */
  const commands: Array<{ args: string[]; source: string }> = [];

  beforeAll(async () => {
    redis ??= await startRedis();
    stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
    other = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, stateful: true, stateStore: redis.url, log: () => {} });
    client = new Redis(redis.url);
    const watcher = new Redis(redis.url);
    monitor = await watcher.monitor();
    watcher.disconnect();
    monitor.on('monitor', (_time: string, args: string[], source: string) => void commands.push({ args, source }));
  }, 20_000);

  afterAll(async () => {
    monitor?.disconnect();
    client?.disconnect();
    await stub?.close();
    await other?.close();
  });

  /**
   * The commands a request sent that read or change the stored items (not the journal's records),
   * and the names of those its scripts ran.
   */
  async function stateCommands(send: () => Promise<unknown>): Promise<{ sent: string[][]; scripted: string[] }> {
    await client.ping();
    await new Promise((resolve) => setTimeout(resolve, 50));
    commands.length = 0;
    await send();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = commands.filter(({ args: [name, key], source }) => source !== 'lua' && (/^(evalsha|eval)$/i.test(name) || (key ?? '').startsWith(KEY) && /:(items|order|largest):/.test(key)));
    return { sent: sent.map(({ args }) => args), scripted: commands.filter(({ source }) => source === 'lua').map(({ args }) => args[0].toLowerCase()) };
  }

  /** The bytes Redis has sent to its clients so far. */
  async function bytesOut(): Promise<number> {
    return Number(/total_net_output_bytes:(\d+)/.exec(await client.info('stats'))![1]);
  }

  /**
   * The bytes sent so far, once what earlier commands sent has gone out: on a busy machine the
   * MONITOR connection's copies of a fill's commands are still flowing for a while after it.
   * Read until two reads 50 ms apart differ by no more than an INFO answer (bounded: 3 s).
   */
  async function bytesOutWhenQuiet(): Promise<number> {
    let last = await bytesOut();
    for (let waited = 0; waited < 3_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await bytesOut();
      if (now - last < 2_000) return now;
      last = now;
    }
    return last;
  }

  async function fill(count: number): Promise<void> {
    const items = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `item ${i + 1} ${'x'.repeat(150)}` }));
    expect((await request(`${stub.url}/__admin/state`, { method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify({ '/items': items }) })).status).toBe(200);
  }

  it('reads one item by id with one HGET, and as many bytes, whether the store holds 10 items or 20,000', async () => {
    const sent: number[] = [];
    for (const count of [10, 20_000]) {
      await fill(count);
      const before = await bytesOutWhenQuiet();
      const read = await stateCommands(() => request(`${stub.url}/items/5`).then((answer) => expect(answer.status).toBe(200)));
      sent.push((await bytesOut()) - before);
      expect(read).toEqual({ sent: [['hget', `${KEY}items:/items`, '5']], scripted: [] });
    }
    // The bytes of the INFO answer itself are in both; what differs is the store, which is not read.
    expect(Math.abs(sent[1] - sent[0])).toBeLessThan(200);
  }, 30_000);

  it('reads a page with one script sent by its SHA (the page\'s ranks, then its items), as many bytes at 40 items as at 20,000, and refuses an invalid id without asking Redis', async () => {
    const sent: number[] = [];
    for (const count of [40, 20_000]) {
      await fill(count);
      const lastPage = () => request(`${stub.url}/items?limit=20&offset=${count - 20}`).then((answer) => expect(answer.json).toHaveLength(20));
      await lastPage(); // Redis learns the script the first time
      const before = await bytesOutWhenQuiet();
      const page = await stateCommands(lastPage);
      sent.push((await bytesOut()) - before);
      expect(page.sent.map(([name]) => name.toLowerCase())).toEqual(['evalsha']);
      expect(page.scripted).toEqual(['zcard', 'zrange', 'hmget']);
    }
    // Longer ids (19981 against 21) in the page, the journal entry and the monitor's copies: not the 3 MB of the store.
    expect(Math.abs(sent[1] - sent[0])).toBeLessThan(2_000);
    expect(await stateCommands(() => request(`${stub.url}/items/not-a-number`).then((answer) => expect(answer.status).toBe(400)))).toEqual({ sent: [], scripted: [] });
  }, 30_000);

  it('creates with one script for the facts (the count, a new id by INCR) and one to store the item', async () => {
    await post(stub.url, '/items', { name: 'first' });
    const create = await stateCommands(() => post(stub.url, '/items', { name: 'second' }).then((answer) => expect(answer.status).toBe(201)));
    expect(create.sent.map(([name]) => name.toLowerCase())).toEqual(['evalsha', 'evalsha']);
    expect(create.scripted.filter((name) => name === 'incr' || name === 'hkeys' || name === 'hset')).toEqual(['incr', 'hset', 'incr']);
  }, 30_000);

  it('gives every create through two instances at once its own id', async () => {
    await request(`${stub.url}/__admin/state`, { method: 'DELETE' });
    const creates = await Promise.all(Array.from({ length: 200 }, (_, i) => post(i % 2 === 0 ? stub.url : other.url, '/items', { name: `racer ${i}` })));
    expect(creates.map((answer) => answer.status)).toEqual(creates.map(() => 201));
    const ids = creates.map((answer) => answer.json.id as number);
    expect(new Set(ids).size).toBe(200);
    const whole = (await request(`${other.url}/__admin/state`)).json as Record<string, Item[]>;
    expect(whole['/items'].map((item) => item.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  }, 30_000);
});
