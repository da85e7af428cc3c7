// Hostile input over real HTTP: oversized and deeply nested bodies, prototype-pollution keys,
// broken encodings, malformed HTTP on raw sockets, dropped and slow clients, bad start-up
// configuration and the admin token. The server must answer each with a documented 4xx, keep
// serving, and never crash, leak a stack trace or leak a credential.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { runCli } from './helpers/cli.js';
import { post } from './helpers/http.js';
import { AUTH_HEADERS, createPlant, JSON_HEADERS } from './helpers/plant.js';

const SPEC = 'openapi.yaml';
const FIXTURES = 'fixtures';
const TOKEN = AUTH_HEADERS.authorization;
const SMALL_LIMIT = 4096;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `parts` to a fresh socket (one write each) and parses the first HTTP answer once the
 * server closes the connection. A reset after the answer arrived still counts as that answer.
 */
function rawExchange(port: number, parts: Array<string | Buffer>, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(parseAnswer(text));
      } catch (error) {
        reject(error);
      }
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', () => {}); // 'close' follows and decides
    socket.on('connect', () => {
      for (const part of parts) socket.write(part);
    });
  });
}

function parseAnswer(text: string): RawAnswer {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) throw new Error(`not an HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(headEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = Buffer.from(body).subarray(0, Number(headers['content-length'])).toString('utf8');
  return { status, headers, body };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return lines.join('\r\n') + '\r\n\r\n';
}

/** POST /plants with JSON_HEADERS: the status, Content-Type and body text, to compare whole. */
async function postPlants(stub: RunningStub, body: string | Buffer) {
  const res = await createPlant(stub.url, body);
  return { status: res.status, contentType: res.headers.get('content-type'), body: res.text };
}

/** A follow-up request that proves the server still serves. */
async function expectStillServing(stub: RunningStub): Promise<void> {
  const answer = await postPlants(stub, '{"id":7,"name":"still serving"}');
  expect(answer).toEqual({ status: 200, contentType: 'application/json', body: '{"name":"still serving"}' });
}

function nested(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const NO_STACK = /\n\s+at |RangeError|Maximum call stack|TypeError/;

describe('hostile request bodies', () => {
  let stub: RunningStub;
  let small: RunningStub;
  const logLines: string[] = [];

  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: FIXTURES, port: 0, watch: false, log: (line) => logLines.push(line) });
    small = await startStub({ spec: SPEC, fixtures: FIXTURES, port: 0, watch: false, maxBodyBytes: SMALL_LIMIT });
  });
  afterAll(async () => {
    await stub?.close();
    await small?.close();
  });

  const tooLarge = `{"error":413,"message":"the request body is larger than ${SMALL_LIMIT} bytes"}`;
  const oversized = [
    {
      name: 'a declared Content-Length over the limit is refused with 413 before the body is read',
      parts: [head('POST', '/plants', { Authorization: TOKEN, 'Content-Type': 'application/json', 'Content-Length': SMALL_LIMIT + 1 })],
    },
    {
      name: 'a chunked body that grows past the limit is refused with 413',
      parts: [
        head('POST', '/plants', { Authorization: TOKEN, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }),
        `1000\r\n${'x'.repeat(0x1000)}\r\n`,
        `10\r\n${'y'.repeat(0x10)}\r\n`,
        '0\r\n\r\n',
      ],
    },
    {
      name: 'a Content-Length far beyond any buffer size is refused with 413',
      parts: [head('POST', '/plants', { Authorization: TOKEN, 'Content-Type': 'application/json', 'Content-Length': '99999999999' })],
    },
  ];
  it.each(oversized)('$name', async ({ parts }) => {
    const answer = await rawExchange(small.port, parts);
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toBe(tooLarge);
    await expectStillServing(small);
  });

  it('a body exactly at the limit is still read and answered', async () => {
    const name = 'n'.repeat(SMALL_LIMIT - '{"id":1,"name":""}'.length);
    const answer = await postPlants(small, `{"id":1,"name":"${name}"}`);
    expect(answer).toEqual({ status: 200, contentType: 'application/json', body: `{"name":"${name}"}` });
  });

  const deep = [1_000, 10_000, 100_000].flatMap((depth) =>
    (['array', 'object'] as const).map((shape) => ({ depth, shape, name: `a ${depth}-deep ${shape} body is a 400, not a stack overflow` })));
  it.each(deep)('$name', async ({ depth, shape }) => {
    const answer = await postPlants(stub, nested(depth, shape));
    expect(answer).toEqual({ status: 400, contentType: 'application/json', body: '{"error":400,"message":"/: body is nested deeper than 512 levels"}' });
  });

  it('deeply nested bodies are logged and journaled without a stack overflow', async () => {
    stub.reset();
    logLines.length = 0;
    for (const depth of [1_000, 100_000]) await postPlants(stub, nested(depth, 'array'));
    await expectStillServing(stub);
    const res = await fetch(`${stub.url}/__admin/requests`);
    expect(res.status).toBe(200);
    const { requests } = (await res.json()) as { requests: Array<{ status: number; body: unknown; bodyTruncated?: true }> };
    expect(requests.map((r) => r.status)).toEqual([400, 400, 200]);
    // Under the journal's body cap the text comes back whole; over it, truncated and marked.
    expect(requests[0].body).toBe(nested(1_000, 'array'));
    expect(requests[1].bodyTruncated).toBe(true);
    expect(logLines.filter((line) => line.startsWith('POST /plants 400 ') && line.includes('nested deeper than 512 levels'))).toHaveLength(2);
    expect(logLines.join('\n')).not.toMatch(NO_STACK);
  });

  it('a deeply nested body sent to the admin API is a 400 problem, not a crash', async () => {
    const res = await fetch(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: nested(5_000, 'array') });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { status: number }).status).toBe(400);
    await expectStillServing(stub);
  });

  const pollution = [
    { name: 'a __proto__ member next to a valid plant is an ignored extra field', body: '{"id":1,"name":"a","__proto__":{"tag":"polluted"}}', status: 200, expected: '{"name":"a"}' },
    { name: 'a __proto__ member with an int64 id beyond 2^53 is ignored too', body: '{"id":9007199254740993,"name":"a","__proto__":{"tag":"polluted","isAdmin":true}}', status: 200, expected: '{"name":"a"}' },
    { name: 'a body that is only a __proto__ member lacks id and name', body: '{"__proto__": {"isAdmin": true}}', status: 400, expected: '{"error":400,"message":"/name: is required; /id: is required"}' },
    { name: 'a __proto__ member cannot supply the required fields', body: '{"__proto__": {"id": 1, "name": "from the prototype"}}', status: 400, expected: '{"error":400,"message":"/name: is required; /id: is required"}' },
    { name: 'a constructor.prototype member is an ignored extra field', body: '{"id":1,"name":"a","constructor":{"prototype":{"tag":"polluted"}}}', status: 200, expected: '{"name":"a"}' },
    { name: 'a prototype member is an ignored extra field', body: '{"id":1,"name":"a","prototype":{"tag":"polluted"}}', status: 200, expected: '{"name":"a"}' },
    { name: 'a nested __proto__ array member is an ignored extra field', body: '{"id":1,"name":"a","x":[{"__proto__":{"tag":"polluted"}}]}', status: 200, expected: '{"name":"a"}' },
  ];
  it.each(pollution)('$name', async ({ body, status, expected }) => {
    const answer = await postPlants(stub, body);
    expect(answer).toEqual({ status, contentType: 'application/json', body: expected });
  });

  it('after every pollution attempt, later answers and this process carry no injected property', async () => {
    for (const { body } of pollution) await postPlants(stub, body);
    await post(`${stub.url}/plants?__proto__=x&constructor=y&__proto__[tag]=z`, '{"id":1,"name":"a"}', JSON_HEADERS);
    const later = await postPlants(stub, '{"id":2,"name":"b"}');
    expect(later).toEqual({ status: 200, contentType: 'application/json', body: '{"name":"b"}' });
    const probe: Record<string, unknown> = {};
    expect(probe.tag).toBeUndefined();
    expect(probe.isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('tag');
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('isAdmin');
    const journal = (await (await fetch(`${stub.url}/__admin/requests`)).json()) as { requests: Array<{ query: Record<string, unknown>; body: unknown }> };
    const withQuery = journal.requests.find((r) => Object.hasOwn(r.query, '__proto__'));
    expect(withQuery?.query).toEqual(JSON.parse('{"__proto__":"x","constructor":"y","__proto__[tag]":"z"}'));
  });

  it('headers named __proto__ and constructor are served and journaled as plain values', async () => {
    stub.reset();
    const body = '{"id":1,"name":"a"}';
    const answer = await rawExchange(stub.port, [
      head('POST', '/plants', { ['__proto__']: 'evil', constructor: 'c', Authorization: TOKEN, 'Content-Type': 'application/json', 'Content-Length': body.length, Connection: 'close' }),
      body,
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"name":"a"}');
    const text = await (await fetch(`${stub.url}/__admin/requests`)).text();
    const [entry] = (JSON.parse(text) as { requests: Array<{ headers: Record<string, unknown> }> }).requests;
    // node:http itself drops a `__proto__` header; `constructor` must arrive as a plain string.
    expect(Object.hasOwn(entry.headers, '__proto__')).toBe(false);
    expect(entry.headers.constructor).toBe('c');
    expect(entry.headers.authorization).toBe('Bearer [redacted]');
  });

  it('a __proto__ member cannot name a sticky scenario through the admin API', async () => {
    const res = await fetch(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"name":"duplicate-id"}}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'send {"name": "<scenario>"}' });
    await expectStillServing(stub);
  });

  const broken = [
    { name: 'invalid UTF-8 is a 400 naming the encoding', body: Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), expected: '{"error":400,"message":"/: the body is not valid UTF-8"}' },
    { name: 'a truncated UTF-8 sequence is a 400 naming the encoding', body: Buffer.concat([Buffer.from('{"id":1,"name":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]), expected: '{"error":400,"message":"/: the body is not valid UTF-8"}' },
    { name: 'an overlong UTF-8 encoding of "/" is a 400 naming the encoding', body: Buffer.concat([Buffer.from('{"id":1,"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), expected: '{"error":400,"message":"/: the body is not valid UTF-8"}' },
    { name: 'trailing garbage after the JSON value is a 400 with line and column', body: '{"id":1,"name":"a"} garbage', expected: '{"error":400,"message":"/: invalid JSON at line 1, column 21: Unexpected non-whitespace character after JSON"}' },
    { name: 'a second JSON value after the first is a 400 with line and column', body: '{"id":1,"name":"a"}\n{"id":2,"name":"b"}', expected: '{"error":400,"message":"/: invalid JSON at line 2, column 1: Unexpected non-whitespace character after JSON"}' },
    { name: 'an empty body with a JSON content type is a 400: the body is required', body: '', expected: '{"error":400,"message":"/: a request body is required"}' },
    { name: 'a whitespace-only body with a JSON content type is a 400: the body is empty', body: ' \n\t ', expected: '{"error":400,"message":"/: invalid JSON: the body is empty"}' },
    { name: 'a NUL byte body is a 400 with line and column', body: Buffer.from([0]), expected: '{"error":400,"message":"/: invalid JSON at line 1, column 1: Unexpected token \'\\u0000\'"}' },
  ];
  it.each(broken)('$name', async ({ body, expected }) => {
    const answer = await postPlants(stub, body);
    expect(answer).toEqual({ status: 400, contentType: 'application/json', body: expected });
  });
});

describe('malformed HTTP on raw sockets', () => {
  let stub: RunningStub;

  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: FIXTURES, port: 0, watch: false });
  });
  afterAll(async () => {
    await stub?.close();
  });

  const badPercent = ['/plants%zz', '/%E0%A4%A', '/plants%', '/%C0%AF', '/plants/%ff%fe', '/%00'];
  it.each(badPercent)('a path with the bad percent-encoding %s is a 4xx problem, never a 5xx', async (path) => {
    const answer = await rawExchange(stub.port, [head('POST', path, { Authorization: TOKEN, 'Content-Type': 'application/json', 'Content-Length': 2, Connection: 'close' }), '{}']);
    expect([400, 404]).toContain(answer.status);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'about:blank', status: answer.status });
    await expectStillServing(stub);
  });

  const oversizedHeads = [
    { name: 'a 20 KB request URL is a 431', text: head('GET', `/plants?q=${'a'.repeat(20 * 1024)}`, { Connection: 'close' }) },
    { name: 'a 32 KB header value is a 431', text: head('POST', '/plants', { 'X-Big': 'b'.repeat(32 * 1024), Connection: 'close' }) },
    { name: 'a thousand small headers adding up to 40 KB are a 431', text: head('POST', '/plants', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`X-H${i}`, 'v'.repeat(30)]))) },
  ];
  it.each(oversizedHeads)('$name', async ({ text }) => {
    const answer = await rawExchange(stub.port, [text]);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual({ type: 'about:blank', title: 'Request Header Fields Too Large', status: 431, detail: 'the request could not be parsed as HTTP/1.1' });
    await expectStillServing(stub);
  });

  const garbage = [
    { name: 'a request line of words', text: 'HELLO WORLD\r\n\r\n' },
    { name: 'binary noise', text: Buffer.from([0x00, 0x01, 0x02, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]) },
    { name: 'an unknown HTTP version', text: 'GET /plants HTTP/9.9\r\nHost: x\r\n\r\n' },
    { name: 'a header line without a colon', text: 'POST /plants HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n' },
    { name: 'a request line with spaces in the path', text: 'GET /pla nts now HTTP/1.1\r\nHost: x\r\n\r\n' },
    { name: 'both Content-Length and chunked (request smuggling)', text: 'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' },
    { name: 'an invalid chunk size', text: 'POST /plants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n' },
    { name: 'a negative Content-Length', text: 'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n' },
  ];
  it.each(garbage)('$name is a 400 and the server keeps serving', async ({ text }) => {
    const answer = await rawExchange(stub.port, [text]);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'the request could not be parsed as HTTP/1.1' });
    await expectStillServing(stub);
  });

  it('clients that hang up mid-body leave no journal entry and the server keeps serving', async () => {
    stub.reset();
    await Promise.all(Array.from({ length: 20 }, () => new Promise<void>((resolve) => {
      const socket = net.connect(stub.port, '127.0.0.1', () => {
        socket.write(head('POST', '/plants', { Authorization: TOKEN, 'Content-Type': 'application/json', 'Content-Length': 1000 }));
        socket.write('{"id":1,"n');
        setTimeout(() => socket.destroy(), 20);
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve());
    })));
    await expectStillServing(stub);
    expect(stub.requests().map((entry) => entry.status)).toEqual([200]);
  });

  it('slow clients trickling their headers do not delay other clients', async () => {
    const sockets: net.Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const socket = net.connect(stub.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.write('POST /plants HTTP/1.1\r\nHost: x\r\n');
        let n = 0;
        timers.push(setInterval(() => socket.write(`X-Slow-${n++}: ${'z'.repeat(10)}\r\n`), 50));
        sockets.push(socket);
      }
      await new Promise((r) => setTimeout(r, 200));
      const latencies: number[] = [];
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        await expectStillServing(stub);
        latencies.push(performance.now() - started);
      }
      // Generous for a loaded 2-core CI machine; a blocked server would take the headers timeout (10 s).
      expect(Math.max(...latencies)).toBeLessThan(1_000);
      // The trickling sockets are still open: the server neither served nor dropped them early.
      expect(sockets.every((socket) => !socket.destroyed && socket.readyState === 'open')).toBe(true);
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('bad configuration stops the CLI with one line on stderr', () => {
  let dir: string;
  let blocker: net.Server;
  let busyPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-hostile-'));
    await writeFile(join(dir, 'bad.yaml'), 'openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths:\n  /a:\n    get: [unclosed\n');
    const spec = await readFile(SPEC, 'utf8');
    await writeFile(join(dir, 'missing-ref.yaml'), spec.replace("'#/components/schemas/NewPlant'", "'#/components/schemas/Missing'"));
    await writeFile(join(dir, 'missing-file-ref.yaml'), spec.replace("'#/components/schemas/NewPlant'", "'./nowhere.yaml#/NewPlant'"));
    await mkdir(join(dir, 'bad-fixtures'));
    await writeFile(join(dir, 'bad-fixtures', 'teapot.yaml'), 'operation: POST /plants\nscenarios:\n  teapot:\n    status: 418\n    body: {}\n');
    await mkdir(join(dir, 'bad-fixture-body'));
    await writeFile(join(dir, 'bad-fixture-body', 'x.yaml'), 'operation: POST /plants\nscenarios:\n  nameless:\n    status: 200\n    body: {tag: 1}\n');
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    busyPort = (blocker.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; args: () => string[]; problem: RegExp; env?: Record<string, string> }> = [
    { name: 'a STUB_TOKENS list that holds no token', args: () => [], env: { STUB_TOKENS: ' , ' }, problem: /^plant-store-stub: STUB_TOKENS: holds no token; give comma-separated tokens or unset it$/ },
    { name: 'an empty STUB_TOKENS, refused like one that holds only commas', args: () => [], env: { STUB_TOKENS: '' }, problem: /^plant-store-stub: STUB_TOKENS: holds no token; give comma-separated tokens or unset it$/ },
    { name: 'a --coverage-out into a folder that does not exist, found at start', args: () => ['--coverage-out', join(dir, 'no-such-folder', 'coverage.json')], problem: /^plant-store-stub: --coverage-out: the folder \/.*no-such-folder does not exist; create it or write the report elsewhere$/ },
    { name: 'zero workers', args: () => ['--workers', '0'], problem: /^plant-store-stub: --workers: must be from 1 to 64, got 0$/ },
    { name: 'with --workers, a --coverage-out into a folder that does not exist, found once before any worker starts', args: () => ['--workers', '2', '--port', '0', '--coverage-out', join(dir, 'no-such-folder', 'coverage.json')], problem: /^plant-store-stub: --coverage-out: the folder \/.*no-such-folder does not exist; create it or write the report elsewhere$/ },
    { name: 'a port already in use', args: () => ['--port', String(busyPort)], problem: /^plant-store-stub: port \d+: already in use on 127\.0\.0\.1; pick another with --port$/ },
    { name: 'a spec that does not exist', args: () => ['--spec', join(dir, 'nope.yaml')], problem: /^plant-store-stub: .*nope\.yaml: no such file \(looked for \/.*nope\.yaml\)$/ },
    { name: 'a spec path that is a folder', args: () => ['--spec', dir], problem: /^plant-store-stub: .*: a folder, not a document; the documents in it: .*bad\.yaml.*$/ },
    { name: 'a spec that is not valid YAML', args: () => ['--spec', join(dir, 'bad.yaml')], problem: /^plant-store-stub: .*bad\.yaml: invalid YAML at line \d+, column \d+: \S.*$/ },
    { name: 'a $ref to a schema the spec lacks', args: () => ['--spec', join(dir, 'missing-ref.yaml')], problem: /^plant-store-stub: .*missing-ref\.yaml: \/paths\/~1plants\/post\/.*\$ref: unresolvable \$ref "#\/components\/schemas\/Missing".*$/ },
    { name: 'a $ref to a file that does not exist', args: () => ['--spec', join(dir, 'missing-file-ref.yaml')], problem: /^plant-store-stub: .*missing-file-ref\.yaml: unresolvable \$ref: .*nowhere\.yaml.*$/ },
    { name: 'a fixture with an undocumented status', args: () => ['--fixtures', join(dir, 'bad-fixtures')], problem: /^plant-store-stub: .*teapot\.yaml: \/scenarios\/teapot\/status: 418 is not documented for POST \/plants \(documented: 200, 400\)$/ },
    { name: 'a fixture whose body breaks the response schema', args: () => ['--fixtures', join(dir, 'bad-fixture-body')], problem: /^plant-store-stub: .*x\.yaml: \/scenarios\/nameless\/body.*$/ },
    { name: 'an unknown flag', args: () => ['--bogus'], problem: /^plant-store-stub: Unknown option '--bogus' \(see --help\)$/ },
    { name: 'a port that is not a number', args: () => ['--port', 'eighty'], problem: /^plant-store-stub: --port: must be a whole number, got "eighty"$/ },
    { name: 'a body limit of 0 names the --max-body flag', args: () => ['--max-body', '0'], problem: /^plant-store-stub: --max-body: must be a whole number from 1 to 1073741824, got 0$/ },
    { name: 'a delay above 60 s names the --delay flag', args: () => ['--delay', '60001'], problem: /^plant-store-stub: --delay: must be a whole number from 0 to 60000, got 60001$/ },
    { name: 'an empty token names the --token flag', args: () => ['--token', ''], problem: /^plant-store-stub: --token: each token must be a non-empty string without spaces$/ },
    { name: 'a negative seed says how to pass a value starting with a dash', args: () => ['--seed', '-1'], problem: /^plant-store-stub: Option '--seed' argument is ambiguous\. .*'--seed=-XYZ'\. \(see --help\)$/ },
    { name: 'a non-loopback host without an admin token', args: () => ['--host', '0.0.0.0'], problem: /^plant-store-stub: --host: binding to 0\.0\.0\.0 exposes \/__admin to the network; set an admin token \(--admin-token\) to protect it$/ },
  ];
  it.concurrent.each(cases)('$name', async ({ args, problem, env }) => {
    const run = await runCli(['--port', '0', '--no-watch', '--quiet', ...args()], { env });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(problem);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  }, 20_000);
});

describe('the admin token and credentials in logs', () => {
  let stub: RunningStub;
  const logLines: string[] = [];
  const API_SECRET = 'api-credential-0123456789abcdef';

  beforeAll(async () => {
    stub = await startStub({ spec: SPEC, fixtures: FIXTURES, port: 0, watch: false, adminToken: 'secret', log: (line) => logLines.push(line) });
  });
  afterAll(async () => {
    await stub?.close();
  });

  const adminCases: Array<{ name: string; path: string; headers: Record<string, string>; status: number }> = [
    { name: 'the journal without a token is a 401 with a Bearer challenge', path: '/__admin/requests', headers: {}, status: 401 },
    { name: 'the journal with the wrong token is a 401', path: '/__admin/requests', headers: { authorization: 'Bearer not-the-secret' }, status: 401 },
    { name: 'the journal with the token in another scheme is a 401', path: '/__admin/requests', headers: { authorization: 'Basic secret' }, status: 401 },
    { name: 'the journal with a longer token sharing the prefix is a 401', path: '/__admin/requests', headers: { authorization: 'Bearer secret2' }, status: 401 },
    { name: 'coverage without a token is a 401', path: '/__admin/coverage', headers: {}, status: 401 },
    { name: 'the journal with the admin token is a 200', path: '/__admin/requests', headers: { authorization: 'Bearer secret' }, status: 200 },
    { name: 'the bearer scheme of the admin token is case-insensitive', path: '/__admin/requests', headers: { authorization: 'bearer secret' }, status: 200 },
    { name: 'health stays open without a token', path: '/__admin/health', headers: {}, status: 200 },
  ];
  it.each(adminCases)('$name', async ({ path, headers, status }) => {
    const res = await fetch(`${stub.url}${path}`, { headers });
    expect(res.status).toBe(status);
    if (status === 401) {
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="stub-admin"');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'the admin API needs "Authorization: Bearer <admin token>"' });
    } else {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await res.json();
    }
  });

  it('API credentials never appear in log lines or the journal', async () => {
    stub.reset();
    logLines.length = 0;
    const sent = [
      { authorization: `Bearer ${API_SECRET}`, body: '{"id":1,"name":"a"}' },
      { authorization: `Bearer ${API_SECRET}`, body: '{"id":"not an int"}' },
      { authorization: `Basic ${API_SECRET}`, body: '{"id":1,"name":"a"}' },
      { authorization: `Bearer ${API_SECRET}`, body: nested(100_000, 'array') },
    ];
    for (const { authorization, body } of sent) {
      await fetch(`${stub.url}/plants`, { method: 'POST', headers: { authorization, 'content-type': 'application/json', cookie: `session=${API_SECRET}` }, body });
    }
    const res = await fetch(`${stub.url}/__admin/requests`, { headers: { authorization: 'Bearer secret' } });
    const text = await res.text();
    const { requests } = JSON.parse(text) as { requests: Array<{ status: number; headers: Record<string, string> }> };
    expect(requests.map((r) => [r.status, r.headers.authorization, r.headers.cookie])).toEqual([
      [200, 'Bearer [redacted]', '[redacted]'],
      [400, 'Bearer [redacted]', '[redacted]'],
      [401, 'Basic [redacted]', '[redacted]'],
      [400, 'Bearer [redacted]', '[redacted]'],
    ]);
    expect(text).not.toContain(API_SECRET);
    expect(logLines).toHaveLength(4);
    expect(logLines.join('\n')).not.toContain(API_SECRET);
    expect(logLines.join('\n')).not.toContain('secret');
  });
});
