// --record writes the real API's answers as fixtures (one file per operation,
// one scenario per request and status, matched by the request), never a credential, and
// --fixtures replays them offline with the recorded answers. docs/proxy.md's recorded file is
// the one these requests write.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS } from './helpers/plant.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { pollUntil } from './helpers/poll.js';
import { startDriftingUpstream, type DriftingUpstream } from './helpers/drifting-upstream.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const SECRET_HEADERS = { authorization: 'Bearer real-secret', cookie: 'session=client-secret' };

/** What is sent through the recording proxy, and what it answered (the replay must give the same). */
const EXCHANGES: Array<{ method: string; path: string; body?: string }> = [
  { method: 'GET', path: '/plants/1' },
  { method: 'GET', path: '/plants/404' },
  { method: 'GET', path: '/plants/2' },
  { method: 'GET', path: '/plants/1' },
  { method: 'GET', path: '/plants/3' },
  { method: 'GET', path: '/plants?tag=fern&limit=5' },
  { method: 'POST', path: '/plants', body: '{"name":"Fern","tag":"fern"}' },
  { method: 'POST', path: '/plants', body: '{"name":"Moss"}' },
  { method: 'GET', path: '/plants/1/photo' },
  { method: 'GET', path: '/plants?tag=many' },
];

let upstream: DriftingUpstream;
let dir: string;
const warnings: string[] = [];
const answered = new Map<string, TestResponse>();
let recordedSoon: string[] = [];

function send(url: string, { method, path, body }: (typeof EXCHANGES)[number]): Promise<TestResponse> {
  return request(`${url}${path}`, { method, headers: { ...(body ? JSON_HEADERS : AUTH_HEADERS), ...SECRET_HEADERS }, body });
}

beforeAll(async () => {
  upstream = await startDriftingUpstream();
  dir = join(await mkdtemp(join(tmpdir(), 'stub-record-')), 'recorded');
  const proxy = await startStub({ spec: SPEC, fixtures: join(dir, '..', 'none'), port: 0, watch: false, proxy: upstream.url, record: dir, log: (line) => warnings.push(line) });
  for (const exchange of EXCHANGES) answered.set(`${exchange.method} ${exchange.path} ${exchange.body ?? ''}`, await send(proxy.url, exchange));
  // Written within about a second of the exchanges, while the stub still runs.
  recordedSoon = await pollUntil(() => readdir(dir).catch(() => []), (files) => files.length === 3, 5_000);
  await proxy.close();
});
afterAll(async () => {
  await upstream.close();
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('--record DIR', () => {
  it('writes one file per operation, a moment after the exchanges, with no partial files left', async () => {
    const files = ['create-plant.yaml', 'get-plant.yaml', 'list-plants.yaml'];
    expect(recordedSoon.sort()).toEqual(files);
    expect((await readdir(dir)).sort()).toEqual(files);
  });

  it('writes the file docs/proxy.md shows for GET /plants/{id}: a scenario per request, a repeat updating it, a broken answer commented out', async () => {
    const shown = (await codeBlocks('proxy.md')).find(({ text }) => text.startsWith('# Recorded by plant-store-stub'))!.text;
    expect(await readFile(join(dir, 'get-plant.yaml'), 'utf8')).toBe(shown);
  });

  it('never writes a credential: Authorization, cookies, Set-Cookie', async () => {
    for (const file of await readdir(dir)) {
      const text = await readFile(join(dir, file), 'utf8');
      for (const secret of ['real-secret', 'client-secret', 'upstream-secret', 'Bearer', 'session']) expect(text).not.toContain(secret);
    }
  });

  it('says why an answer was not recorded: a body that is not JSON, a body over 1 MiB', () => {
    expect(warnings).toContain('warning: --record: an answer of GET /plants/{id}/photo was not recorded: its application/octet-stream body is not JSON, which a fixture holds');
    expect(warnings).toContain('warning: --record: an answer of GET /plants was not recorded: its body is larger than 1048576 bytes');
  });
});

describe('replay: --fixtures DIR without --proxy answers the recorded requests with the recorded answers', () => {
  let replay: RunningStub;
  beforeAll(async () => {
    replay = await startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false });
  });
  afterAll(() => replay.close());

  it.each(EXCHANGES.filter(({ path }) => !['/plants/2', '/plants/1/photo', '/plants?tag=many'].includes(path)).map((e) => [`${e.method} ${e.path} ${e.body ?? ''}`, e] as const))(
    '%s',
    async (key, exchange) => {
      const recorded = answered.get(key)!;
      const response = await send(replay.url, exchange);
      expect(response.status).toBe(recorded.status);
      expect(response.json).toEqual(recorded.json);
      expect(response.headers.get('x-mock-scenario')).not.toMatch(/^(generated|echo)$/);
    },
  );

  it('an answer that broke the document is not served: GET /plants/2 gets generated data', async () => {
    const response = await send(replay.url, { method: 'GET', path: '/plants/2' });
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
  });
});
