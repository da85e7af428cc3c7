// createFetchHandler (plant-store-stub/fetch) against the HTTP server: the same document, seed and
// requests give the same status, headers and body bytes (a table run over real HTTP and through
// the handler), then what only the handler has: the base URL, passthrough, its journal,
// coverage and sticky scenario, faults as fetch knows them, errors naming the option.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { ConfigError, createFetchHandler, type FetchHandler } from '../src/fetch.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { comparable, requestInit, PLANT_STORE_CASES, STATEFUL_CASES, type RuntimeCase } from './helpers/runtime-cases.js';

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'openapi.yaml');
const FIXTURES = join(ROOT, 'fixtures');
const FULL_SPEC = join(ROOT, 'test', 'specs', 'plant-store-full.yaml');
const FULL_FIXTURES = join(ROOT, 'test', 'specs', 'plant-store-full-fixtures');
const BASE = 'http://plants.test';
const SEED = 7;

const text = (file: string) => readFileSync(file, 'utf8');
const fixtureOf = (file: string) => load(text(file)) as object;

describe.each([
  { title: 'the Plant Store', cases: PLANT_STORE_CASES, spec: SPEC, fixtures: FIXTURES, fixture: join(FIXTURES, 'create-plant.yaml'), stateful: false },
  { title: 'the full Plant Store in stateful mode', cases: STATEFUL_CASES, spec: FULL_SPEC, fixtures: FULL_FIXTURES, fixture: join(FULL_FIXTURES, 'add-plant.yaml'), stateful: true },
])('the fetch handler and the HTTP server on $title', ({ cases, spec, fixtures, fixture, stateful }) => {
  let server: RunningStub;
  let handle: FetchHandler;
  beforeAll(async () => {
    server = await startStub({ spec, fixtures, seed: SEED, stateful, port: 0, watch: false });
    handle = await createFetchHandler({ document: text(spec), fixtures: [fixtureOf(fixture)], seed: SEED, stateful, baseUrl: BASE, log: () => {} });
  });
  afterAll(() => server?.close());

  // In order: the stateful cases are a sequence, each runtime with its own store.
  it.each(cases.map((testCase) => [testCase.name, testCase] as const))('%s, with the same bytes', async (_name, testCase: RuntimeCase) => {
    const overHttp = await comparable(await fetch(server.url + testCase.path, requestInit(testCase)));
    const answered = await handle(new Request(BASE + testCase.path, requestInit(testCase)));
    expect(answered).toBeInstanceOf(Response);
    const inProcess = await comparable(answered!);
    expect(overHttp.status).toBe(testCase.status);
    if (testCase.bodyHolds) expect(overHttp.body).toContain(testCase.bodyHolds);
    expect(inProcess).toEqual(overHttp);
  });
});

/**
 * Generated data that reads names through faker (`login`, `city`, `x-faker`), a `pattern` (RE2),
 * an XML answer: libraries the handler loads only when a document needs them.
 */
const PEOPLE = `openapi: 3.0.3
info: { title: People, version: '1' }
paths:
  /people/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: a person
          content:
            application/json: { schema: { $ref: '#/components/schemas/Person' } }
            application/xml: { schema: { $ref: '#/components/schemas/Person' } }
components:
  schemas:
    Person:
      type: object
      required: [id, login, city, motto, code]
      properties:
        id: { type: integer }
        code: { type: string, pattern: '^[A-Z]{3}$' }
        login: { type: string }
        city: { type: string }
        motto: { type: string, x-faker: hacker.phrase }
`;

describe('the fetch handler and the HTTP server on generated data that needs faker, and on XML', () => {
  let server: DocumentStub;
  let handle: FetchHandler;
  beforeAll(async () => {
    server = await startStubOn(PEOPLE, { seed: SEED });
    handle = await createFetchHandler({ document: PEOPLE, seed: SEED, baseUrl: BASE });
  });
  afterAll(() => server?.close());

  it.each([
    ['generates the same person, names from faker included', {}, 'application/json'],
    ['writes the same XML', { accept: 'application/xml' }, 'application/xml'],
  ])('%s', async (_name, headers, type) => {
    const overHttp = await comparable(await fetch(`${server.url}/people/7`, { headers }));
    const inProcess = await comparable((await handle(new Request(`${BASE}/people/7`, { headers })))!);
    expect(overHttp).toMatchObject({ status: 200, headers: { 'content-type': type, 'x-mock-scenario': 'generated' } });
    expect(overHttp.body).toMatch(/login/);
    expect(overHttp.body).toMatch(/[>"][A-Z]{3}[<"]/);
    expect(inProcess).toEqual(overHttp);
  });
});

