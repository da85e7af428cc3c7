// The plant store's edges a client can reach: blank or quoted steering headers are 422s, client
// text is escaped in the log, a delayed answer whose client left is journaled, the API grants CORS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant, JSON_HEADERS, PROBLEM_TYPE } from './helpers/plant.js';

describe('the plant store: steering mistakes, log escaping, abandoned answers and CORS', () => {
  let stub: RunningStub;
  const log: string[] = [];
  beforeAll(async () => {
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: (line) => log.push(line) });
  });
  afterAll(() => stub.close());

  it.each([
    ['a blank X-Mock-Scenario is a 422, not a silent default', { 'x-mock-scenario': '  ' }, 422, PROBLEM_TYPE, { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'X-Mock-Scenario is empty; name a scenario (GET /__admin/scenarios lists them)' }],
    ['a quoted Prefer value keeps its comma', { prefer: 'example="a,b"' }, 422, PROBLEM_TYPE, expect.objectContaining({ detail: expect.stringMatching(/^unknown example "a,b" for POST \/plants/) })],
    ['a 12 KB Prefer without `=` (near the header limit) holds no preference: the default answer', { prefer: 'x'.repeat(12 * 1024) }, 200, 'application/json', { name: 'Fern' }],
    ['a 12 KB Prefer of separators holds no preference either', { prefer: ', ;'.repeat(4 * 1024) }, 200, 'application/json', { name: 'Fern' }],
    ['a preference without a value beside one with a value: the one with a value counts', { prefer: 'respond-async, code=400' }, 400, 'application/json', { error: 1001, message: 'A plant with this id already exists' }],
    ['a quoted value with an escaped quote keeps it', { prefer: 'example="a\\"b"' }, 422, PROBLEM_TYPE, expect.objectContaining({ detail: expect.stringMatching(/^unknown example "a"b" for POST \/plants/) })],
  ])('%s', async (_name, headers, status, contentType, body) => {
    const response = await createPlant(stub.url, '{"id":1,"name":"Fern"}', headers);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.json).toEqual(body);
  });

  it('escapes control characters of client text in the log', async () => {
    // A tab is the one control character Node lets through in a header value; the unknown scenario
    // name is echoed into the 422's message, which the log line repeats.
    log.length = 0;
    const response = await request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'a\tFAKE' }, body: '{"id":1,"name":"Fern"}' });
    expect(response.status).toBe(422);
    const deadline = Date.now() + 1_000;
    while (!log.some((entry) => entry.startsWith('POST /plants 422')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const line = log.find((entry) => entry.startsWith('POST /plants 422'));
    expect(line).toContain('unknown scenario "a\\x09FAKE"');
    expect(line).not.toContain('\t');
  });

  it.each([
    ['a page served from this machine may use /__admin from the browser', 'http://localhost:5173', 'http://localhost:5173'],
    ['a page from elsewhere gets no CORS grant on /__admin', 'https://attacker.example', null],
  ])('%s', async (_name, origin, allowed) => {
    const response = await request(`${stub.url}/__admin/requests`, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
  });

  it('journals a delayed request whose client gave up, marked abandoned', async () => {
    stub.reset();
    const gaveUp = fetch(`${stub.url}/plants`, {
      method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-delay': '5000' }, body: '{"id":7,"name":"Slow"}', signal: AbortSignal.timeout(150),
    });
    await expect(gaveUp).rejects.toThrow();
    const deadline = Date.now() + 2_000;
    while (stub.requests().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stub.requests().map(({ status, scenario, abandoned, body }) => ({ status, scenario, abandoned, body }))).toEqual([
      { status: 200, scenario: 'echo', abandoned: true, body: { id: 7, name: 'Slow' } },
    ]);
    expect(stub.coverage().operations[0].responses.find((r) => r.status === '200')?.hits).toBe(0);
  });

  it('still grants CORS to any origin on the API itself', async () => {
    const response = await createPlant(stub.url, '{"id":1,"name":"Fern"}', { origin: 'https://app.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

