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

  it('answers a preflight of the API 204 with its grants, and journals it as the stub\'s own answer', async () => {
    stub.reset();
    const preflight = await request(`${stub.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-client' },
    });
    expect([preflight.status, preflight.text]).toEqual([204, '']);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/, x-client$/);
    expect(stub.requests()).toMatchObject([{ method: 'OPTIONS', path: '/plants', status: 204, scenario: 'preflight' }]);
    const metrics = (await request(`${stub.url}/__admin/metrics`)).text;
    expect(metrics).toContain('stub_requests_total{operation="none",status="204",origin="preflight"} 1');
  });
});
