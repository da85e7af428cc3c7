// The options the engine reads are one set, taken alike by the server (startStub, the CLI) and the
// fetch handler (and so MSW's handlers): the same wrong value is refused with the same words by
// both, and the same value makes both answer alike: a delay drawn from a spread, --chaos's
// documented errors, Prism's conventions, stateful mode implied by seed items.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub, type StubOptions } from '../src/index.js';
import { createFetchHandler, type FetchHandler } from '../src/fetch.js';

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'openapi.yaml');
const DOCUMENT = readFileSync(SPEC, 'utf8');
const BASE = 'http://plants.test';
const quiet = { log: () => {} };

/** A wrong value of an engine option, and the words both hosts refuse it with. */
const REFUSED: Array<[string, Partial<StubOptions>, string]> = [
  ['a negative seed', { seed: -1 }, 'seed: must be a whole number from 0 to 2147483647, got -1'],
  ['too many seed items', { seedItems: 100_001 }, 'seedItems: must be a whole number from 0 to 100000, got 100001'],
  ['seed items with stateful mode off', { seedItems: 3, stateful: false }, "seedItems: fills stateful mode's store, and stateful mode is off (stateful: false); leave one of them out"],
  ['a delay over a minute', { delayMs: 70_000 }, 'delayMs: '],
  ['a spread whose minimum is above its maximum', { delayMs: { min: 50, max: 10 } }, 'delayMs: '],
  ['a chaos share above 1', { chaos: 2 }, 'chaos: must be a share from 0 to 1 (0.05 is 5% of requests), got 2'],
  ['an unknown chaos fault', { chaos: 0.5, chaosFaults: ['boom' as never] }, 'chaosFaults: must be faults among '],
  ['chaos faults without chaos', { chaosFaults: ['reset'] }, 'chaosFaults: says which faults --chaos injects, so it needs --chaos P'],
  ['no events in a stream', { streamMaxEvents: 0 }, 'streamMaxEvents: must be a whole number from 1 to 10000, got 0'],
  ['an empty body limit', { maxBodyBytes: 0 }, 'maxBodyBytes: must be a whole number from 1 to 1073741824, got 0'],
  ['a fractional state cap', { maxStateBytes: 1.5 }, 'maxStateBytes: must be a whole number from 1 to 17179869184, got 1.5'],
  ['a negative journal limit', { journalLimit: -1 }, 'journalLimit: must be a whole number from 0 to 1000000, got -1'],
  ['a token with a space', { tokens: ['two words'] }, 'tokens: each token must be a non-empty string without spaces'],
];

async function refusal(start: () => Promise<unknown>): Promise<string> {
  try {
    await start();
  } catch (error) {
    return (error as Error).message;
  }
  return 'started';
}

describe('an engine option refused alike by every host', () => {
  it.each(REFUSED)('%s', async (_name, options, words) => {
    const byServer = await refusal(() => startStub({ ...options, spec: SPEC, port: 0, watch: false, ...quiet }).then((stub) => stub.close()));
    const byHandler = await refusal(() => createFetchHandler({ ...options, document: DOCUMENT, ...quiet } as Parameters<typeof createFetchHandler>[0]));
    expect(byServer.startsWith(words)).toBe(true);
    expect(byHandler).toBe(byServer);
  });
});

/** The same request to both, read as status, the headers that say where the answer came from, and the body. */
async function bothAnswer(server: RunningStub, handle: FetchHandler, path: string, init: RequestInit) {
  const read = async (response: Response) => ({ status: response.status, scenario: response.headers.get('x-mock-scenario'), body: await response.text() });
  const overHttp = await read(await fetch(server.url + path, init));
  const answered = await handle(new Request(BASE + path, init));
  return { overHttp, inProcess: await read(answered!) };
}

const createPlant = (name: string): RequestInit => ({ method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, name }) });

