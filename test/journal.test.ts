// The request journal, through the real server: GET /__admin/requests shows what clients sent and
// what they got (a refused request with its refusal's name), oldest first, with exact numbers,
// redacted credentials, filters and a bound.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStub, type JournalEntry, type RunningStub } from '../src/index.js';
import { startCli } from './helpers/cli.js';
import { post, request } from './helpers/http.js';
import { AUTH_HEADERS, createPlant, JSON_HEADERS, UUID } from './helpers/plant.js';

/** A credential distinctive enough that finding it anywhere in the journal means it leaked. */
const TOKEN = 'journal-secret-7f3a';
const BIG_ID = '9223372036854775807';

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, seed: 11 });
});
afterAll(async () => {
  await stub?.close();
});
beforeEach(() => stub.reset());

/** GET /__admin/requests: the raw text (for digit-exact checks) and the parsed entries. */
async function journal(query = ''): Promise<{ status: number; text: string; requests: JournalEntry[] }> {
  const response = await request(`${stub.url}/__admin/requests${query}`);
  return { status: response.status, text: response.text, requests: response.json?.requests };
}

interface Sent {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: string;
}

function send({ method = 'POST', target, headers = {}, body }: Sent) {
  return request(`${stub.url}${target}`, { method, headers, body });
}

