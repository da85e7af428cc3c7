// Scripted answers over HTTP: templates (types kept, checked at start), sequences with each
// `after`, `times`, `chance` under one seed, delay spreads, --chaos, sessions kept apart, answers
// added from a test (stub.use and POST /__admin/scenarios) and what reset() forgets.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, startStub, type RunningStub, type StubOptions } from '../src/index.js';
import { post, request } from './helpers/http.js';

const SPEC = join(import.meta.dirname, 'specs', 'scripted-orders.yaml');
const JSON_HEADERS = { 'content-type': 'application/json' };

const temps: string[] = [];
const started: RunningStub[] = [];
afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A stub serving the orders document with these fixture files (name -> YAML text). */
async function stubWith(files: Record<string, string>, options: StubOptions = {}): Promise<RunningStub> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-scripted-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const stub = await startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false, log: false, ...options });
  started.push(stub);
  return stub;
}

async function startRefusal(files: Record<string, string>): Promise<string> {
  try {
    await stubWith(files);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the start was not refused');
}

const TEMPLATED = `
operation: POST /orders
scenarios:
  as-sent:
    status: 201
    headers: { X-Request-Owner: "{{request.headers.x-user}}" }
    body:
      id: "{{request.body.id}}"
      owner: "{{request.body.owner.name}} ({{request.body.items.0.sku}})"
      rush: "{{request.body.rush}}"
      status: "{{faker 'person.fullName'}}"
  broken:
    status: 201
    body: { id: "{{request.body.owner.name}}", owner: x }
---
`;

describe('templates', async () => {
  const stub = await stubWith({
    'create.yaml': TEMPLATED.replace('---\n', ''),
    'get.yaml': `
operation: GET /orders/{id}
scenarios:
  by-path:
    status: 200
    body: { id: "{{request.path.id}}", owner: "{{default request.query.owner 'nobody'}}", status: "{{now offset='-2d'}}" }
`,
  });
  const create = (body: string, scenario: string, headers: Record<string, string> = {}) =>
    post(`${stub.url}/orders`, body, { ...JSON_HEADERS, 'x-mock-scenario': scenario, ...headers });

  it('keeps the type of a whole expression, int64 digits included', async () => {
    const response = await create('{"id": 9223372036854775807, "owner": {"name": "Ada"}, "items": [{"sku": "R-1"}], "rush": true}', 'as-sent', { 'x-user': 'ada' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-owner')).toBe('ada');
    expect(response.text).toContain('"id":9223372036854775807');
    expect(response.json).toMatchObject({ owner: 'Ada (R-1)', rush: true });
    expect(response.headers.get('x-mock-violations')).toBeNull();
  });

  it('renders faker seeded: the same request gives the same value', async () => {
    const body = '{"id": 1, "owner": {"name": "Ada"}}';
    const [first, second] = [await create(body, 'as-sent'), await create(body, 'as-sent')];
    expect(typeof first.json.status).toBe('string');
    expect(first.json.status.length).toBeGreaterThan(3);
    expect(second.json.status).toBe(first.json.status);
  });

  it('answers a path value as the number its schema wants, and defaults a missing query', async () => {
    const response = await request(`${stub.url}/orders/42`, { headers: { 'x-mock-scenario': 'by-path' } });
    expect(response.status).toBe(200);
    expect(response.json.id).toBe(42);
    expect(response.json.owner).toBe('nobody');
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    expect(Math.abs(Date.parse(response.json.status) - twoDaysAgo)).toBeLessThan(60_000);
    expect((await request(`${stub.url}/orders/42?owner=Bo`, { headers: { 'x-mock-scenario': 'by-path' } })).json.owner).toBe('Bo');
  });

  it('sends an answer that renders invalid, and says so in a header and the journal', async () => {
    stub.reset();
    const response = await create('{"id": 1, "owner": {"name": "Ada"}}', 'broken');
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ id: 'Ada', owner: 'x' });
    expect(response.headers.get('x-mock-violations')).toMatch(/^1 violation: \/id/);
    expect(stub.requests()[0].selfCheck?.[0]).toMatch(/^\/id/);
  });
});

describe('templates checked at start', () => {
  it.each([
    ['a misspelt body field', 'message: "{{request.body.owner.nmae}}"', /\/scenarios\/oops\/body\/message: "request\.body\.owner\.nmae": the request body of POST \/orders has no field "nmae" at request\.body\.owner \(did you mean "name"\?\)/],
    ['a top-level body field', 'message: "{{request.body.ownr}}"', /no field "ownr" at request\.body \(did you mean "owner"\?\)/],
    ['an unknown helper', 'message: "{{fakr \'person.fullName\'}}"', /unknown helper "fakr" \(did you mean "faker"\?\)/],
    ['an unknown request part', 'message: "{{request.bdy.id}}"', /a request has method, path, query, headers, body \(did you mean "body"\?\)/],
    ['a faker method that does not exist', 'message: "{{faker \'person.fullNam\'}}"', /faker has no method "person\.fullNam"/],
    ['a template that does not parse', 'message: "{{request.body.id"', /\/scenarios\/oops\/body\/message: not a valid template/],
  ])('refuses %s, naming file and pointer', async (_what, line, expected) => {
    const message = await startRefusal({ 'bad.yaml': `operation: POST /orders\nscenarios:\n  oops:\n    status: 503\n    body:\n      ${line}\n` });
    expect(message).toMatch(/bad\.yaml: /);
    expect(message).toMatch(expected);
  });

  it('refuses a path parameter the operation does not have', async () => {
    const message = await startRefusal({ 'bad.yaml': 'operation: GET /orders/{id}\nscenarios:\n  oops:\n    status: 404\n    body: { message: "{{request.path.orderId}}" }\n' });
    expect(message).toMatch(/GET \/orders\/\{id\} has no path parameter "orderId"/);
  });
});

const RETRIES = (after: string) => `
operation: GET /orders/{id}
sequence: [unavailable, unavailable, found]
${after === '' ? '' : `after: ${after}`}
scenarios:
  unavailable: { status: 503, body: { message: try again } }
  found: { status: 200, body: { id: 1, owner: Ada } }
`;

describe('sequences', () => {
  it.each([
    ['', [503, 503, 200, 200, 200]],
    ['last', [503, 503, 200, 200, 200]],
    ['repeat', [503, 503, 200, 503, 503]],
    ['default', [503, 503, 200, 200, 200]],
  ])('after %s answers in order', async (after, statuses) => {
    const stub = await stubWith({ 'get.yaml': RETRIES(after) });
    const answers = [];
    for (const _ of statuses) answers.push(await request(`${stub.url}/orders/1`));
    expect(answers.map((answer) => answer.status)).toEqual(statuses);
    const scenarios = answers.map((answer) => answer.headers.get('x-mock-scenario'));
    if (after === 'default') expect(scenarios.slice(3)).toEqual(['generated', 'generated']);
    expect(stub.requests().map((entry) => entry.scenario).slice(0, 3)).toEqual(['unavailable (1 of 3)', 'unavailable (2 of 3)', 'found (3 of 3)']);
    const listed = (await request(`${stub.url}/__admin/scenarios`)).json.operations.find((op: { operation: string }) => op.operation === 'GET /orders/{id}');
    expect(listed.sequence).toEqual({ steps: ['unavailable', 'unavailable', 'found'], after: after || 'last', position: statuses.length });
    await stub.reset();
    expect((await request(`${stub.url}/orders/1`)).status).toBe(503);
  });

  it('refuses a step that names no scenario', async () => {
    const message = await startRefusal({ 'get.yaml': RETRIES('').replace('found]', 'fund]') });
    expect(message).toMatch(/get\.yaml: \/sequence\/2: GET \/orders\/\{id\} has no scenario "fund" \(did you mean "found"\?\)/);
  });
});

describe('times', () => {
  it('answers a matched scenario N times, then passes it over', async () => {
    const stub = await stubWith({
      'get.yaml': 'operation: GET /orders/{id}\nscenarios:\n  flaky:\n    status: 503\n    times: 2\n    match: { path: { id: "7" } }\n    body: { message: busy }\n',
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(`${stub.url}/orders/7`)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect(stub.requests().map((entry) => entry.scenario)).toEqual(['flaky (1 of 2)', 'flaky (2 of 2)', 'generated', 'generated']);
  });
});

describe('chance', () => {
  const FLAKY = 'operation: GET /orders\nscenarios:\n  broken:\n    status: 500\n    chance: 0.2\n    body: { message: broken }\n';
  const statuses = async (stub: RunningStub, count: number) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await request(`${stub.url}/orders`)).status);
    return seen;
  };

  it('chooses about its share over 2,000 requests, the same choices under the same seed', async () => {
    const [first, second, other] = await Promise.all([stubWith({ 'f.yaml': FLAKY }, { seed: 3 }), stubWith({ 'f.yaml': FLAKY }, { seed: 3 }), stubWith({ 'f.yaml': FLAKY }, { seed: 4 })]);
    const seen = await statuses(first, 2000);
    const share = seen.filter((status) => status === 500).length / seen.length;
    expect(share).toBeGreaterThan(0.16);
    expect(share).toBeLessThan(0.24);
    expect(await statuses(second, 200)).toEqual(seen.slice(0, 200));
    expect(await statuses(other, 200)).not.toEqual(seen.slice(0, 200));
  }, 60_000);

  it('--chaos answers a share of every operation with a documented error', async () => {
    const stub = await stubWith({}, { chaos: 0.5, seed: 1 });
    const seen = await statuses(stub, 200);
    expect(new Set(seen)).toEqual(new Set([200, 500]));
    const errors = stub.requests().filter((entry) => entry.status === 500);
    expect(errors.length).toBeGreaterThan(60);
    expect(errors.every((entry) => entry.scenario === 'chaos (500)' && typeof (entry.responseBody as { message: unknown }).message === 'string')).toBe(true);
  }, 30_000);

  it('refuses a chance outside (0, 1]', async () => {
    expect(await startRefusal({ 'f.yaml': FLAKY.replace('0.2', '1.5') })).toMatch(/\/scenarios\/broken\/chance: must be a number above 0 and at most 1/);
  });
});

