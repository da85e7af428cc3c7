// With --proxy, an answer relayed from the real API leaves through the same exit as the mock's:
// --delay waits before it (journaled as its delayMs), CORS headers are set once, a client that
// leaves during the wait is journaled as abandoned, and a body too large to hold is still piped
// whole after the wait. All over real HTTP against a real upstream (helpers/drifting-upstream.ts).
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { AUTH_HEADERS } from './helpers/plant.js';
import { PHOTO_BYTES, startDriftingUpstream, type DriftingUpstream } from './helpers/drifting-upstream.js';
import { pollUntil } from './helpers/poll.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'no-such-fixtures');
const DELAY_MS = 200;
const ORIGIN = 'http://localhost:5173';

let upstream: DriftingUpstream;
let stub: RunningStub;

beforeAll(async () => {
  upstream = await startDriftingUpstream();
  stub = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, proxy: upstream.url, delayMs: DELAY_MS });
});
afterAll(async () => {
  await stub?.close(500);
  await upstream?.close();
});
beforeEach(() => stub.reset());

/** One GET with node:http: the status, the raw header lines (to count repeats), the body's size and how long the head took. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; rawHeaders: string[]; bytes: number; headMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(`${stub.url}${path}`, { headers }, (res: IncomingMessage) => {
      const headMs = performance.now() - started;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, bytes, headMs }));
    }).on('error', reject);
  });
}

/** The values of a header among raw header lines, each occurrence apart. */
function valuesOf(rawHeaders: string[], name: string): string[] {
  const values: string[] = [];
  for (let at = 0; at < rawHeaders.length; at += 2) if (rawHeaders[at].toLowerCase() === name) values.push(rawHeaders[at + 1]);
  return values;
}

describe('an answer relayed from the real API leaves through the one exit', () => {
  const cases: Array<[string, string, number, number | null]> = [
    ['a JSON answer held back to be checked', '/plants/1', 200, null],
    ['a body too large to hold, piped', '/plants/1/photo', 200, PHOTO_BYTES],
    ['an upstream 404 the document has', '/plants/404', 404, null],
  ];
  it.each(cases)('%s: waits --delay, journaled as its delayMs, with the CORS headers once', async (_name, path, status, bytes) => {
    const answer = await rawGet(path, { ...AUTH_HEADERS, origin: ORIGIN });
    expect(answer.status).toBe(status);
    if (bytes !== null) expect(answer.bytes).toBe(bytes);
    expect(valuesOf(answer.rawHeaders, 'access-control-allow-origin')).toEqual([ORIGIN]);
    expect(valuesOf(answer.rawHeaders, 'access-control-expose-headers')).toHaveLength(1);
    expect(valuesOf(answer.rawHeaders, 'vary').join(', ')).toMatch(/\bOrigin\b/);
    // A lower bound only: a busy machine makes answers later, never earlier.
    expect(answer.headMs).toBeGreaterThanOrEqual(DELAY_MS - 5);
    expect(stub.requests()).toMatchObject([{ path, status, proxy: 'forwarded', delayMs: DELAY_MS }]);
  });

  it('a client that leaves during the wait is journaled as abandoned, the answer never sent', async () => {
    await new Promise<void>((resolve, reject) => {
      const sent = get(`${stub.url}/plants/1`, { headers: AUTH_HEADERS }, () => reject(new Error('the answer came before the client left')));
      sent.on('error', () => resolve());
      setTimeout(() => sent.destroy(), DELAY_MS / 2);
    });
    const entries = await pollUntil(async () => stub.requests(), (found) => found.length === 1, 5_000);
    expect(entries).toMatchObject([{ path: '/plants/1', proxy: 'forwarded', abandoned: true, delayMs: DELAY_MS }]);
  });
});
