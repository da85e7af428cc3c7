// Request targets in absolute form (RFC 9112 §3.2.2), which clients behind a proxy setting send,
// are served like origin-form ones, and reach /__admin under the same Host rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { raw } from './helpers/raw-http.js';

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false });
});
afterAll(async () => {
  await stub?.close();
});

const PLANT = '{"id":1,"name":"Fern"}';
const post = (target: string, extra = '') =>
  `POST ${target} HTTP/1.1\r\nHost: stub\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n${extra}Content-Length: ${PLANT.length}\r\nConnection: close\r\n\r\n${PLANT}`;

describe('absolute-form request targets', () => {
  it.each([
    { name: 'POST http://host/plants is the plant echo', request: () => post(`http://127.0.0.1:${stub.port}/plants`), status: 200, header: 'x-mock-scenario: echo', body: '{"name":"Fern"}' },
    { name: 'a query string after the absolute path is ignored for routing', request: () => post('http://stub/plants?page=2'), status: 200, header: 'x-mock-scenario: echo', body: '{"name":"Fern"}' },
    { name: 'a scenario is served through an absolute-form target', request: () => post('http://stub/plants', 'X-Mock-Scenario: duplicate-id\r\n'), status: 400, header: 'x-mock-scenario: duplicate-id', body: '{"error":1001,"message":"A plant with this id already exists"}' },
    { name: 'an absolute-form path the spec lacks is a 404 naming the path only', request: () => post('http://stub/trees'), status: 404, header: 'content-type: application/problem+json', body: '{"type":"about:blank","title":"Not Found","status":404,"detail":"no operation of the spec matches POST /trees"}' },
    { name: 'GET http://localhost/__admin/health reaches the admin API', request: () => 'GET http://localhost/__admin/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', status: 200, header: 'content-type: application/json', body: '{"status":"ok","spec":"OpenAPI Plant Store","operations":1}' },
    { name: 'health answers whatever the Host, so a load balancer can probe it by address', request: () => 'GET /__admin/health HTTP/1.1\r\nHost: 10.0.0.7:4010\r\nConnection: close\r\n\r\n', status: 200, header: 'content-type: application/json', body: '{"status":"ok","spec":"OpenAPI Plant Store","operations":1}' },
    { name: 'without an admin token, /__admin refuses a Host that is not this machine (DNS rebinding)', request: () => 'GET /__admin/requests HTTP/1.1\r\nHost: attacker.example:4010\r\nConnection: close\r\n\r\n', status: 403, header: 'content-type: application/problem+json', body: '{"type":"about:blank","title":"Forbidden","status":403,"detail":"the admin API answers only requests addressed to this machine (Host: localhost or 127.0.0.1)"}' },
  ])('$name', async ({ request, status, header, body }) => {
    const answer = await raw(stub.port, request());
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain(header);
    expect(answer.body).toBe(body);
  });
});

describe('an authority-form target (CONNECT)', () => {
  it('is answered 400 as a problem, never a silent close', async () => {
    const answer = await raw(stub.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, detail: 'CONNECT is not served: this is a stub of an API, not a proxy' });
  });
});

describe('a request with too many header lines', () => {
  it('is answered 431, not served with the lines past the limit silently dropped', async () => {
    const filler = Array.from({ length: 1_200 }, (_, i) => `x${i}: 1\r\n`).join('');
    const body = '{"id":1,"name":"Fern"}';
    // Content-Length comes last: dropped, the body would look missing (a 400 "body required").
    const answer = await raw(stub.port, `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n${filler}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, detail: 'a request may carry fewer than 1000 header lines' });
  });
});

describe('absolute-form targets on createStubApp in Express', () => {
  it('take the Host from the target, as the default server does: /__admin refuses a target naming another host', async () => {
    const express = (await import('express')).default;
    const { createStubApp } = await import('../src/index.js');
    const app = express();
    const stubApp = await createStubApp({ spec: 'openapi.yaml', fixtures: 'fixtures', watch: false });
    app.use(stubApp);
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const port = (server.address() as import('node:net').AddressInfo).port;
      const answer = await raw(port, `GET http://attacker.example/__admin/requests HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 403, detail: 'the admin API answers only requests addressed to this machine (Host: localhost or 127.0.0.1)' });
      const plants = await raw(port, post(`http://127.0.0.1:${port}/plants`));
      expect(plants.status).toBe(200);
      expect(plants.body).toBe('{"name":"Fern"}');
    } finally {
      stubApp.stub.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