describe('delay spreads', () => {
  it.each([
    ['uniform', '{ min: 5, max: 25 }', (ms: number) => ms >= 5 && ms <= 25],
    ['log-normal', '{ median: 10, p99: 40 }', (ms: number) => ms >= 0 && ms <= 60_000],
  ])('draws each %s wait within its bounds, the same under the same seed', async (_kind, spread, within) => {
    const fixture = `operation: GET /orders\nscenarios:\n  slow:\n    status: 200\n    delay: ${spread}\n    chance: 1\n    body: []\n`;
    const [first, second] = await Promise.all([stubWith({ 's.yaml': fixture }, { seed: 9 }), stubWith({ 's.yaml': fixture }, { seed: 9 })]);
    for (const stub of [first, second]) for (let i = 0; i < 20; i++) await request(`${stub.url}/orders`);
    const waits = first.requests().map((entry) => entry.delayMs ?? 0);
    expect(waits.every(within)).toBe(true);
    expect(new Set(waits).size).toBeGreaterThan(3);
    expect(second.requests().map((entry) => entry.delayMs ?? 0)).toEqual(waits);
  }, 30_000);

  it('takes --delay as a spread', async () => {
    const stub = await stubWith({}, { delayMs: { min: 1, max: 9 } });
    for (let i = 0; i < 10; i++) await request(`${stub.url}/orders`);
    const waits = stub.requests().map((entry) => entry.delayMs ?? 0);
    expect(waits.every((ms) => ms >= 1 && ms <= 9)).toBe(true);
  });
});

