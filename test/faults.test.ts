// Injected faults: what a client sees when it asks for a broken answer (X-Mock-Fault, or a
// fixture with `fault:`), that nothing is injected unless asked, and that the server keeps
// serving after every fault.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, ConfigError, type RunningStub } from '../src/index.js';
import { createPlant, JSON_HEADERS } from './helpers/plant.js';

const BODY = '{"id":42,"name":"Fern","tag":"fern"}';
const ECHO = '{"name":"Fern","tag":"fern"}';
const FAULTS = ['reset', 'close', 'timeout', 'malformed'] as const;
type Fault = (typeof FAULTS)[number];

const FIXTURE = `operation: POST /plants
scenarios:
${FAULTS.map((fault) => `  fault-${fault}:
    status: 200
    fault: ${fault}
    body: {name: Broken fern, tag: fern}`).join('\n')}
  fault-close-error:
    status: 400
    fault: close
    body: {error: 7, message: the answer is cut short}
`;

let stub: RunningStub;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-faults-'));
  await writeFile(join(dir, 'faults.yaml'), FIXTURE);
  stub = await startStub({ spec: 'openapi.yaml', fixtures: dir, port: 0, watch: false });
});
afterAll(async () => {
  await stub?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * POST /plants with BODY as a bare fetch: the Response comes back before its body is read, so a
 * test can see the declared Content-Length of an answer that is then cut short.
 */
function postRaw(headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: BODY, signal });
}

async function expectCleanEcho(): Promise<void> {
  const res = await postRaw({});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(ECHO)));
  expect(await res.text()).toBe(ECHO);
}

/** What the client observes for each fault, asserted the same way whatever asked for it. */
const observe: Record<Fault, (headers: Record<string, string>) => Promise<void>> = {
  async reset(headers) {
    const error = await postRaw(headers).then(() => null, (e: Error) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error & { cause?: Error }).cause?.message)).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
  },
  async close(headers) {
    const res = await postRaw(headers);
    const declared = Number(res.headers.get('content-length'));
    expect(declared).toBeGreaterThan(0);
    // Either the body read fails (the socket closed early) or it is shorter than declared.
    const received = await res.arrayBuffer().then((b) => b.byteLength, () => -1);
    expect(received).toBeLessThan(declared);
  },
  async timeout(headers) {
    const started = performance.now();
    const error = await postRaw(headers, AbortSignal.timeout(500)).then(() => null, (e: Error) => e);
    expect(error?.name).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  },
  async malformed(headers) {
    const res = await postRaw(headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  },
};

describe('faults injected on request', () => {
  const cases = FAULTS.flatMap((fault): Array<{ fault: Fault; via: string; headers: Record<string, string> }> => [
    { fault, via: `X-Mock-Fault: ${fault}`, headers: { 'x-mock-fault': fault } },
    { fault, via: `X-Mock-Fault: ${fault.toUpperCase()} (names are case-insensitive)`, headers: { 'x-mock-fault': ` ${fault.toUpperCase()} ` } },
    { fault, via: `a fixture with fault: ${fault}`, headers: { 'x-mock-scenario': `fault-${fault}` } },
  ]);
  it.each(cases)('$via gives the client a $fault fault, and the server keeps serving', async ({ fault, headers }) => {
    stub.reset();
    await observe[fault](headers);
    await expectCleanEcho();
    // The faulted request was received and journaled before the clean one.
    expect(stub.requests().map((entry) => entry.path)).toEqual(['/plants', '/plants']);
  });

  it('a fixture fault on an error status cuts that answer short too', async () => {
    const res = await postRaw({ 'x-mock-scenario': 'fault-close-error' });
    expect(res.status).toBe(400);
    const declared = Number(res.headers.get('content-length'));
    expect(await res.arrayBuffer().then((b) => b.byteLength, () => -1)).toBeLessThan(declared);
    await expectCleanEcho();
  });

  it('X-Mock-Fault overrides the fault of a fixture', async () => {
    const res = await postRaw({ 'x-mock-scenario': 'fault-reset', 'x-mock-fault': 'malformed' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(text.startsWith('{"name":"Broken fern"')).toBe(true);
  });

  it('many held timeout faults at once do not stop other requests', async () => {
    const held = Array.from({ length: 20 }, () => postRaw({ 'x-mock-fault': 'timeout' }, AbortSignal.timeout(800)).then(() => 'answered', (e: Error) => e.name));
    await new Promise((r) => setTimeout(r, 100));
    await expectCleanEcho();
    expect(new Set(await Promise.all(held))).toEqual(new Set(['TimeoutError']));
    await expectCleanEcho();
  });
});

describe('no fault unless asked', () => {
  it('without the header every answer is complete, valid JSON with a matching Content-Length', async () => {
    for (let i = 0; i < 20; i++) await expectCleanEcho();
  });

  it('a scenario without fault: is served whole', async () => {
    const running = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false });
    try {
      const res = await createPlant(running.url, BODY, { 'x-mock-scenario': 'duplicate-id' });
      expect(res.status).toBe(400);
      expect(res.text).toBe('{"error":1001,"message":"A plant with this id already exists"}');
    } finally {
      await running.close();
    }
  });

  const invalid = [
    { value: 'explode', shown: 'explode' },
    { value: 'reset,close', shown: 'reset,close' },
    { value: 'resets', shown: 'resets' },
    { value: '', shown: '' },
  ];
  it.each(invalid)('X-Mock-Fault: "$value" is a 422 problem naming the known faults', async ({ value, shown }) => {
    const res = await postRaw({ 'x-mock-fault': value });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: `X-Mock-Fault must be one of reset, close, timeout, malformed, got "${shown}"`,
    });
    await expectCleanEcho();
  });

  it('a fixture with an unknown fault stops the start with the file and pointer named', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'stub-bad-fault-'));
    try {
      await writeFile(join(bad, 'x.yaml'), 'operation: POST /plants\nscenarios:\n  boom:\n    status: 200\n    fault: explode\n    body: {name: x}\n');
      const started = startStub({ spec: 'openapi.yaml', fixtures: bad, port: 0, watch: false });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(/x\.yaml: \/scenarios\/boom\/fault: must be one of reset, close, timeout, malformed$/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
