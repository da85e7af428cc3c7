// The whole contract of `POST /plants`, as a table of requests and the exact answers the stub owes
// them, over real HTTP, served by startStub and by createStubApp mounted in Express, and in-process
// through the engine by createFetchHandler (h3's describeMatrix: one table, every way in). Then
// the CLI's start-up failures, by spawning `node dist/cli.js`.
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createStubApp, startStub, type RunningStub, type StubOptions } from '../src/index.js';
import { createFetchHandler, type FetchHandler } from '../src/fetch.js';
import { runCli, type CliRun } from './helpers/cli.js';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS, JSON_TYPE, PROBLEM_TYPE } from './helpers/plant.js';

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'openapi.yaml');
const FIXTURES = join(ROOT, 'fixtures');

/** A stack frame as V8 prints it: "at fn (/path/file.js:1:2)", "at /path/file.js:1:2", "at node:internal/x:1:2". */
const STACK_FRAME = /\bat (?:[^\s()]+ \()?[^\s()]+:\d+:\d+\)?/;

type StubName = 'main' | 'tokens' | 'small';

interface Case {
  /** What the stub does, as a sentence. */
  name: string;
  stub?: StubName;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  status: number;
  /** Response headers that must equal (string) or match (RegExp). */
  headersOut?: Record<string, string | RegExp>;
  /** The exact response body text. */
  text?: string;
  /** Checks on the parsed body when the exact text is not fixed (problem+json). */
  json?: Record<string, unknown>;
}

const VALID = '{"id":1,"name":"Ficus"}';
const INT64 = 'must be an int64 (from -9223372036854775808 to 9223372036854775807)';

const error = (status: number, message: string) => JSON.stringify({ error: status, message });
const unauthorized = (message: string): Pick<Case, 'status' | 'headersOut' | 'text'> => ({
  status: 401,
  headersOut: { 'content-type': JSON_TYPE, 'www-authenticate': 'Bearer' },
  text: error(401, message),
});
const badRequest = (message: string): Pick<Case, 'status' | 'headersOut' | 'text'> => ({
  status: 400,
  headersOut: { 'content-type': JSON_TYPE },
  text: error(400, message),
});
const unsupported = (message: string): Pick<Case, 'status' | 'headersOut' | 'text'> => ({
  status: 415,
  headersOut: { 'content-type': JSON_TYPE },
  text: error(415, message),
});
const echoed = (text: string): Pick<Case, 'status' | 'headersOut' | 'text'> => ({
  status: 200,
  headersOut: { 'content-type': JSON_TYPE, 'x-mock-scenario': 'echo' },
  text,
});