describe('the fetch handler', () => {
  const document = text(SPEC);
  const fixtures = [fixtureOf(join(FIXTURES, 'create-plant.yaml'))];
  const plant = (url: string, init: RequestInit = {}) => new Request(url, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    body: '{"id": 1, "name": "Fern"}',
    signal: init.signal,
  });

  it('serves the operations under the base path and answers 404 outside it', async () => {
    const handle = await createFetchHandler({ document, baseUrl: '/api' });
    const inside = await handle(plant('http://localhost:5173/api/plants'));
    expect(inside!.status).toBe(200);
    expect(await inside!.json()).toEqual({ name: 'Fern' });
    const outside = await handle(plant('http://localhost:5173/plants'));
    expect(outside!.status).toBe(404);
    expect(outside!.headers.get('content-type')).toBe('application/problem+json');
  });

  it('resolves to undefined with passthrough for another origin or a path the document lacks, and still answers 405 on its paths', async () => {
    const handle = await createFetchHandler({ document, baseUrl: 'https://api.example.com', passthrough: true });
    expect(await handle(plant('https://cdn.example.com/plants'))).toBeUndefined();
    expect(await handle(new Request('https://api.example.com/elsewhere'))).toBeUndefined();
    const wrongMethod = await handle(new Request('https://api.example.com/plants'));
    expect(wrongMethod!.status).toBe(405);
    expect(wrongMethod!.headers.get('allow')).toBe('POST');
    expect(handle.requests().map((entry) => entry.status)).toEqual([405]);
  });

  it('journals each request with its credentials redacted, and reports coverage', async () => {
    const handle = await createFetchHandler({ document, fixtures });
    await handle(plant('http://localhost/plants'));
    await handle(plant('http://localhost/plants', { headers: { 'x-mock-scenario': 'duplicate-id' } }));
    const [first, second] = handle.requests({ method: 'POST', path: '/plants' });
    expect(first).toMatchObject({ status: 200, scenario: 'echo', body: { id: 1, name: 'Fern' }, violations: [] });
    expect(first.headers.authorization).toBe('Bearer [redacted]');
    expect(second).toMatchObject({ status: 400, scenario: 'duplicate-id' });
    const [operation] = handle.coverage().operations;
    expect(operation.scenarios.filter((s) => s.exercised).map((s) => s.name)).toEqual(['duplicate-id']);
    handle.reset();
    expect(handle.requests()).toEqual([]);
  });

  it('serves a sticky scenario until it is cleared, and refuses an unknown one', async () => {
    const handle = await createFetchHandler({ document, fixtures });
    handle.useScenario('unknown-tag');
    const sticky = await handle(plant('http://localhost/plants'));
    expect(sticky!.headers.get('x-mock-scenario')).toBe('unknown-tag');
    expect((await sticky!.json()).error).toBe(1002);
    handle.clearScenario();
    expect((await handle(plant('http://localhost/plants')))!.headers.get('x-mock-scenario')).toBe('echo');
    expect(() => handle.useScenario('nope')).toThrow('no operation has a scenario "nope"; known: duplicate-id, unknown-tag, name-too-long, slow-create');
  });

  it('takes the document as an object as well as text, and answers 413 past maxBodyBytes', async () => {
    const handle = await createFetchHandler({ document: load(document) as object, maxBodyBytes: 10 });
    const tooLarge = await handle(plant('http://localhost/plants'));
    expect(tooLarge!.status).toBe(413);
    expect(await tooLarge!.json()).toMatchObject({ error: 413 });
  });

  it('answers the reset fault with a network error and the malformed fault with broken JSON', async () => {
    const handle = await createFetchHandler({ document });
    const reset = await handle(plant('http://localhost/plants', { headers: { 'x-mock-fault': 'reset' } }));
    expect(reset!.type).toBe('error');
    const malformed = await handle(plant('http://localhost/plants', { headers: { 'x-mock-fault': 'malformed' } }));
    expect(malformed!.status).toBe(200);
    expect(await malformed!.text()).toBe('{"name":"Fern",');
    expect(handle.requests().map((entry) => entry.fault)).toEqual(['reset', 'malformed']);
  });

  it('answers the close fault with a body that breaks off, and the timeout fault not at all until the client aborts', async () => {
    const handle = await createFetchHandler({ document });
    const closed = await handle(plant('http://localhost/plants', { headers: { 'x-mock-fault': 'close' } }));
    expect(closed!.status).toBe(200);
    await expect(closed!.text()).rejects.toThrow('fault: close');
    const controller = new AbortController();
    const held = handle(plant('http://localhost/plants', { headers: { 'x-mock-fault': 'timeout' }, signal: controller.signal }));
    controller.abort(new Error('client gave up'));
    await expect(held).rejects.toThrow('client gave up');
    expect(handle.requests().map((entry) => entry.fault)).toEqual(['close', 'timeout']);
  });

  it('journals a delayed answer as abandoned when the client aborts first', async () => {
    const handle = await createFetchHandler({ document });
    const controller = new AbortController();
    const answer = handle(plant('http://localhost/plants', { headers: { 'x-mock-delay': '60000' }, signal: controller.signal }));
    controller.abort(new Error('gave up'));
    await expect(answer).rejects.toThrow('gave up');
    expect(handle.requests()).toMatchObject([{ status: 200, abandoned: true }]);
  });

  it.each([
    ['a document that is not a mapping', { document: '- a list' }, 'document: not an OpenAPI document (expected a mapping at the top level)'],
    ['a Swagger 2.0 document', { document: { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} } }, 'document: Swagger 2.0 is converted to OpenAPI 3.0 only by the server'],
    ['a $ref to another file', { document: { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { $ref: 'other.yaml#/a' } } } }, 'document: a $ref points into another file'],
    ['a fixture that breaks the document', { document, fixtures: [{ operation: 'POST /plants', scenarios: { bad: { status: 400, body: { error: 'x', message: 'm' } } } }] }, 'fixtures[0]: /scenarios/bad/body/error: must be an integer'],
    ['a base URL that is neither a URL nor a path', { document, baseUrl: 'api.example.com' }, 'baseUrl: must be an absolute http(s) URL'],
    ['a seed that is not a whole number', { document, seed: 1.5 }, 'seed: must be a whole number from 0 to 2147483647, got 1.5'],
  ])('rejects %s with a ConfigError naming the option', async (_what, options, message) => {
    const opened = createFetchHandler(options as never);
    await expect(opened).rejects.toBeInstanceOf(ConfigError);
    await expect(opened).rejects.toThrow(message);
  });
});