describe.each([
  { title: 'a delay drawn from a spread', options: { delayMs: { min: 20, max: 60 }, seed: 3 } },
  { title: "--chaos's documented errors", options: { chaos: 0.5, seed: 11 } },
  { title: "Prism's conventions", options: { compat: 'prism' as const, dynamic: true, seed: 5 } },
])('$title: the server and the fetch handler answer alike', ({ options }) => {
  let server: RunningStub;
  let handle: FetchHandler;
  beforeAll(async () => {
    server = await startStub({ ...options, spec: SPEC, port: 0, watch: false, ...quiet });
    handle = await createFetchHandler({ ...options, document: DOCUMENT, baseUrl: BASE, ...quiet });
  });
  afterAll(() => server?.close());

  it('answers six requests in a row with the same statuses, scenarios and bodies, and waits as long', async () => {
    for (let i = 0; i < 6; i++) {
      const { overHttp, inProcess } = await bothAnswer(server, handle, '/plants', createPlant(`plant ${i}`));
      expect(inProcess).toEqual(overHttp);
    }
    const waits = (entries: Array<{ delayMs?: number }>) => entries.map((entry) => entry.delayMs ?? 0);
    expect(waits(handle.requests())).toEqual(waits(server.requests()));
    if ('delayMs' in options) for (const wait of waits(server.requests())) expect(wait >= 20 && wait <= 60).toBe(true);
    if ('chaos' in options) expect(server.requests().some((entry) => entry.scenario?.startsWith('chaos ('))).toBe(true);
  });
});

describe('stateful mode implied by seed items, in both hosts', () => {
  it('serves the seeded items from a fetch handler given only seedItems, as the server does', async () => {
    const full = join(ROOT, 'test', 'specs', 'plant-store-full.yaml');
    const server = await startStub({ spec: full, fixtures: join(ROOT, 'test', 'specs', 'plant-store-full-fixtures'), seedItems: 2, seed: 4, port: 0, watch: false, ...quiet });
    try {
      const handle = await createFetchHandler({ document: readFileSync(full, 'utf8'), seedItems: 2, seed: 4, baseUrl: BASE, ...quiet });
      const { overHttp, inProcess } = await bothAnswer(server, handle, '/plants', { headers: { authorization: 'Bearer t' } });
      expect(overHttp.status).toBe(200);
      expect(overHttp.scenario).toBe('state');
      expect(inProcess).toEqual(overHttp);
    } finally {
      await server.close();
    }
  });

  it('refuses a create past maxStateBytes in the same words and bytes as the server, and keeps nothing of it', async () => {
    const full = join(ROOT, 'test', 'specs', 'plant-store-full.yaml');
    const options = { stateful: true, maxStateBytes: 200, seed: 4 };
    const server = await startStub({ ...options, spec: full, fixtures: join(ROOT, 'test', 'specs', 'plant-store-full-fixtures'), port: 0, watch: false, ...quiet });
    try {
      const handle = await createFetchHandler({ ...options, document: readFileSync(full, 'utf8'), baseUrl: BASE, ...quiet });
      const statuses: number[] = [];
      for (let id = 1; id <= 6; id++) {
        const { overHttp, inProcess } = await bothAnswer(server, handle, '/plants', { ...createPlant(`plant ${id} ${'x'.repeat(40)}`), body: JSON.stringify({ id, name: `plant ${id} ${'x'.repeat(40)}` }) });
        expect(inProcess).toEqual(overHttp);
        statuses.push(overHttp.status);
        if (overHttp.status === 422) expect(JSON.parse(overHttp.body).detail).toMatch(/more than 200 bytes/);
      }
      expect(statuses).toContain(200);
      expect(statuses.at(-1)).toBe(422);
      const listed = await bothAnswer(server, handle, '/plants', { headers: { authorization: 'Bearer t' } });
      expect(listed.inProcess).toEqual(listed.overHttp);
      expect(JSON.parse(listed.overHttp.body)).toHaveLength(statuses.filter((status) => status === 200).length);
    } finally {
      await server.close();
    }
  });
});