describe('journal entries', () => {
  // request -> the entry it leaves (everything but headers, durationMs and time, checked below).
  const cases: Array<[string, Sent, Partial<JournalEntry>]> = [
    [
      'a valid create is journaled with its parsed query, its body, 200 and the echo label',
      { target: '/plants?source=test&tag=a&tag=b', headers: JSON_HEADERS, body: '{"id":42,"name":"Fern","tag":"fern"}' },
      { method: 'POST', path: '/plants', query: { source: 'test', tag: ['a', 'b'] }, body: { id: 42, name: 'Fern', tag: 'fern' }, status: 200, responseBody: { name: 'Fern', tag: 'fern' }, scenario: 'echo', violations: [] },
    ],
    [
      'a body without its name is journaled with the violation as a pointer and a reason',
      { target: '/plants', headers: JSON_HEADERS, body: '{"id":1}' },
      { method: 'POST', path: '/plants', query: {}, body: { id: 1 }, status: 400, responseBody: { error: 400, message: '/name: is required' }, scenario: null, refusal: 'invalid', violations: ['/name: is required'] },
    ],
    [
      'a body with wrong types is journaled with every violation',
      { target: '/plants', headers: JSON_HEADERS, body: '{"id":"1","name":3}' },
      { method: 'POST', path: '/plants', query: {}, body: { id: '1', name: 3 }, status: 400, responseBody: { error: 400, message: '/name: must be a string; /id: must be an integer' }, scenario: null, refusal: 'invalid', violations: ['/name: must be a string', '/id: must be an integer'] },
    ],
    [
      'malformed JSON is journaled as the text received',
      { target: '/plants', headers: JSON_HEADERS, body: '{"id": 1,' },
      { method: 'POST', path: '/plants', query: {}, body: '{"id": 1,', status: 400, responseBody: { error: 400, message: '/: invalid JSON at line 1, column 10: Expected double-quoted property name' }, scenario: null, refusal: 'invalid', violations: ['/: invalid JSON at line 1, column 10: Expected double-quoted property name'] },
    ],
    [
      'a scenario-served answer is journaled with the scenario name and no violations',
      { target: '/plants', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'duplicate-id' }, body: '{"id":1,"name":"Fern"}' },
      { method: 'POST', path: '/plants', query: {}, body: { id: 1, name: 'Fern' }, status: 400, responseBody: { error: 1001, message: 'A plant with this id already exists' }, scenario: 'duplicate-id', violations: [] },
    ],
    [
      'a request without credentials is journaled as 401 with the reason',
      { target: '/plants', headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Fern"}' },
      { method: 'POST', path: '/plants', query: {}, body: { id: 1, name: 'Fern' }, status: 401, responseBody: { error: 401, message: 'the Authorization header is missing; send "Authorization: Bearer <credentials>"' }, scenario: null, refusal: 'unauthenticated', violations: ['the Authorization header is missing; send "Authorization: Bearer <credentials>"'] },
    ],
    [
      'a request to an unknown path is journaled as 404 with an empty body',
      { method: 'GET', target: '/nowhere?x=1' },
      { method: 'GET', path: '/nowhere', query: { x: '1' }, body: null, status: 404, responseBody: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no operation of the spec matches GET /nowhere' }, scenario: null, refusal: 'noOperation', violations: ['no operation of the spec matches GET /nowhere'] },
    ],
  ];

  it.each(cases)('%s', async (_name, sent, expected) => {
    const answer = await send(sent);
    const { requests } = await journal();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toEqual({ ...expected, headers: expect.any(Object), durationMs: expect.any(Number), time: expect.any(String) });
    expect(requests[0].status).toBe(answer.status);
  });

  it('keeps every digit of an int64 id above 2^53 in the journal JSON text', async () => {
    const body = `{"id":${BIG_ID},"name":"Fern"}`;
    expect((await createPlant(stub.url, body)).status).toBe(200);
    const { text } = await journal();
    expect(text).toContain(`"body":{"id":${BIG_ID},"name":"Fern"}`);
    // The programmatic journal keeps it exact too (a LosslessNumber, whose text is the digits).
    const [entry] = stub.requests();
    expect(String((entry.body as { id: unknown }).id)).toBe(BIG_ID);
  });

  it('redacts credentials but keeps the Authorization scheme and the other headers', async () => {
    await createPlant(stub.url, '{"id":1,"name":"Fern"}', { authorization: `Bearer ${TOKEN}`, cookie: `session=${TOKEN}`, 'x-trace': 'abc' });
    await createPlant(stub.url, '{"id":1,"name":"Fern"}', { authorization: `Basic ${TOKEN}` });
    const { text, requests } = await journal();
    expect(text).not.toContain(TOKEN);
    expect(requests.map((entry) => entry.headers.authorization)).toEqual(['Bearer [redacted]', 'Basic [redacted]']);
    expect(requests[0].headers).toMatchObject({ cookie: '[redacted]', 'x-trace': 'abc', 'content-type': 'application/json' });
  });

  it('gives back every header as it arrived: bytes above ASCII, a header sent twice, an empty value; query and bodies beyond ASCII', async () => {
    // node:http sends these as they are (fetch would refuse some) and both sides read header bytes
    // as Latin-1. The body goes as a Buffer: sent as a string, Node writes the headers with it as UTF-8.
    const { request: rawRequest } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const sent = rawRequest(`${stub.url}/plants?q=%C3%A9t%C3%A9`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'x-note': 'caf\u00e9 \u00ff', 'set-cookie': ['a=1', 'b=2'], 'x-empty': '' },
      }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      });
      sent.on('error', reject);
      sent.end(Buffer.from('{"id":1,"name":"Fern \u00e9t\u00e9 \u{1f33f}"}'));
    });
    expect(status).toBe(200);
    const [entry] = (await journal()).requests;
    expect(entry.headers).toMatchObject({ 'x-note': 'caf\u00e9 \u00ff', 'set-cookie': ['a=1', 'b=2'], 'x-empty': '' });
    expect(entry.query).toEqual({ q: '\u00e9t\u00e9' });
    expect(entry.body).toEqual({ id: 1, name: 'Fern \u00e9t\u00e9 \u{1f33f}' });
    expect(entry.responseBody).toEqual({ name: 'Fern \u00e9t\u00e9 \u{1f33f}' });
  });

  it('reads back every entry whole when large bodies, ASCII and not, fill its storage many times over', async () => {
    const names = Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? 'x'.repeat(15_000 + i) : '\u00e9\u{1f33f}'.repeat(2_300 + i)));
    for (const [i, name] of names.entries()) expect((await createPlant(stub.url, { id: i, name })).status).toBe(200);
    const { requests } = await journal();
    expect(requests.map((entry) => entry.body)).toEqual(names.map((name, id) => ({ id, name })));
    expect(requests.map((entry) => entry.responseBody)).toEqual(names.map((name) => ({ name })));
  });

  it('records durationMs (scripted delays included) and an ISO time of the request', async () => {
    const before = Date.now();
    await createPlant(stub.url, '{"id":1,"name":"Fern"}', { 'x-mock-delay': '80' });
    const after = Date.now();
    const [entry] = (await journal()).requests;
    expect(entry.durationMs).toBeGreaterThanOrEqual(75);
    expect(entry.durationMs).toBeLessThan(5_000);
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const time = Date.parse(entry.time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });

  it('lists entries oldest first', async () => {
    for (const name of ['first', 'second', 'third']) await createPlant(stub.url, { id: 1, name });
    const { requests } = await journal();
    expect(requests.map((entry) => (entry.body as { name: string }).name)).toEqual(['first', 'second', 'third']);
  });

  it('does not journal requests to /__admin', async () => {
    expect((await request(`${stub.url}/__admin/health`)).status).toBe(200);
    expect((await request(`${stub.url}/__admin/coverage`)).status).toBe(200);
    expect((await request(`${stub.url}/__admin/scenarios`)).status).toBe(200);
    expect((await request(`${stub.url}/__admin/scenario`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(`${stub.url}/__admin/nothing-here`)).status).toBe(404);
    expect((await journal()).requests).toEqual([]);
    await createPlant(stub.url, { id: 1, name: 'Fern' });
    expect((await journal()).requests.map((entry) => entry.path)).toEqual(['/plants']);
  });

  it('journals a request answered with an injected fault, marking the fault', async () => {
    await expect(createPlant(stub.url, '{"id":1,"name":"Fern"}', { 'x-mock-fault': 'reset' })).rejects.toThrow();
    const { requests } = await journal();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ path: '/plants', status: 200, fault: 'reset', violations: [] });
  });

  it('truncates a body over 16 KiB to its first 16 KiB and marks it, the answer\'s body too', async () => {
    const body = JSON.stringify({ id: 1, name: 'x'.repeat(20_000) });
    const answer = await createPlant(stub.url, body);
    expect(answer.status).toBe(200);
    const [entry] = (await journal()).requests;
    expect(entry.bodyTruncated).toBe(true);
    expect(entry.body).toBe(body.slice(0, 16 * 1024));
    expect(entry.responseBodyTruncated).toBe(true);
    expect(entry.responseBody).toBe(answer.text.slice(0, 16 * 1024));
  });

  it('keeps a body of exactly 16 KiB whole, parsed and unmarked', async () => {
    const prefix = '{"id":1,"name":"';
    const body = `${prefix}${'y'.repeat(16 * 1024 - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    await createPlant(stub.url, body);
    const [entry] = (await journal()).requests;
    expect(entry).not.toHaveProperty('bodyTruncated');
    expect(entry.body).toEqual(JSON.parse(body));
  });
});

describe('journal filters', () => {
  // One fixed traffic mix, then every filter: statuses of the matching entries, oldest first.
  const traffic: Sent[] = [
    { target: '/plants', headers: JSON_HEADERS, body: '{"id":1,"name":"Fern"}' },
    { target: '/plants', headers: JSON_HEADERS, body: '{"id":1}' },
    { target: '/plants', headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Fern"}' },
    { method: 'GET', target: '/plants', headers: JSON_HEADERS },
    { method: 'GET', target: '/nowhere' },
    { target: '/plants?page=2', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'unknown-tag' }, body: '{"id":2,"name":"Rose"}' },
  ];
  const filters: Array<[string, { method?: string; path?: string; status?: number }, number[]]> = [
    ['', {}, [200, 400, 401, 405, 404, 400]],
    ['?method=GET', { method: 'GET' }, [405, 404]],
    ['?method=post', { method: 'post' }, [200, 400, 401, 400]],
    ['?path=/plants', { path: '/plants' }, [200, 400, 401, 405, 400]],
    ['?path=/nowhere', { path: '/nowhere' }, [404]],
    ['?status=400', { status: 400 }, [400, 400]],
    ['?method=POST&path=/plants&status=200', { method: 'POST', path: '/plants', status: 200 }, [200]],
    ['?status=503', { status: 503 }, []],
  ];

  beforeEach(async () => {
    for (const sent of traffic) await send(sent);
  });

  it.each(filters)('GET /__admin/requests%s and requests(filter) select the same entries', async (query, filter, statuses) => {
    const { status, requests } = await journal(query);
    expect(status).toBe(200);
    expect(requests.map((entry) => entry.status)).toEqual(statuses);
    expect(stub.requests(filter).map((entry) => entry.status)).toEqual(statuses);
  });

  it.each([
    ['?status=abc', 'status must be a whole number'],
    ['?status=', 'status must be a whole number'],
    ['?status=1e2', 'status must be a whole number'],
    ['?status=%20', 'status must be a whole number'],
    ['?status=200&status=400', 'status must be given once'],
    ['?method=GET&method=POST', 'method must be given once'],
    ['?path=/plants&path=/nowhere', 'path must be given once'],
  ])('refuses the filter %s with a 400 problem instead of ignoring it', async (query, detail) => {
    const response = await request(`${stub.url}/__admin/requests${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.json).toMatchObject({ status: 400, detail });
  });

  it('DELETE /__admin/requests empties the journal and resets coverage', async () => {
    expect(stub.coverage().summary.exercised).toBeGreaterThan(0);
    const response = await request(`${stub.url}/__admin/requests`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await journal()).requests).toEqual([]);
    expect(stub.coverage().summary).toEqual({ exercised: 0, total: 6, ratio: 0 });
  });

  it('reset() empties the journal and resets coverage', async () => {
    expect(stub.requests()).toHaveLength(traffic.length);
    stub.reset();
    expect(stub.requests()).toEqual([]);
    expect((await journal()).requests).toEqual([]);
    expect(stub.coverage().summary.exercised).toBe(0);
  });
});