const AUTHENTICATION: Case[] = [
  { name: 'a request without an Authorization header is 401 with a Bearer challenge', headers: { 'content-type': JSON_TYPE }, body: VALID,
    ...unauthorized('the Authorization header is missing; send "Authorization: Bearer <credentials>"') },
  { name: 'Basic credentials are 401: the API takes bearer tokens', headers: { 'content-type': JSON_TYPE, authorization: 'Basic dTpw' }, body: VALID,
    ...unauthorized('the Authorization header must use the Bearer scheme') },
  { name: 'a Bearer header with an empty token is 401', headers: { 'content-type': JSON_TYPE, authorization: 'Bearer ' }, body: VALID,
    ...unauthorized('the Bearer credentials are empty') },
  { name: 'a Bearer header of only spaces after the scheme is 401', headers: { 'content-type': JSON_TYPE, authorization: 'Bearer    ' }, body: VALID,
    ...unauthorized('the Bearer credentials are empty') },
  { name: 'the scheme name is case-insensitive: "bearer" is accepted', headers: { 'content-type': JSON_TYPE, authorization: 'bearer abc' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
  { name: 'the scheme name is case-insensitive: "BEARER" is accepted', headers: { 'content-type': JSON_TYPE, authorization: 'BEARER abc' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
  { name: 'without a token list any non-empty token is accepted', headers: { 'content-type': JSON_TYPE, authorization: 'Bearer anything-at-all' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
  { name: 'with a token list, a token outside it is 401', stub: 'tokens', headers: { 'content-type': JSON_TYPE, authorization: 'Bearer t2' }, body: VALID,
    ...unauthorized('the Bearer token is not accepted') },
  { name: 'with a token list, a token in it is accepted', stub: 'tokens', headers: { 'content-type': JSON_TYPE, authorization: 'Bearer t1' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
  { name: 'authentication comes before validation: no auth and a bad body is 401, not 400', headers: { 'content-type': JSON_TYPE }, body: '{"id":"x"',
    ...unauthorized('the Authorization header is missing; send "Authorization: Bearer <credentials>"') },
  { name: 'authentication comes before validation: a wrong token and a bad body is 401', stub: 'tokens', headers: { 'content-type': 'text/plain', authorization: 'Bearer nope' }, body: 'x',
    ...unauthorized('the Bearer token is not accepted') },
];

const BODY_FAILURES: Case[] = [
  { name: 'an empty object names both missing fields', headers: JSON_HEADERS, body: '{}', ...badRequest('/name: is required; /id: is required') },
  { name: 'a missing id is named', headers: JSON_HEADERS, body: '{"name":"Ficus"}', ...badRequest('/id: is required') },
  { name: 'a missing name is named', headers: JSON_HEADERS, body: '{"id":1}', ...badRequest('/name: is required') },
  { name: 'a null name must be a string', headers: JSON_HEADERS, body: '{"id":1,"name":null}', ...badRequest('/name: must be a string') },
  { name: 'a numeric name must be a string', headers: JSON_HEADERS, body: '{"id":1,"name":7}', ...badRequest('/name: must be a string') },
  { name: 'a string id "1" must be an integer (no coercion)', headers: JSON_HEADERS, body: '{"id":"1","name":"Ficus"}', ...badRequest('/id: must be an integer') },
  { name: 'a fractional id 1.5 must be an integer', headers: JSON_HEADERS, body: '{"id":1.5,"name":"Ficus"}', ...badRequest('/id: must be an integer') },
  { name: 'a boolean id must be an integer', headers: JSON_HEADERS, body: '{"id":true,"name":"Ficus"}', ...badRequest('/id: must be an integer') },
  { name: 'a null tag must be a string', headers: JSON_HEADERS, body: '{"id":1,"name":"Ficus","tag":null}', ...badRequest('/tag: must be a string') },
  { name: 'every violation is reported at once', headers: JSON_HEADERS, body: '{"id":"1","name":null,"tag":3}',
    ...badRequest('/name: must be a string; /tag: must be a string; /id: must be an integer') },
  { name: 'an array body must be an object', headers: JSON_HEADERS, body: '[]', ...badRequest('/: must be an object') },
  { name: 'a null body must be an object', headers: JSON_HEADERS, body: 'null', ...badRequest('/: must be an object') },
  { name: 'a string body must be an object', headers: JSON_HEADERS, body: '"Ficus"', ...badRequest('/: must be an object') },
  { name: 'an empty body is refused: the body is required', headers: JSON_HEADERS, body: '', ...badRequest('/: a request body is required') },
  { name: 'a body of only whitespace is invalid JSON', headers: JSON_HEADERS, body: '  \n ', ...badRequest('/: invalid JSON: the body is empty') },
  { name: 'malformed JSON names the line and column of the problem', headers: JSON_HEADERS, body: '{\n  "id": 1,\n  "name": }',
    ...badRequest("/: invalid JSON at line 3, column 11: Unexpected token '}'") },
  { name: 'malformed JSON does not quote the body back in the message', headers: JSON_HEADERS, body: '{"id":NaN,"name":"Ficus"}',
    ...badRequest("/: invalid JSON at line 1, column 7: Unexpected token 'N'") },
  { name: 'truncated JSON names where it ends', headers: JSON_HEADERS, body: '{"id":1,"name":"Fi',
    ...badRequest('/: invalid JSON at line 1, column 19: Unterminated string') },
  { name: 'bytes that are not UTF-8 are refused', headers: JSON_HEADERS,
    body: Buffer.concat([Buffer.from('{"id":1,"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    ...badRequest('/: the body is not valid UTF-8') },
  { name: 'a text/plain body is refused with 415, naming the accepted type', headers: { ...AUTH_HEADERS, 'content-type': 'text/plain' }, body: VALID,
    ...unsupported('/: the content type "text/plain" is not accepted; send application/json') },
  { name: 'a body without a content type is refused with 415', headers: AUTH_HEADERS, body: Buffer.from(VALID),
    ...unsupported('/: the content type is missing; send application/json') },
  { name: 'a latin1 charset is refused: JSON bodies are UTF-8', headers: { ...AUTH_HEADERS, 'content-type': 'application/json; charset=latin1' }, body: VALID,
    ...badRequest('/: charset "latin1" is not supported; JSON bodies must be UTF-8') },
  { name: 'application/json; charset=utf-8 is accepted', headers: { ...AUTH_HEADERS, 'content-type': 'application/json; charset=utf-8' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
  { name: 'the media type is case-insensitive', headers: { ...AUTH_HEADERS, 'content-type': 'Application/JSON' }, body: VALID,
    ...echoed('{"name":"Ficus"}') },
];

const INT64_BOUNDARIES: Case[] = [
  { name: 'the largest int64 9223372036854775807 is a valid id', headers: JSON_HEADERS, body: '{"id":9223372036854775807,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'the smallest int64 -9223372036854775808 is a valid id', headers: JSON_HEADERS, body: '{"id":-9223372036854775808,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'one above int64, 9223372036854775808, is refused (not rounded into range)', headers: JSON_HEADERS,
    body: '{"id":9223372036854775808,"name":"Ficus"}', ...badRequest(`/id: ${INT64}`) },
  { name: 'one below int64, -9223372036854775809, is refused', headers: JSON_HEADERS,
    body: '{"id":-9223372036854775809,"name":"Ficus"}', ...badRequest(`/id: ${INT64}`) },
  { name: 'an id of 1e400 is refused as out of range', headers: JSON_HEADERS, body: '{"id":1e400,"name":"Ficus"}', ...badRequest(`/id: ${INT64}`) },
  { name: 'an id of 9.3e18 is refused as out of range', headers: JSON_HEADERS, body: '{"id":9.3e18,"name":"Ficus"}', ...badRequest(`/id: ${INT64}`) },
  { name: 'an id of 1.0 is an integer', headers: JSON_HEADERS, body: '{"id":1.0,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'an id of 1e2 is an integer', headers: JSON_HEADERS, body: '{"id":1e2,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'an id of 0 is valid', headers: JSON_HEADERS, body: '{"id":0,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'an id of -0 is the integer 0', headers: JSON_HEADERS, body: '{"id":-0,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'an id of 0e0 is the integer 0', headers: JSON_HEADERS, body: '{"id":0e0,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'the largest int64 written 9223372036854775807.0 is valid', headers: JSON_HEADERS, body: '{"id":9223372036854775807.0,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'the largest int64 written 92233720368547758070e-1 is valid', headers: JSON_HEADERS, body: '{"id":92233720368547758070e-1,"name":"Ficus"}', ...echoed('{"name":"Ficus"}') },
  { name: 'an id of 1e-400 is a fraction, not 0 (no rounding on the way)', headers: JSON_HEADERS, body: '{"id":1e-400,"name":"Ficus"}', ...badRequest('/id: must be an integer') },
  { name: 'an id of 0.99999999999999999999 is a fraction, not 1', headers: JSON_HEADERS, body: '{"id":0.99999999999999999999,"name":"Ficus"}', ...badRequest('/id: must be an integer') },
  { name: 'an id of 1.00000000000000000001 is a fraction, not 1', headers: JSON_HEADERS, body: '{"id":1.00000000000000000001,"name":"Ficus"}', ...badRequest('/id: must be an integer') },
];

const ECHO: Case[] = [
  { name: 'the echo leaves tag out when it was not sent, and never returns the id', headers: JSON_HEADERS, body: '{"id":42,"name":"Monstera"}',
    ...echoed('{"name":"Monstera"}') },
  { name: 'the echo returns name and tag', headers: JSON_HEADERS, body: '{"id":42,"name":"Monstera","tag":"aroid"}',
    ...echoed('{"name":"Monstera","tag":"aroid"}') },
  { name: 'fields the Plant schema does not name are dropped from the echo', headers: JSON_HEADERS,
    body: '{"id":42,"name":"Monstera","colour":"green","nested":{"a":1},"tag":"aroid"}', ...echoed('{"name":"Monstera","tag":"aroid"}') },
  { name: 'unicode names round-trip exactly', headers: JSON_HEADERS, body: '{"id":1,"name":"Ficus 🌿 élastica 日本語 \\u00e9 \\ud83c\\udf35","tag":"ü"}',
    ...echoed(JSON.stringify({ name: 'Ficus 🌿 élastica 日本語 é 🌵', tag: 'ü' })) },
  { name: 'an empty name is a string and is echoed', headers: JSON_HEADERS, body: '{"id":1,"name":""}', ...echoed('{"name":""}') },
];

const BIG_BODY = JSON.stringify({ id: 1, name: 'x'.repeat(2000) });

const LIMITS_AND_ROUTING: Case[] = [
  { name: 'a body over maxBodyBytes is 413 in the API error shape', stub: 'small', headers: JSON_HEADERS, body: BIG_BODY,
    status: 413, headersOut: { 'content-type': JSON_TYPE }, text: error(413, 'the request body is larger than 1024 bytes') },
  { name: 'a body just under maxBodyBytes is served', stub: 'small', headers: JSON_HEADERS, body: JSON.stringify({ id: 1, name: 'x'.repeat(1000) }),
    ...echoed(JSON.stringify({ name: 'x'.repeat(1000) })) },
  { name: 'an unknown path is a 404 problem', method: 'GET', path: '/nope', headers: AUTH_HEADERS,
    status: 404, headersOut: { 'content-type': PROBLEM_TYPE }, json: { status: 404, title: 'Not Found', detail: 'no operation of the spec matches GET /nope' } },
  { name: 'POST to an unknown path is a 404 problem too', path: '/plants/1', headers: JSON_HEADERS, body: VALID,
    status: 404, headersOut: { 'content-type': PROBLEM_TYPE }, json: { status: 404, title: 'Not Found' } },
  { name: 'GET /plants is 405 naming POST in Allow', method: 'GET', path: '/plants', headers: AUTH_HEADERS,
    status: 405, headersOut: { 'content-type': PROBLEM_TYPE, allow: 'POST' },
    json: { status: 405, title: 'Method Not Allowed', detail: 'GET is not allowed on /plants; allowed: POST' } },
  { name: 'DELETE /plants is 405 naming POST in Allow', method: 'DELETE', path: '/plants',
    status: 405, headersOut: { 'content-type': PROBLEM_TYPE, allow: 'POST' }, json: { status: 405, title: 'Method Not Allowed' } },
  { name: 'the health endpoint answers without a bearer token', method: 'GET', path: '/__admin/health',
    status: 200, headersOut: { 'content-type': /^application\/json/ }, json: { status: 'ok', spec: 'OpenAPI Plant Store', operations: 1 } },
];

const PREFLIGHT_HEADERS = ['authorization', 'content-type', 'x-mock-scenario', 'x-mock-delay', 'prefer'];

const CORS: Case[] = [
  { name: 'a CORS preflight is 204 allowing POST and every header a client sends', method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': PREFLIGHT_HEADERS.join(',') },
    status: 204, text: '',
    headersOut: { 'access-control-allow-origin': 'http://localhost:5173', 'access-control-allow-methods': /\bPOST\b/, 'access-control-max-age': /^\d+$/ } },
  { name: 'a POST from a browser origin gets the origin reflected', headers: { ...JSON_HEADERS, origin: 'http://localhost:5173' }, body: VALID,
    ...echoed('{"name":"Ficus"}'), headersOut: { 'access-control-allow-origin': 'http://localhost:5173', 'x-mock-scenario': 'echo', 'access-control-expose-headers': /X-Mock-Scenario/i } },
  { name: 'a 401 to a browser origin still carries CORS headers, so the page can read it', headers: { 'content-type': JSON_TYPE, origin: 'https://app.example' }, body: VALID,
    ...unauthorized('the Authorization header is missing; send "Authorization: Bearer <credentials>"'),
    headersOut: { 'access-control-allow-origin': 'https://app.example', 'www-authenticate': 'Bearer' } },
];

const TABLE: Array<[string, Case[]]> = [
  ['authentication', AUTHENTICATION],
  ['body validation', BODY_FAILURES],
  ['int64 boundaries', INT64_BOUNDARIES],
  ['echo', ECHO],
  ['limits, routing and admin', LIMITS_AND_ROUTING],
  ['CORS', CORS],
];

const stubs = {} as Record<StubName, RunningStub>;
/** The same stubs in-process: a Request in, a Response out, no socket. */
const inProcess = {} as Record<StubName, FetchHandler>;
/** The same stubs built with createStubApp and listening through Express, for the same table. */
const mounted = {} as Record<StubName, { url: string; server: Server }>;
/** Every body the stub sent, for the no-stack-trace check at the end. */
const seenBodies: Array<{ name: string; text: string }> = [];

beforeAll(async () => {
  const base = { spec: SPEC, fixtures: FIXTURES, port: 0, watch: false };
  [stubs.main, stubs.tokens, stubs.small] = await Promise.all([
    startStub(base),
    startStub({ ...base, tokens: ['t1'] }),
    startStub({ ...base, maxBodyBytes: 1024 }),
  ]);
  [mounted.main, mounted.tokens, mounted.small] = await Promise.all([
    listenApp(base),
    listenApp({ ...base, tokens: ['t1'] }),
    listenApp({ ...base, maxBodyBytes: 1024 }),
  ]);
  const document = readFileSync(SPEC, 'utf8');
  const fixtures = [readFileSync(join(FIXTURES, 'create-plant.yaml'), 'utf8')];
  const quiet = { log: () => {} };
  [inProcess.main, inProcess.tokens, inProcess.small] = await Promise.all([
    createFetchHandler({ document, fixtures, ...quiet }),
    createFetchHandler({ document, fixtures, tokens: ['t1'], ...quiet }),
    createFetchHandler({ document, fixtures, maxBodyBytes: 1024, ...quiet }),
  ]);
});

afterAll(async () => {
  await Promise.all(Object.values(stubs).map((stub) => stub?.close()));
  await Promise.all(Object.values(mounted).map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

async function listenApp(options: StubOptions): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(await createStubApp(options));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Sends a case over HTTP to a listening server. */
const overHttp = (url: (name: StubName) => string) => (c: Case) =>
  request(`${url(c.stub ?? 'main')}${c.path ?? '/plants'}`, { method: c.method ?? 'POST', headers: c.headers, body: c.body });

/** Hands a case to a fetch handler in this process, as a standard Request. */
async function inProcessExchange(c: Case): Promise<TestResponse> {
  const method = c.method ?? 'POST';
  const body = c.body === undefined || method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(Buffer.from(c.body));
  const answer = (await inProcess[c.stub ?? 'main'](new Request(`http://127.0.0.1${c.path ?? '/plants'}`, { method, headers: c.headers, body })))!;
  const text = await answer.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: answer.status, headers: answer.headers, text, json };
}

/**
 * What only the servers have: the admin API, and CORS (only a server sees other origins, so the
 * fetch handler sends no Access-Control headers; docs/runtimes.md). Every other case holds
 * in-process as well, to the byte.
 */
const serversOnly = (group: string, c: Case) => group === 'CORS' || (c.path ?? '').startsWith('/__admin');
const inProcessTable = TABLE.map(([group, cases]) => [group, cases.filter((c) => !serversOnly(group, c))] as [string, Case[]]).filter(([, cases]) => cases.length > 0);

describe.each([
  { server: 'startStub', send: overHttp((name) => stubs[name].url), table: TABLE },
  { server: 'createStubApp in Express', send: overHttp((name) => mounted[name].url), table: TABLE },
  { server: 'createFetchHandler, in-process', send: inProcessExchange, table: inProcessTable },
])('POST /plants contract, served by $server', ({ send, table }) => {
  for (const [group, cases] of table) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
        const response = await send(c);
        seenBodies.push({ name: c.name, text: response.text });
        expectResponse(response, c);
      });
    });
  }
});

describe('POST /plants contract, beyond the table', () => {
  it('the CORS preflight allows each requested header by name', async () => {
    const response = await request(`${stubs.main.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': PREFLIGHT_HEADERS.join(',') },
    });
    expect(response.status).toBe(204);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    for (const header of PREFLIGHT_HEADERS) expect(allowed).toContain(header);
  });

  it('a chunked body over maxBodyBytes is 413 once the limit is passed', async () => {
    const response = await chunkedPost(`${stubs.small.url}/plants`, Array.from({ length: 8 }, (_, i) => (i === 0 ? '{"id":1,"name":"' : 'x'.repeat(256))));
    seenBodies.push({ name: 'chunked 413', text: response.text });
    expect(response.status).toBe(413);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
    expect(response.text).toBe(error(413, 'the request body is larger than 1024 bytes'));
  });

  it('a chunked body under maxBodyBytes is read whole and served', async () => {
    const response = await chunkedPost(`${stubs.small.url}/plants`, ['{"id":1,', '"name":"Fi', 'cus","tag":"t"}']);
    expect(response.status).toBe(200);
    expect(response.headers['x-mock-scenario']).toBe('echo');
    expect(response.text).toBe('{"name":"Ficus","tag":"t"}');
  });

  it('the server keeps serving after a 413', async () => {
    const response = await request(`${stubs.small.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: VALID });
    expect(response.status).toBe(200);
  });

  it('no response body contains a stack trace', () => {
    const cases = TABLE.reduce((n, [, group]) => n + group.length, 0);
    expect(seenBodies.length).toBeGreaterThanOrEqual(cases);
    for (const { name, text } of seenBodies) {
      expect(text, name).not.toMatch(STACK_FRAME);
      expect(text, name).not.toMatch(/\n\s+at /);
    }
  });
});

function expectResponse(response: TestResponse, c: Case): void {
  expect(response.status).toBe(c.status);
  for (const [name, expected] of Object.entries(c.headersOut ?? {})) {
    const actual = response.headers.get(name);
    if (typeof expected === 'string') expect(actual, `header ${name}`).toBe(expected);
    else expect(actual, `header ${name}`).toMatch(expected);
  }
  if (c.text !== undefined) expect(response.text).toBe(c.text);
  if (c.json !== undefined) {
    expect(response.json).toMatchObject(c.json);
    if (c.headersOut?.['content-type'] === PROBLEM_TYPE) {
      expect(response.json).toEqual(expect.objectContaining({ title: expect.any(String), status: c.status, detail: expect.any(String) }));
    }
  }
}

/** POST with Transfer-Encoding: chunked, one write per chunk; resolves with the answer. */
function chunkedPost(url: string, chunks: string[]): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    let answered = false;
    req.on('response', () => (answered = true));
    // The server hangs up after a 413 while chunks may still be in flight: that is expected.
    req.on('error', (failure) => {
      if (!answered) reject(failure);
    });
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    let i = 0;
    const next = () => {
      if (req.destroyed) return;
      if (i === chunks.length) return void req.end();
      req.write(chunks[i++]);
      setTimeout(next, 5);
    };
    next();
  });
}

// --- The CLI -----------------------------------------------------------------------------------

function expectOneLineFailure(run: CliRun): string {
  expect(run.code).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/^\s{4}at /m);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  return lines[0];
}

describe('the CLI', () => {
  it.each([['--help'], ['-h']])('%s prints the usage, every environment variable included, and exits 0', async (flag) => {
    const run = await runCli([flag]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: plant-store-stub/);
    expect(run.stdout).toContain('--spec FILE');
    for (const variable of ['PORT', 'HOST', 'STUB_TOKENS', 'STUB_ADMIN_TOKEN']) expect(run.stdout).toContain(`env ${variable}`);
    expect(run.stderr).toBe('');
  });

  it.each([['--version'], ['-v']])('%s prints the package version and exits 0', async (flag) => {
    const run = await runCli([flag]);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.stderr).toBe('');
  });

  it('an unknown flag is one line on stderr naming it, and a non-zero exit', async () => {
    const line = expectOneLineFailure(await runCli(['--bogus-flag']));
    expect(line).toContain('--bogus-flag');
  });

  it('a non-numeric port is one line naming the flag and the value', async () => {
    const line = expectOneLineFailure(await runCli(['--port', 'eighty']));
    expect(line).toContain('--port');
    expect(line).toContain('eighty');
  });

  it('a missing spec file is one line naming the file, and a non-zero exit', async () => {
    const missing = join(ROOT, 'no-such-dir', 'missing-spec.yaml');
    const line = expectOneLineFailure(await runCli(['--spec', missing, '--port', '0', '--no-watch', '--quiet']));
    expect(line).toContain('missing-spec.yaml');
  });

  it('a port already in use is one clear line naming the port, and a non-zero exit', async () => {
    const port = stubs.main.port;
    const line = expectOneLineFailure(await runCli(['--spec', SPEC, '--fixtures', FIXTURES, '--port', String(port), '--no-watch', '--quiet']));
    expect(line).toContain(String(port));
    expect(line).toMatch(/in use/);
  });
});