describe('sessions', async () => {
  const stub = await stubWith({ 'get.yaml': RETRIES('') });

  it('keeps sticky scenarios, sequences and journals apart', async () => {
    const alice = stub.session('alice');
    const bob = stub.session('bob');
    alice.useScenario('found');
    const aliceAnswers = [];
    const bobAnswers = [];
    for (let i = 0; i < 3; i++) {
      const [a, b] = await Promise.all([request(`${stub.url}/orders/1`, { headers: { ...alice.headers } }), request(`${stub.url}/orders/1`, { headers: { ...bob.headers } })]);
      aliceAnswers.push(a.status);
      bobAnswers.push(b.status);
    }
    expect(aliceAnswers).toEqual([200, 200, 200]);
    expect(bobAnswers).toEqual([503, 503, 200]);
    // The default session is untouched by both.
    expect((await request(`${stub.url}/orders/1`)).status).toBe(503);
    expect(alice.requests()).toHaveLength(3);
    expect(alice.requests().every((entry) => entry.session === 'alice')).toBe(true);
    const listed = await request(`${stub.url}/__admin/requests?session=bob`);
    expect(listed.json.requests.map((entry: { scenario: string }) => entry.scenario)).toEqual(['unavailable (1 of 3)', 'unavailable (2 of 3)', 'found (3 of 3)']);
    bob.reset();
    expect((await request(`${stub.url}/orders/1`, { headers: { ...bob.headers } })).status).toBe(503);
  });

  it('sets a session sticky scenario over the admin API', async () => {
    const set = await request(`${stub.url}/__admin/scenario?session=carol`, { method: 'PUT', headers: JSON_HEADERS, body: '{"name":"unavailable"}' });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ sticky: 'unavailable', session: 'carol' });
    const listing = await request(`${stub.url}/__admin/scenarios?session=carol`);
    expect(listing.json).toMatchObject({ sticky: 'unavailable', session: 'carol' });
    expect((await request(`${stub.url}/orders/5`, { headers: { 'x-mock-session': 'carol' } })).status).toBe(503);
    expect((await request(`${stub.url}/orders/5`, { headers: { 'x-mock-session': 'dave' } })).status).toBe(503);
    expect((await request(`${stub.url}/orders/5`, { headers: { 'x-mock-session': 'dave' } })).status).toBe(503);
    expect((await request(`${stub.url}/orders/5`, { headers: { 'x-mock-session': 'dave' } })).status).toBe(200);
  });
});