describe('sticky scenarios from code', () => {
  afterAll(() => stub.clearScenario());

  it('useScenario(name) serves that scenario to plain requests, clearScenario() restores the echo', async () => {
    stub.useScenario('name-too-long');
    const scripted = await createPlant(stub.url, { id: 1, name: 'Fern' });
    expect(scripted.status).toBe(400);
    expect(scripted.json).toEqual({ error: 1003, message: 'The name is too long; the store keeps names of at most 100 characters' });
    stub.clearScenario();
    const echoed = await createPlant(stub.url, { id: 1, name: 'Fern' });
    expect(echoed.status).toBe(200);
    expect(echoed.json).toEqual({ name: 'Fern' });
    expect(stub.requests().map((entry) => [entry.status, entry.scenario])).toEqual([[400, 'name-too-long'], [200, 'echo']]);
  });

  it('useScenario(name) throws for an unknown scenario, naming the known ones', () => {
    expect(() => stub.useScenario('no-such-scenario')).toThrow(
      'no operation has a scenario "no-such-scenario"; known: duplicate-id, unknown-tag, name-too-long, slow-create',
    );
  });
});

describe('journal bound', () => {
  it.each([
    [3, ['p3', 'p4', 'p5']],
    [0, []],
  ])('journalLimit %i keeps only the newest entries: %j', async (journalLimit, names) => {
    const bounded = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, journalLimit });
    try {
      for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) await createPlant(bounded.url, { id: 1, name });
      expect(bounded.requests().map((entry) => (entry.body as { name: string }).name)).toEqual(names);
      // Coverage still counts every request: the bound only limits what is kept to look at.
      expect(bounded.coverage().operations[0].responses[0]).toEqual({ status: '200', exercised: true, hits: 5 });
    } finally {
      await bounded.close();
    }
  });

  it('--journal-limit N bounds the journal of the CLI', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--quiet', '--journal-limit', '2']);
    try {
      for (const name of ['c1', 'c2', 'c3']) await createPlant(cli.url, { id: 1, name });
      const { json } = await request(`${cli.url}/__admin/requests`);
      expect(json.requests.map((entry: JournalEntry) => (entry.body as { name: string }).name)).toEqual(['c2', 'c3']);
    } finally {
      await cli.stop('SIGTERM');
    }
  });
});

