// --proxy against a real upstream (test/helpers/drifting-upstream.ts, an API
// with deliberate drifts from test/specs/plant-catalog.yaml), all over real HTTP on 127.0.0.1.
import { createHash } from 'node:crypto';
import { get, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createStubApp, startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS } from './helpers/plant.js';
import { MANY_PLANTS, PHOTO_BYTES, photoByte, startDriftingUpstream, type DriftingUpstream } from './helpers/drifting-upstream.js';
import { freePort } from './helpers/ports.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'no-such-fixtures');

let upstream: DriftingUpstream;
let stub: RunningStub;
const lines: string[] = [];
const started: RunningStub[] = [];

async function start(options: Parameters<typeof startStub>[0] = {}): Promise<RunningStub> {
  const running = await startStub({ spec: SPEC, fixtures: NO_FIXTURES, port: 0, watch: false, proxy: upstream.url, ...options });
  started.push(running);
  return running;
}

beforeAll(async () => {
  upstream = await startDriftingUpstream();
  // The default --proxy-timeout (30 s): upstream, stub and client share this process's event loop,
  // and on a busy machine a short limit would cut off answers that are merely late.
  stub = await start({ log: (line) => lines.push(line) });
});
afterAll(async () => {
  await Promise.all(started.map((running) => running.close(500)));
  await upstream.close();
});
beforeEach(() => {
  stub.reset();
  upstream.received.length = 0;
  lines.length = 0;
});

/** One request with node:http, the body as the bytes on the wire (fetch would decode a gzip body). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The headers that differ by nature between two answers (when, which connection) or that the proxy adds. */
function comparable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, via: _via, ...rest } = headers;
  return rest;
}

describe('answers pass through unchanged', () => {
  it.each([
    ['GET /plants/1', '/plants/1', {}],
    ['GET /plants (a gzip answer, asked with Accept-Encoding)', '/plants', { 'accept-encoding': 'gzip' }],
    ['GET /plants/404 (a documented 404 for an unknown id)', '/plants/404', {}],
  ])('%s: status, headers and body bytes are the upstream\'s, with Via added', async (_name, path, headers) => {
    const direct = await rawGet(`${upstream.url}${path}`, { ...AUTH_HEADERS, ...headers });
    const proxied = await rawGet(`${stub.url}${path}`, { ...AUTH_HEADERS, ...headers });
    expect(proxied.status).toBe(direct.status);
    expect(comparable(proxied.headers)).toEqual(comparable(direct.headers));
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(proxied.headers.via).toBe('1.1 plant-store-stub');
    expect(proxied.headers['x-mock-violations']).toBeUndefined();
    expect(stub.requests()).toMatchObject([{ source: 'proxy', proxy: 'forwarded', upstreamStatus: direct.status, violations: [], responseViolations: [] }]);
  });

  it('the gzip answer stays gzip (label and bytes), and is checked decoded', async () => {
    const proxied = await rawGet(`${stub.url}/plants`, { ...AUTH_HEADERS, 'accept-encoding': 'gzip' });
    expect(proxied.headers['content-encoding']).toBe('gzip');
    expect(proxied.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const [entry] = stub.requests();
    expect(entry).toMatchObject({ responseViolations: [] });
    expect(entry.unchecked).toBeUndefined();
  });

  it('the document\'s server base path is replaced by the target\'s: /v2/plants/1 and /plants/1 both reach /v2/plants/1', async () => {
    await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS });
    await request(`${stub.url}/v2/plants/1?x=1`, { headers: AUTH_HEADERS });
    expect(upstream.received.map((r) => r.url)).toEqual(['/v2/plants/1', '/v2/plants/1?x=1']);
  });

  it('a 20 MiB answer streams through byte for byte, and is not held for checking', async () => {
    const hash = createHash('sha256');
    const expected = createHash('sha256');
    let size = 0;
    await new Promise<void>((resolve, reject) => {
      get(`${stub.url}/plants/1/photo`, { headers: AUTH_HEADERS }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-length']).toBe(String(PHOTO_BYTES));
        res.on('data', (chunk: Buffer) => {
          const want = Buffer.alloc(chunk.length);
          for (let i = 0; i < chunk.length; i++) want[i] = photoByte(size + i);
          expected.update(want);
          hash.update(chunk);
          size += chunk.length;
        });
        res.on('end', resolve);
      }).on('error', reject);
    });
    expect(size).toBe(PHOTO_BYTES);
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
    expect(stub.requests()).toMatchObject([{ proxy: 'forwarded', status: 200, responseViolations: [] }]);
  });

  it('a client that leaves in the middle of a streamed answer is journaled as abandoned, and the upstream answer is let go', async () => {
    await new Promise<void>((resolve, reject) => {
      get(`${stub.url}/plants/1/photo`, { headers: AUTH_HEADERS }, (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      }).on('error', reject);
    });
    await expect.poll(() => stub.requests()[0]?.abandoned).toBe(true);
    expect(stub.requests()).toMatchObject([{ path: '/plants/1/photo', status: 200, proxy: 'forwarded' }]);
  });

  it('a JSON answer over the 1 MiB check cap streams through whole and is journaled as not checked whole', async () => {
    const response = await request(`${stub.url}/plants?tag=many`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(MANY_PLANTS);
    const [entry] = stub.requests();
    expect(entry.unchecked).toMatch(/larger than 1048576 bytes/);
  });
});

