// Client text in a log line (path, scenario names, messages) has its control characters escaped,
// so a client cannot forge log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';

describe('the request log', () => {
  let stub: RunningStub;
  const log: string[] = [];
  beforeAll(async () => {
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: (line) => log.push(line) });
  });
  afterAll(() => stub.close());

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
});
