// createStubApp: the stub as an Express app that users mount in their own app and extend.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStubApp, type StubApp } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant, JSON_HEADERS } from './helpers/plant.js';

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the stub mounted at /api in a user app with routes of its own', () => {
  let server: Server;
  let url: string;
  let stubApp: StubApp;

  beforeAll(async () => {
    stubApp = await createStubApp({ spec: 'openapi.yaml', fixtures: 'fixtures', watch: false });
    const app = express();
    app.get('/hello', (_req, res) => res.type('text/plain').send('mine'));
    app.use('/api', stubApp);
    ({ server, url } = await listen(app));
  });

  afterAll(() => {
    server.close();
    stubApp.stub.close();
  });

  it.each([
    ['POST /api/plants echoes the plant', 'POST', '/api/plants', JSON_HEADERS, '{"id":1,"name":"Fern","tag":"x"}', 200, 'application/json', { name: 'Fern', tag: 'x' }],
    ['POST /api/plants validates the body', 'POST', '/api/plants', JSON_HEADERS, '{"id":"1"}', 400, 'application/json', { error: 400, message: '/name: is required; /id: must be an integer' }],
    ['POST /api/plants checks the bearer', 'POST', '/api/plants', { 'content-type': 'application/json' }, '{"id":1,"name":"Fern"}', 401, 'application/json', { error: 401, message: 'the Authorization header is missing; send "Authorization: Bearer <credentials>"' }],
    ['a scenario works through the mount', 'POST', '/api/plants', { ...JSON_HEADERS, 'x-mock-scenario': 'duplicate-id' }, '{"id":1,"name":"Fern"}', 400, 'application/json', { error: 1001, message: 'A plant with this id already exists' }],
    ['GET /api/plants is 405 from the stub', 'GET', '/api/plants', {}, undefined, 405, 'application/problem+json', { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'GET is not allowed on /plants; allowed: POST', violations: undefined }],
    ['the admin API is mounted too', 'GET', '/api/__admin/health', {}, undefined, 200, 'application/json; charset=utf-8', { status: 'ok', spec: 'OpenAPI Plant Store', operations: 1 }],
  ])('%s', async (_name, method, path, headers, body, status, contentType, json) => {
    const response = await request(url + path, { method, headers, body });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.json).toEqual(json);
  });

  it('leaves the user app its own routes', async () => {
    const response = await request(`${url}/hello`);
    expect(response.status).toBe(200);
    expect(response.text).toBe('mine');
  });

  it('journals what came through the mount, path relative to the mount point', async () => {
    stubApp.stub.reset();
    await createPlant(`${url}/api`, '{"id":9223372036854775807,"name":"Big"}');
    expect(stubApp.stub.requests().map(({ method, path, status, body }) => ({ method, path, status, body }))).toEqual([
      { method: 'POST', path: '/plants', status: 200, body: expect.anything() },
    ]);
  });
});

describe('the stub mounted after a body parser the user already has', () => {
  it('still validates and echoes the parsed body', async () => {
    const stubApp = await createStubApp({ spec: 'openapi.yaml', fixtures: 'fixtures', watch: false });
    const app = express();
    app.use(express.json());
    app.use(stubApp);
    const { server, url } = await listen(app);
    try {
      const ok = await createPlant(url, '{"id":2,"name":"Ivy","extra":true}');
      expect([ok.status, ok.json]).toEqual([200, { name: 'Ivy' }]);
      const bad = await createPlant(url, '{"id":2.5,"name":"Ivy"}');
      expect([bad.status, bad.json]).toEqual([400, { error: 400, message: '/id: must be an integer' }]);
      // `{}` is a body, not the absence of one: its violations, not "a request body is required".
      const empty = await createPlant(url, '{}');
      expect([empty.status, empty.json]).toEqual([400, { error: 400, message: '/name: is required; /id: is required' }]);
    } finally {
      server.close();
      stubApp.stub.close();
    }
  });
});
