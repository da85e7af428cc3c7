// Several instances on one Redis serve as one server, and their admin pages show it: each journal
// entry names the instance that answered (`instance`, host:pid), GET /__admin/requests of any
// instance lists every instance's requests, and the live stream (GET /__admin/events, what the
// page follows) of one instance carries the requests the others answer, each once.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { JSON_HEADERS } from './helpers/plant.js';
import { request } from './helpers/http.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

if (!haveRedis) console.log('Redis tests skipped: no /usr/bin/redis-server (install it with: apt-get install redis-server)');

/** Reads on until what arrived holds `count` request events (or the stream ends); returns their entries. */
async function requestEvents(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<any[]> {
  const decoder = new TextDecoder();
  let text = '';
  const events = () => [...text.matchAll(/event: request\ndata: (.*)\n\n/g)].map(([, data]) => JSON.parse(data));
  while (events().length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return events();
}

async function openStream(stub: RunningStub): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const stream = await fetch(`${stub.url}/__admin/events`, { signal: AbortSignal.timeout(15_000) });
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let opened = '';
  while (!opened.includes(': journal stream')) opened += decoder.decode((await reader.read()).value, { stream: true });
  return reader;
}

const create = (stub: RunningStub, id: number) => request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer t' }, body: JSON.stringify({ id, name: `plant ${id}` }) });

describe.skipIf(!haveRedis)('the journal of instances sharing one Redis', () => {
  let redis: RunningRedis;
  let first: RunningStub;
  let second: RunningStub;
  beforeAll(async () => {
    redis = await startRedis();
    const options = { port: 0, watch: false, log: () => {}, stateStore: redis.url };
    first = await startStub(options);
    second = await startStub(options);
  }, 20_000);
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await redis?.stop();
  });

  it('streams the requests every instance answers to one instance\'s page, each once, naming who answered', async () => {
    const reader = await openStream(first);
    expect((await create(second, 1)).status).toBe(200);
    expect((await create(first, 2)).status).toBe(200);
    expect((await create(second, 3)).status).toBe(200);
    const events = await requestEvents(reader, 3);
    await reader.cancel();
    // Two stubs in this one process: the second is named host:pid/2.
    const [one, two] = [`${hostname()}:${process.pid}`, `${hostname()}:${process.pid}/2`];
    expect(events.map((entry) => [entry.body.id, entry.instance])).toEqual([[1, two], [2, one], [3, two]]);
  });

  it('lists every instance\'s requests, each with its instance, from either one', async () => {
    const listed = await request(`${second.url}/__admin/requests`);
    const [one, two] = [`${hostname()}:${process.pid}`, `${hostname()}:${process.pid}/2`];
    expect(listed.json.requests.map((entry: any) => [entry.body.id, entry.instance])).toEqual([[1, two], [2, one], [3, two]]);
  });
});