// The self-check validates every answer before it leaves. The Plant Store's own answers always
// pass, so this document is built to make the stub's answers break it. Note the pipeline's
// fallback: an echo that breaks the response schema (a name shorter than the response's
// minLength) is replaced by generated data that fits, so that alone is NOT a self-check failure
// (/short below). The stub sends every documented response header with a sample value (its
// example, else a named example, else the schema's example or default, else generated), so a
// missing header cannot be provoked; what it cannot repair is a schema no value satisfies: a
// required response header's (/things) or the body's (/never). /headers documents a header of
// each sample source, all satisfiable, and its answers pass.
const SELF_CHECK_SPEC = `
openapi: 3.1.0
info: {title: Self-check, version: '1'}
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '200':
          description: ok
          headers:
            X-Rate-Limit: {required: true, example: 100, schema: {type: integer}}
            X-Impossible: {required: true, schema: {type: string, minLength: 5, maxLength: 2}}
          content:
            application/json:
              schema: {type: object, required: [name], properties: {name: {type: string, minLength: 5}}}
  /short:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, required: [name], properties: {name: {type: string, minLength: 5}}}
  /never:
    post:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: string, minLength: 5, maxLength: 2}
  /headers:
    get:
      responses:
        '200':
          description: ok
          headers:
            X-Rate-Limit: {required: true, example: 100, schema: {type: integer, example: 7, default: 8}}
            X-Named: {examples: {first: {value: alpha}, second: {value: beta}}, schema: {type: string, example: gamma}}
            X-Schema-Example: {schema: {type: string, example: from-schema, default: from-default}}
            X-Default: {schema: {type: integer, default: 30}}
            X-Request-Id: {required: true, schema: {type: string, format: uuid}}
            Content-Type: {schema: {type: string, example: text/plain}}
          content:
            application/json:
              schema: {type: object, required: [ok], properties: {ok: {type: boolean}}}
              example: {ok: true}
`;

