// stub.reset() and POST /__admin/reset empty the journal and clear the sticky scenario, so a test
// that set one and failed never leaks it into the tests after it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { AUTH_HEADERS } from './helpers/plant.js';

const ROOT = join(import.meta.dirname, '..');
const PLANT = JSON.stringify({ id: 1, name: 'Monstera' });

describe('resetting clears the sticky scenario', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: join(ROOT, 'openapi.yaml'), fixtures: join(ROOT, 'fixtures'), port: 0, watch: false, log: () => {} });
  });
  afterAll(() => stub.close(500));

  const post = () => request(`${stub.url}/plants`, { method: 'POST', headers: { ...AUTH_HEADERS, 'content-type': 'application/json' }, body: PLANT });

  const resets: Array<[string, () => Promise<void>]> = [
    ['stub.reset()', async () => stub.reset()],
    ['POST /__admin/reset', async () => {
      const response = await request(`${stub.url}/__admin/reset`, { method: 'POST' });
      expect(response.status).toBe(204);
    }],
  ];

  it.each(resets)('%s clears the sticky scenario and the journal', async (_name, reset) => {
    stub.useScenario('duplicate-id');
    const sticky = await post();
    expect(sticky.status).toBe(400);
    expect(sticky.headers.get('x-mock-scenario')).toBe('duplicate-id');
    await reset();
    expect(stub.requests()).toEqual([]);
    const after = await post();
    expect(after.status).toBe(200);
    expect(after.headers.get('x-mock-scenario')).toBe('echo');
    const listing = await request(`${stub.url}/__admin/scenarios`);
    expect(listing.json).toMatchObject({ sticky: null });
  });
});
