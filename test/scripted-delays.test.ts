// X-Mock-Delay: a client asks for latency per request, within bounds, over real HTTP.
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { createPlant, PROBLEM_TYPE } from './helpers/plant.js';
import { FIXTURES, SPEC, VALID, closeAfterAll, start, unprocessable } from './helpers/plant-store-suite.js';

closeAfterAll();

describe('X-Mock-Delay', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  it('a delayed request does not hold up an undelayed one started at the same time', async () => {
    const t0 = performance.now();
    const timed = (headers: Record<string, string>) => createPlant(stub.url, VALID, headers).then((response) => ({ response, ms: performance.now() - t0 }));
    const order: string[] = [];
    const [slow, fast] = await Promise.all([
      timed({ 'x-mock-delay': '300' }).then((r) => (order.push('slow'), r)),
      timed({}).then((r) => (order.push('fast'), r)),
    ]);
    expect(order).toEqual(['fast', 'slow']);
    expect(slow.response.status).toBe(200);
    expect(fast.response.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(300);
    expect(fast.ms).toBeLessThan(slow.ms);
  });

  it('a scenario with X-Mock-Delay answers the scenario after the delay', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id', 'x-mock-delay': '150' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
    expect(response.headers.get('x-mock-scenario')).toBe('duplicate-id');
  });

  it.each(['abc', '-1', '60001', '1.5', '', '1e3', '0x10', '+5'])('X-Mock-Delay: "%s" is a 422 problem', async (value) => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-delay': value });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual(unprocessable(`X-Mock-Delay must be a whole number of milliseconds from 0 to 60000, got "${value}"`));
  });
});