describe('drift is reported: journal, X-Mock-Violations, log line', () => {
  it.each([
    {
      name: 'an undocumented status (418)', method: 'POST', path: '/plants', body: '{"name":"Teapot"}', status: 418,
      responseViolations: ['status 418 is not documented for POST /plants (documented: 201, 400)'], undeclared: [],
    },
    {
      name: 'a field of the wrong type', method: 'GET', path: '/plants/2', status: 200,
      responseViolations: ['/id: must be an integer'], undeclared: [],
    },
    {
      name: 'a documented header of the wrong type', method: 'GET', path: '/plants?tag=counted', status: 200,
      responseViolations: ['/headers/x-total-count: must be an integer'], undeclared: [],
    },
    {
      name: 'fields the document does not declare (drift, not violations)', method: 'GET', path: '/plants/3', status: 200,
      responseViolations: [], undeclared: ['/color', '/care'],
    },
  ])('$name', async ({ method, path, body, status, responseViolations, undeclared }) => {
    const response = await request(`${stub.url}${path}`, { method, headers: body ? JSON_HEADERS : AUTH_HEADERS, body });
    expect(response.status).toBe(status);
    const [entry] = stub.requests();
    expect(entry).toMatchObject({ source: 'proxy', proxy: 'forwarded', responseViolations, violations: [] });
    expect(entry.undeclared ?? []).toEqual(undeclared);
    const header = response.headers.get('x-mock-violations');
    if (responseViolations.length === 0) expect(header).toBeNull();
    else expect(header).toBe(`1 violation: response ${responseViolations[0]}`);
    // The log line shows the path without its query (a query may carry credentials).
    await expect.poll(() => lines.at(-1)).toContain(`${method} ${path.split('?')[0]} ${status}`);
    expect(lines.at(-1)).toContain('[proxy: forwarded]');
    for (const violation of responseViolations) expect(lines.at(-1)).toContain(`response ${violation}`);
  });

  it('X-Mock-Violations carries the count and the first messages, cut at 1 KiB; the journal has them all', async () => {
    const response = await request(`${stub.url}/plants?tag=wrong`, { headers: AUTH_HEADERS });
    const header = response.headers.get('x-mock-violations')!;
    expect(header.length).toBe(1024);
    expect(header).toMatch(/^60 violations: response \/0\/id: must be an integer; response \/1\/id: must be an integer; .*\.\.\.$/);
    expect(stub.requests()[0].responseViolations).toHaveLength(60);
  });

  it('a page on another origin may read X-Mock-Violations (CORS exposes it)', async () => {
    const response = await request(`${stub.url}/plants/2`, { headers: { ...AUTH_HEADERS, origin: 'http://localhost:5173' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Mock-Scenario, WWW-Authenticate, Allow, X-Mock-Proxy, X-Mock-Violations');
    expect(response.headers.get('x-mock-violations')).toBe('1 violation: response /id: must be an integer');
  });

  it('a request that breaks the document is forwarded and reported on its side', async () => {
    const response = await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Fern","tag":5}' });
    expect(response.status).toBe(201);
    // The upstream echoes the wrong type back, so its answer breaks the document too.
    expect(response.headers.get('x-mock-violations')).toBe('2 violations: request /tag: must be a string; response /tag: must be a string');
    expect(upstream.received).toHaveLength(1);
    expect(stub.requests()).toMatchObject([{ violations: ['/tag: must be a string'], responseViolations: ['/tag: must be a string'] }]);
  });

  it('proxied answers count as exercised in coverage', async () => {
    await request(`${stub.url}/plants/1`, { headers: AUTH_HEADERS });
    const getPlant = stub.coverage().operations.find((op) => op.operation === 'GET /plants/{id}')!;
    expect(getPlant.responses.find((r) => r.status === '200')).toMatchObject({ exercised: true, hits: 1 });
  });

  it('an operation the document lacks is forwarded as it is, and journaled as undocumented', async () => {
    const response = await request(`${stub.url}/v2/status`, { headers: AUTH_HEADERS });
    const unprefixed = await request(`${stub.url}/status`, { headers: AUTH_HEADERS });
    expect([response.status, response.json, unprefixed.status]).toEqual([200, { ok: true }, 200]);
    expect(upstream.received.map((r) => r.url)).toEqual(['/v2/status', '/v2/status']);
    expect(stub.requests()).toMatchObject([{ source: 'proxy', proxy: 'forwarded', status: 200, documented: false }, { proxy: 'forwarded' }]);
  });
});

describe('the mock answers what the upstream lacks', () => {
  it('DELETE /plants/1, which the upstream answers with an undocumented 404, gets the mock\'s 204 marked as a fallback', async () => {
    const response = await request(`${stub.url}/plants/1`, { method: 'DELETE', headers: { ...AUTH_HEADERS, origin: 'http://localhost:5173' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('x-mock-proxy')).toBe('fallback (upstream 404)');
    // A page on another origin may read it too.
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Mock-Proxy');
    expect(stub.requests()).toMatchObject([{ source: 'mock', proxy: 'fallback (upstream 404)', upstreamStatus: 404, status: 204 }]);
  });

  it('a target that refuses the connection: the mock answers, marked so', async () => {
    const closedPort = await freePort();
    const offline = await start({ proxy: `http://127.0.0.1:${closedPort}/v2` });
    const response = await request(`${offline.url}/plants/1`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-proxy')).toBe('fallback (upstream unreachable: ECONNREFUSED)');
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(offline.requests()).toMatchObject([{ source: 'mock', proxy: 'fallback (upstream unreachable: ECONNREFUSED)' }]);
  });

  it.each([
    ['X-Mock-Scenario', { 'x-mock-scenario': 'nope' }, '/plants/1', 422],
    ['Prefer: code=404', { prefer: 'code=404' }, '/plants/1', 404],
    ['Prefer: dynamic=true', { prefer: 'dynamic=true' }, '/plants/1', 200],
    ['Prism\'s ?__code=404', {}, '/plants/1?__code=404', 404],
    ['X-Mock-Delay', { 'x-mock-delay': '0' }, '/plants/1', 200],
  ])('%s is the stub\'s to answer and is never forwarded', async (_name, headers, path, status) => {
    const response = await request(`${stub.url}${path}`, { headers: { ...AUTH_HEADERS, ...headers } });
    expect(response.status).toBe(status);
    expect(upstream.received).toEqual([]);
    expect(stub.requests()[0].proxy).toBeUndefined();
  });

  it('a sticky scenario is answered by the mock and never forwarded', async () => {
    const dir = join(import.meta.dirname, 'specs', 'plant-catalog-fixtures');
    const withFixtures = await start({ fixtures: dir });
    withFixtures.useScenario('fern');
    const response = await request(`${withFixtures.url}/plants/2`, { headers: AUTH_HEADERS });
    expect([response.status, response.headers.get('x-mock-scenario')]).toEqual([200, 'fern']);
    expect(upstream.received).toEqual([]);
  });
});

describe('the stub\'s own answers when the upstream fails', () => {
  it('no answer headers within --proxy-timeout: 504 problem+json saying it came from the stub and naming the target', async () => {
    // The upstream answers this after SLOW_MS (5 s); the limit here is a fifth of that.
    const impatient = await start({ proxyTimeoutMs: 1_000 });
    const response = await request(`${impatient.url}/plants/5/care`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(504);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json).toMatchObject({ status: 504, detail: `plant-store-stub (proxy): no answer from the upstream ${upstream.url}/plants/5/care within 1000 ms (--proxy-timeout)` });
    expect(impatient.requests()).toMatchObject([{ status: 504, source: 'proxy', proxy: 'timeout' }]);
  });

  it('a broken answer: 502 problem+json naming the target', async () => {
    const response = await request(`${stub.url}/plants/99/care`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(502);
    expect(response.json.detail).toMatch(new RegExp(`^plant-store-stub \\(proxy\\): the upstream ${upstream.url}/plants/99/care sent a broken answer`));
    expect(stub.requests()).toMatchObject([{ status: 502, proxy: 'bad gateway' }]);
  });
});

describe('headers across the proxy (RFC 9110 §7.6)', () => {
  it('hop-by-hop headers stay, Host is the target\'s, Via and X-Forwarded-* are added, credentials and API preferences are forwarded', async () => {
    const response = await new Promise<{ status: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
      const req = httpRequest(`${stub.url}/plants`, {
        method: 'POST',
        // A client's own X-Forwarded-Proto and -Host are its claims: the stub sets what it saw.
        headers: { ...JSON_HEADERS, authorization: 'Bearer real-secret', connection: 'keep-alive, x-hop', 'x-hop': 'dropped', 'keep-alive': 'timeout=5', te: 'trailers', prefer: 'return=minimal', 'x-api-trace': 'kept', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'bank.example' },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      });
      req.on('error', reject);
      req.end('{"name":"Fern"}');
    });
    expect(response.status).toBe(201);
    expect(response.headers['preference-applied']).toBe('return=minimal');
    const [sent] = upstream.received;
    const upstreamHost = new URL(upstream.url).host;
    expect(sent.headers).toMatchObject({
      host: upstreamHost, authorization: 'Bearer real-secret', prefer: 'return=minimal', 'x-api-trace': 'kept',
      via: '1.1 plant-store-stub', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http', 'x-forwarded-host': new URL(stub.url).host,
      'content-length': '15',
    });
    expect(sent.headers['x-hop']).toBeUndefined();
    expect(sent.headers['keep-alive']).toBeUndefined();
    expect(sent.headers.te).toBeUndefined();
    expect(sent.body).toBe('{"name":"Fern"}');
  });

  it('credentials are forwarded but never journaled or logged unredacted', async () => {
    await request(`${stub.url}/plants/1?x=1`, { headers: { authorization: 'Bearer real-secret', cookie: 'session=abc' } });
    expect(upstream.received[0].headers.authorization).toBe('Bearer real-secret');
    const text = JSON.stringify(stub.requests());
    expect(text).not.toContain('real-secret');
    expect(text).not.toContain('session=abc');
    expect(stub.requests()[0].headers.authorization).toBe('Bearer [redacted]');
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('real-secret');
  });
});

describe('the drift report (GET /__admin/drift)', () => {
  it('counts, per operation, undocumented statuses, violations with their pointers, undeclared fields, fallbacks, and calls the document lacks', async () => {
    for (const path of ['/plants/2', '/plants/2', '/plants/3', '/plants/1', '/v2/status']) await request(`${stub.url}${path}`, { headers: AUTH_HEADERS });
    await request(`${stub.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Teapot","tag":1}' });
    await request(`${stub.url}/plants/1`, { method: 'DELETE', headers: AUTH_HEADERS });
    const expected = {
      operations: [
        { operation: 'GET /plants/{id}', exchanges: 4, fallbacks: 0, undocumentedStatuses: {}, undeclaredFields: { '/color': 1, '/care': 1 }, violations: { 'response /id: must be an integer': 2 } },
        { operation: 'POST /plants', exchanges: 1, fallbacks: 0, undocumentedStatuses: { 418: 1 }, undeclaredFields: {}, violations: { 'request /tag: must be a string': 1 } },
        { operation: 'DELETE /plants/{id}', exchanges: 1, fallbacks: 1, undocumentedStatuses: {}, undeclaredFields: {}, violations: {} },
      ],
      undocumented: { 'GET /v2/status': 1 },
    };
    const response = await request(`${stub.url}/__admin/drift`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(expected);
    expect(stub.drift()).toEqual(expected);
  });

  it('is emptied with the journal', async () => {
    await request(`${stub.url}/plants/2`, { headers: AUTH_HEADERS });
    await request(`${stub.url}/__admin/requests`, { method: 'DELETE' });
    expect((await request(`${stub.url}/__admin/drift`)).json).toEqual({ operations: [], undocumented: {} });
  });
});

describe('--proxy-errors', () => {
  it('a request that breaks the document is refused in the API\'s own error shape and not forwarded', async () => {
    const strict = await start({ proxyErrors: true });
    const response = await request(`${strict.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: '{"tag":"x"}' });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: 400, message: '/name: is required' });
    expect(upstream.received).toEqual([]);
    expect(strict.requests()).toMatchObject([{ status: 400, proxy: 'refused', violations: ['/name: is required'] }]);
  });
});

describe('createStubApp with proxy, mounted in an Express app', () => {
  it('forwards /api/plants/2 to the upstream and reports its drift in the journal', async () => {
    const stubApp = await createStubApp({ spec: SPEC, fixtures: NO_FIXTURES, watch: false, proxy: upstream.url });
    const app = express();
    app.use('/api', stubApp);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/plants/2`, { headers: AUTH_HEADERS });
      expect([response.status, response.json, response.headers.get('x-mock-violations')]).toEqual([200, { id: '2', name: 'Moss' }, '1 violation: response /id: must be an integer']);
      expect(upstream.received.map((r) => r.url)).toEqual(['/v2/plants/2']);
      expect(stubApp.stub.requests()).toMatchObject([{ source: 'proxy', responseViolations: ['/id: must be an integer'] }]);
    } finally {
      server.close();
      stubApp.stub.close();
    }
  });
});

describe('--proxy is checked at start', () => {
  it.each([
    ['ftp://example.com', 'proxy: must be an http:// or https:// URL, got ftp://example.com'],
    ['http://user:pw@example.com', 'proxy: must not hold credentials; clients send their own, and they are forwarded'],
    ['http://example.com/v2?key=1', 'proxy: must not hold a query or fragment, got http://example.com/v2?key=1'],
  ])('%s is refused', async (proxy, message) => {
    await expect(startStub({ spec: SPEC, port: 0, watch: false, proxy })).rejects.toThrow(message);
  });
});