describe('self-check of every answer', () => {
  let dir: string;
  let checked: RunningStub;
  const log: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-self-check-'));
    await writeFile(join(dir, 'spec.yaml'), SELF_CHECK_SPEC);
    checked = await startStub({ spec: join(dir, 'spec.yaml'), fixtures: join(dir, 'fixtures'), port: 0, watch: false, seed: 3, log: (line) => log.push(line) });
  });
  afterAll(async () => {
    await checked?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    checked.reset();
    log.length = 0;
  });

  /**
   * What the self-check must find in the X-Impossible value that was sent (minLength 5 and
   * maxLength 2: whatever the sample, at least one holds).
   */
  function impossibleHeader(sent: string): string[] {
    return [
      ...(sent.length > 2 ? ['/headers/x-impossible: must NOT have more than 2 characters'] : []),
      ...(sent.length < 5 ? ['/headers/x-impossible: must NOT have fewer than 5 characters'] : []),
    ];
  }

  interface SelfCheckCase {
    name: string;
    path: string;
    body?: string;
    label: string;
    /** The journal's selfCheck: 'impossible-header' for X-Impossible's violations, undefined when the answer passed. */
    selfCheck: 'impossible-header' | string[] | undefined;
  }

  // request -> label served, the journal's selfCheck; a failure is also logged as one line.
  const cases: SelfCheckCase[] = [
    {
      name: 'an echo with a required header no value can satisfy is journaled and logged as a self-check failure',
      path: '/things', body: '{"name":"Begonia"}', label: 'echo', selfCheck: 'impossible-header',
    },
    {
      name: 'an echo breaking the body schema is replaced by generated data; the header problem that remains is reported',
      path: '/things', body: '{"name":"ab"}', label: 'generated', selfCheck: 'impossible-header',
    },
    {
      name: 'an echo breaking the body schema is replaced by generated data that passes, so nothing is reported',
      path: '/short', body: '{"name":"ab"}', label: 'generated', selfCheck: undefined,
    },
    {
      name: 'generated data for a schema no value satisfies is journaled and logged with every violation',
      path: '/never', label: 'generated', selfCheck: ['/: must NOT have more than 2 characters', '/: must NOT have fewer than 5 characters'],
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, { path, body, label, selfCheck }) => {
    const answer = await post(`${checked.url}${path}`, body, body === undefined ? AUTH_HEADERS : JSON_HEADERS);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe(label);
    let expected = selfCheck;
    if (path === '/things') {
      // Documented headers are sent, the satisfiable one with its example, the other one anyway.
      expect(answer.headers.get('x-rate-limit')).toBe('100');
      const sent = answer.headers.get('x-impossible');
      expect(sent).not.toBeNull();
      if (selfCheck === 'impossible-header') expected = impossibleHeader(sent!);
    }
    const [entry] = (await request(`${checked.url}/__admin/requests`)).json.requests as JournalEntry[];
    expect(entry.scenario).toBe(label);
    expect(entry.selfCheck).toEqual(expected);
    const logLine = expected === undefined ? [] : [`SELF-CHECK FAILED POST ${path} -> 200 [${label}]: the response breaks the spec: ${(expected as string[]).join('; ')}`];
    expect(log.filter((line) => line.startsWith('SELF-CHECK FAILED'))).toEqual(logLine);
    // Where the body fit the schema, what was sent is what the journal says passed.
    if (path !== '/never') expect((answer.json as { name: string }).name.length).toBeGreaterThanOrEqual(5);
  });

  // Documented response header -> the value sent, and where it came from.
  const headerCases: Array<[string, string, string | RegExp]> = [
    ['X-Rate-Limit: 100 from the header\'s own example (before the schema\'s example and default)', 'x-rate-limit', '100'],
    ['X-Named: alpha from the first named example (before the schema\'s example)', 'x-named', 'alpha'],
    ['X-Schema-Example: from-schema from the schema\'s example (before its default)', 'x-schema-example', 'from-schema'],
    ['X-Default: 30 from the schema\'s default', 'x-default', '30'],
    ['X-Request-Id: a uuid generated from its schema', 'x-request-id', UUID],
    ['Content-Type: the media type, not the documented Content-Type header (OpenAPI ignores it)', 'content-type', 'application/json'],
  ];

  it.each(headerCases)('a documented response header is sent with its sample: %s', async (_name, header, value) => {
    const answer = await request(`${checked.url}/headers`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('example:default');
    expect(answer.text).toBe('{"ok":true}');
    if (typeof value === 'string') expect(answer.headers.get(header)).toBe(value);
    else expect(answer.headers.get(header)).toMatch(value);
    // Samples are checked like the rest of the answer: these all pass.
    const [entry] = (await request(`${checked.url}/__admin/requests`)).json.requests as JournalEntry[];
    expect(entry.selfCheck).toBeUndefined();
    expect(log.filter((line) => line.startsWith('SELF-CHECK FAILED'))).toEqual([]);
  });
});
