// A delayed answer whose client gave up is journaled, marked abandoned, and counts for no status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { JSON_HEADERS } from './helpers/plant.js';

describe('a client that gives up on a delayed answer', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: () => {} });
  });
  afterAll(() => stub.close());

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
});
