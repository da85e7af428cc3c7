// CORS: the API grants it to any origin; /__admin only to pages served from this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant } from './helpers/plant.js';

describe('CORS', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: () => {} });
  });
  afterAll(() => stub.close());

  it('still grants CORS to any origin on the API itself', async () => {
    const response = await createPlant(stub.url, '{"id":1,"name":"Fern"}', { origin: 'https://app.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it.each([
    ['a page served from this machine may use /__admin from the browser', 'http://localhost:5173', 'http://localhost:5173'],
    ['a page from elsewhere gets no CORS grant on /__admin', 'https://attacker.example', null],
  ])('%s', async (_name, origin, allowed) => {
    const response = await request(`${stub.url}/__admin/requests`, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
  });
});