describe('answers added from a test', async () => {
  const stub = await stubWith({ 'get.yaml': 'operation: GET /orders/{id}\nscenarios:\n  gone:\n    status: 404\n    match: { path: { id: "9" } }\n    body: { message: fixture }\n' });

  it('stub.use answers ahead of the fixtures, times limits it, removeScenario takes it away', async () => {
    const name = stub.use({ operation: 'GET /orders/{id}', status: 404, body: { message: 'added' }, times: 1, match: { path: { id: '9' } } });
    expect(name).toMatch(/^added-\d+$/);
    expect((await request(`${stub.url}/orders/9`)).json).toEqual({ message: 'added' });
    expect((await request(`${stub.url}/orders/9`)).json).toEqual({ message: 'fixture' });
    const forever = stub.use({ operation: 'getOrder', status: 503, body: { message: 'down' } });
    expect((await request(`${stub.url}/orders/3`)).status).toBe(503);
    expect((await request(`${stub.url}/orders/3`, { headers: { 'x-mock-scenario': forever } })).status).toBe(503);
    expect(stub.removeScenario(forever)).toBe(true);
    expect((await request(`${stub.url}/orders/3`)).status).toBe(200);
    expect(stub.removeScenario(forever)).toBe(false);
  });

  it('stub.use refuses what does not fit the document, naming the pointer', () => {
    expect(() => stub.use({ operation: 'GET /orders/{id}', status: 404, body: { message: 7 } })).toThrow(/stub\.use: \/body\/message: must be a string/);
    expect(() => stub.use({ operation: 'GET /orders/{id}', status: 418, body: {} })).toThrow(/\/status: 418 is not documented for GET \/orders\/\{id\}/);
    expect(() => stub.use({ operation: 'GET /order/{id}', status: 404 })).toThrow(/\/operation: the document has no operation "GET \/order\/\{id\}" \(did you mean "GET \/orders\/\{id\}"\?\)/);
  });

  it('POST /__admin/scenarios adds one (no body: the stub\'s own for the status), DELETE takes it away', async () => {
    const added = await post(`${stub.url}/__admin/scenarios`, { operation: 'GET /orders', status: 500 }, JSON_HEADERS);
    expect(added.status).toBe(201);
    expect(added.json).toEqual({ name: expect.stringMatching(/^added-\d+$/), session: 'default' });
    const answer = await request(`${stub.url}/orders`);
    expect(answer.status).toBe(500);
    expect(typeof answer.json.message).toBe('string');
    expect(answer.headers.get('x-mock-scenario')).toBe(added.json.name);
    const removed = await request(`${stub.url}/__admin/scenarios/${added.json.name}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await request(`${stub.url}/orders`)).status).toBe(200);
    expect((await request(`${stub.url}/__admin/scenarios/${added.json.name}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('POST /__admin/scenarios answers 422 with the violations of one that does not fit', async () => {
    const refused = await post(`${stub.url}/__admin/scenarios`, { operation: 'GET /orders/{id}', status: 404, body: { message: 1, extra: { deep: true } }, times: 0 }, JSON_HEADERS);
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.json.violations[0]).toMatch(/\/body\/message: must be a string/);
    expect((await post(`${stub.url}/__admin/scenarios`, { operation: 'GET /orders/{id}', status: 404, body: { message: 'x' }, times: 0 }, JSON_HEADERS)).json.violations[0]).toMatch(/\/times: must be a whole number from 1/);
  });

  it('adds for one session only', async () => {
    const added = await post(`${stub.url}/__admin/scenarios?session=erin`, { operation: 'GET /orders', status: 500, body: { message: 'erin only' } }, JSON_HEADERS);
    expect(added.json.session).toBe('erin');
    expect((await request(`${stub.url}/orders`, { headers: { 'x-mock-session': 'erin' } })).status).toBe(500);
    expect((await request(`${stub.url}/orders`)).status).toBe(200);
  });

  it('reset() forgets added scenarios, sticky scenarios and counts', async () => {
    stub.use({ operation: 'GET /orders', status: 500, body: { message: 'x' } });
    stub.useScenario('gone');
    stub.session('frank').useScenario('gone');
    await stub.reset();
    expect((await request(`${stub.url}/orders`)).status).toBe(200);
    expect((await request(`${stub.url}/orders/1`)).status).toBe(200);
    expect((await request(`${stub.url}/orders/1`, { headers: { 'x-mock-session': 'frank' } })).status).toBe(200);
    expect((await request(`${stub.url}/orders`, { headers: { 'x-mock-session': 'erin' } })).status).toBe(200);
  });
});

describe('reset({ state: true })', () => {
  it('puts the store back to its seeded start', async () => {
    const stub = await stubWith({}, { stateful: true });
    const created = await post(`${stub.url}/orders`, { id: 77, owner: { name: 'Ada' } }, JSON_HEADERS);
    expect(created.status).toBe(201);
    expect((await request(`${stub.url}/orders/77`)).status).toBe(200);
    await stub.reset();
    expect((await request(`${stub.url}/orders/77`)).status).toBe(200);
    await stub.reset({ state: true });
    expect((await request(`${stub.url}/orders/77`)).status).toBe(404);
  });
});

describe('sessions in stateful mode', () => {
  it('gives each named session its own store, seeded as the shared one', async () => {
    const stub = await stubWith({}, { stateful: true });
    const alice = stub.session('alice');
    const bob = stub.session('bob');
    const create = (id: number, headers: Record<string, string>) => post(`${stub.url}/orders`, { id, owner: { name: 'Ada' } }, { ...JSON_HEADERS, ...headers });
    expect((await create(501, alice.headers)).status).toBe(201);
    expect((await create(502, bob.headers)).status).toBe(201);
    expect((await request(`${stub.url}/orders/501`, { headers: { ...alice.headers } })).status).toBe(200);
    expect((await request(`${stub.url}/orders/501`, { headers: { ...bob.headers } })).status).toBe(404);
    expect((await request(`${stub.url}/orders/501`)).status).toBe(404);
    expect((await request(`${stub.url}/orders/502`, { headers: { ...bob.headers } })).status).toBe(200);
    // The same id in two sessions is no conflict.
    expect((await create(501, bob.headers)).status).toBe(201);
    alice.reset();
    expect((await request(`${stub.url}/orders/501`, { headers: { ...alice.headers } })).status).toBe(404);
    expect((await request(`${stub.url}/orders/502`, { headers: { ...bob.headers } })).status).toBe(200);
  });
});

describe('what a review found', () => {
  it('shares the requests between two chance scenarios as their chances say', async () => {
    const stub = await stubWith({ 'f.yaml': 'operation: GET /orders\nscenarios:\n  a:\n    status: 500\n    chance: 0.5\n    body: { message: a }\n  b:\n    status: 500\n    chance: 0.5\n    body: { message: b }\n' }, { seed: 5 });
    const seen = { a: 0, b: 0 };
    for (let i = 0; i < 400; i++) seen[(await request(`${stub.url}/orders`)).json.message as 'a' | 'b']++;
    expect(seen.a + seen.b).toBe(400);
    expect(seen.a).toBeGreaterThan(150);
    expect(seen.b).toBeGreaterThan(150);
  }, 30_000);

  it('writes int64 digits exactly with the json helper, and reports a helper that fails for a request instead of a 500', async () => {
    const stub = await stubWith({ 'create.yaml': 'operation: POST /orders\nscenarios:\n  raw:\n    status: 201\n    body: { id: 1, owner: "{{json request.body.id}}" }\n  odd:\n    status: 201\n    body: { id: 1, owner: "{{faker \'helpers.arrayElement\'}}" }\n' });
    const raw = await post(`${stub.url}/orders`, '{"id": 9223372036854775807, "owner": {}}', { ...JSON_HEADERS, 'x-mock-scenario': 'raw' });
    expect(raw.json.owner).toBe('9223372036854775807');
    const odd = await post(`${stub.url}/orders`, '{"id": 1, "owner": {}}', { ...JSON_HEADERS, 'x-mock-scenario': 'odd' });
    expect(odd.status).toBe(201);
    expect(odd.json).toEqual({ id: 1, owner: '' });
    expect(odd.headers.get('x-mock-violations')).toMatch(/^1 violation: the template "\{\{faker 'helpers\.arrayElement'\}\}" failed to render: /);
  });

  it('refuses at start a now offset beyond a century', async () => {
    expect(await startRefusal({ 'bad.yaml': "operation: GET /orders\nscenarios:\n  far:\n    status: 200\n    body: [{ id: 1, owner: \"{{now offset='+99999d'}}\" }]\n" })).toMatch(/now's offset "\+99999d" is not an offset: write -2d, \+3h, 30m, 10s or 1w, within a century/);
  });

  it('keeps the default session\'s added answers however many sessions come and go', async () => {
    const stub = await stubWith({});
    stub.use({ operation: 'GET /orders', status: 500, body: { message: 'kept' } });
    for (let i = 0; i < 1005; i++) await request(`${stub.url}/orders/1`, { headers: { 'x-mock-session': `s${i}` } });
    expect((await request(`${stub.url}/orders`)).json).toEqual({ message: 'kept' });
  }, 60_000);

  it('resets one session\'s store only, and refuses a session named twice', async () => {
    const stub = await stubWith({}, { stateful: true });
    await post(`${stub.url}/orders`, { id: 77, owner: { name: 'Ada' } }, JSON_HEADERS);
    await post(`${stub.url}/orders`, { id: 78, owner: { name: 'Bo' } }, { ...JSON_HEADERS, 'x-mock-session': 'b' });
    expect((await request(`${stub.url}/__admin/reset?session=a&state=true`, { method: 'POST' })).status).toBe(204);
    expect((await request(`${stub.url}/orders/77`)).status).toBe(200);
    expect((await request(`${stub.url}/orders/78`, { headers: { 'x-mock-session': 'b' } })).status).toBe(200);
    const twice = await request(`${stub.url}/__admin/reset?session=a&session=b`, { method: 'POST' });
    expect(twice.status).toBe(400);
    expect(twice.json.detail).toBe('session must be given once');
  });

  it('lists each violation of an added scenario apart, and names a bad name by its pointer', async () => {
    const stub = await stubWith({});
    const refused = await post(`${stub.url}/__admin/scenarios`, { operation: 'GET /orders/{id}', status: 404, body: { message: 1, extra: 2 } }, JSON_HEADERS);
    expect(refused.status).toBe(422);
    expect(refused.json.violations).toHaveLength(1);
    expect(refused.json.violations[0]).toBe('/body/message: must be a string');
    const badName = await post(`${stub.url}/__admin/scenarios`, { operation: 'GET /orders/{id}', status: 404, body: { message: 'x' }, name: 'ünï' }, JSON_HEADERS);
    expect(badName.json.violations[0]).toMatch(/^\/name: must be a scenario name of visible ASCII/);
  });
});
