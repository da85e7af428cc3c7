// Fixture scenarios chosen by what the request holds (`match`), run from the
// examples of docs/request-matching.md over real HTTP, and `match` checked at start.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { AUTH_HEADERS } from './helpers/plant.js';
import { codeBlocks, writeFixtureBlocks } from './helpers/doc-examples.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const PAGE = 'request-matching.md';

const temps: string[] = [];
const started: RunningStub[] = [];
afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function fixturesFromPage(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-match-'));
  temps.push(dir);
  await writeFixtureBlocks(PAGE, dir);
  return dir;
}

async function start(options: Parameters<typeof startStub>[0]): Promise<RunningStub> {
  const stub = await startStub({ spec: SPEC, port: 0, watch: false, ...options });
  started.push(stub);
  return stub;
}

/** `GET /plants/7  x-tenant: south  -> 200 southern-fern`: the page's table of requests and what answers them. */
interface Example { method: string; path: string; headers: Record<string, string>; body?: string; status: number; source: string }

async function pageExamples(): Promise<Example[]> {
  const table = (await codeBlocks(PAGE)).find(({ lang, text }) => lang === '' && text.includes(' -> '))!;
  return table.text.trim().split('\n').map((line) => {
    const [asked, answered] = line.split(/\s+->\s+/);
    const [, method, path, rest] = /^(\S+) (\S+)\s*(.*)$/.exec(asked.trim())!;
    const [status, source] = answered.trim().split(' ');
    const header = /^([\w-]+): (\S+)$/.exec(rest);
    return { method, path, headers: header ? { [header[1]]: header[2] } : {}, body: rest.startsWith('{') ? rest : undefined, status: Number(status), source };
  });
}

async function fixtureBodies(): Promise<Map<string, unknown>> {
  const bodies = new Map<string, unknown>();
  for (const { text } of await codeBlocks(PAGE)) {
    if (!text.startsWith('# fixtures/')) continue;
    const file = parseYaml(text) as { scenarios: Record<string, { body: unknown }> };
    for (const [name, scenario] of Object.entries(file.scenarios)) bodies.set(name, scenario.body);
  }
  return bodies;
}

describe('the examples of docs/request-matching.md', async () => {
  const examples = await pageExamples();
  const bodies = await fixtureBodies();
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ fixtures: await fixturesFromPage() });
  });

  it('has a table of requests to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
  });

  it.each(examples.map((example) => [`${example.method} ${example.path} ${JSON.stringify(example.headers)} ${example.body ?? ''}`, example] as const))(
    '%s is answered as the page says',
    async (_name, example) => {
      const headers = { ...AUTH_HEADERS, ...example.headers, ...(example.body ? { 'content-type': 'application/json' } : {}) };
      const response = await request(`${stub.url}${example.path}`, { method: example.method, headers, body: example.body });
      expect(response.status).toBe(example.status);
      expect(response.headers.get('x-mock-scenario')).toBe(example.source);
      if (bodies.has(example.source)) expect(response.json).toEqual(bodies.get(example.source));
      expect(stub.requests().at(-1)).toMatchObject({ path: example.path, status: example.status, scenario: example.source });
    },
  );
});

describe('what wins over match', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ fixtures: await fixturesFromPage() });
  });

  it('Prefer: code=200 answers the first 200 of the operation, not the match of /plants/404', async () => {
    const response = await request(`${stub.url}/plants/404`, { headers: { ...AUTH_HEADERS, prefer: 'code=200' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('southern-fern');
  });

  it('a sticky scenario of the operation wins over match, and match answers again once it is cleared', async () => {
    stub.useScenario('fern');
    const sticky = await request(`${stub.url}/plants/404`, { headers: AUTH_HEADERS });
    stub.clearScenario();
    const matched = await request(`${stub.url}/plants/404`, { headers: AUTH_HEADERS });
    expect([sticky.status, sticky.headers.get('x-mock-scenario'), sticky.json]).toEqual([200, 'fern', { id: 7, name: 'Fern' }]);
    expect([matched.status, matched.headers.get('x-mock-scenario')]).toEqual([404, 'missing']);
  });

  it('a request that breaks the document is refused before any match is tried', async () => {
    const response = await request(`${stub.url}/plants/7`, { headers: { ...AUTH_HEADERS, 'x-tenant': 'east' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-mock-scenario')).toBeNull();
    // The operation documents no 400, so the refusal is problem+json.
    expect(response.json).toMatchObject({ status: 400, detail: '/header/x-tenant: must be one of "north", "south"' });
  });
});

describe('match on query lists, ties and stateful mode', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-match-'));
    temps.push(dir);
    await writeFile(join(dir, 'list.yaml'), [
      'operation: listPlants',
      'scenarios:',
      '  ferns-first: { match: { query: { tag: fern } }, status: 200, body: [{ id: 1, name: first }] }',
      '  ferns-second: { match: { query: { tag: fern } }, status: 200, body: [{ id: 2, name: second }] }',
      '  two-colors: { match: { query: { color: [red, white] } }, status: 200, body: [{ id: 3, name: both }] }',
      '  ferns-limited: { match: { query: { tag: fern, limit: "5" } }, status: 200, body: [{ id: 4, name: limited }] }',
      '',
    ].join('\n'));
    await writeFile(join(dir, 'get.yaml'), 'operation: GET /plants/{id}\nscenarios:\n  seven: { match: { path: { id: "7" } }, status: 200, body: { id: 7, name: Scripted } }\n');
  });

  it.each([
    ['?tag=fern', 'ferns-first'],
    ['?tag=fern&limit=5', 'ferns-limited'],
    ['?limit=5&tag=fern', 'ferns-limited'],
    ['?color=red&color=white', 'two-colors'],
    ['?color=white&color=red', 'generated'],
    ['?color=red', 'generated'],
    ['?tag=fern&limit=6', 'ferns-first'],
    ['?tag=Fern', 'generated'],
  ])('GET /plants%s is answered by %s', async (query, source) => {
    const stub = await start({ fixtures: dir });
    const response = await request(`${stub.url}/plants${query}`, { headers: AUTH_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe(source);
  });

  it('in stateful mode a matching scenario answers instead of the stored resources', async () => {
    const stub = await start({ fixtures: dir, stateful: true });
    const created = await request(`${stub.url}/plants`, { method: 'POST', headers: { ...AUTH_HEADERS, 'content-type': 'application/json' }, body: '{"name":"Real"}' });
    expect(created.status).toBe(201);
    const matched = await request(`${stub.url}/plants/7`, { headers: AUTH_HEADERS });
    const stored = await request(`${stub.url}/plants/${created.json.id}`, { headers: AUTH_HEADERS });
    expect([matched.headers.get('x-mock-scenario'), matched.json]).toEqual(['seven', { id: 7, name: 'Scripted' }]);
    expect([stored.status, stored.headers.get('x-mock-scenario'), stored.json.name]).toEqual([200, 'state', 'Real']);
  });
});

describe('a broken match stops the start, naming the file and the JSON pointer', async () => {
  const errorLine = (await codeBlocks(PAGE)).find(({ text }) => text.startsWith('fixtures/get-plant.yaml: '))!.text.trim();

  it.each([
    ['missing: { match: { path: { id: "four" } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/path/id: must be an integer (the value as a request would carry it, read by GET /plants/{id}\'s parameter schemas)'],
    ['missing: { match: { path: { id: 404 } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/path/id: must be text as the request carries it (e.g. "404")'],
    ['missing: { match: { query: { tag: fern } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/query/tag: GET /plants/{id} has no query parameter "tag" (declared: none)'],
    ['missing: { match: { headers: { X-Tenant: east } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/headers/x-tenant: must be one of "north", "south" (the value as a request would carry it, read by GET /plants/{id}\'s parameter schemas)'],
    ['missing: { match: { body: { name: x } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/body: GET /plants/{id} takes no JSON request body to match'],
    ['missing: { match: { cookie: { a: b } }, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match/cookie: unknown field; allowed: path, query, headers, body'],
    ['missing: { match: {}, status: 404, body: { error: 404, message: x } }',
      '/scenarios/missing/match: names nothing to match; name path, query, headers or body values (or remove it)'],
  ])('%s', async (scenario, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'stub-match-'));
    temps.push(dir);
    const file = join(dir, 'get-plant.yaml');
    await writeFile(file, `operation: GET /plants/{id}\nscenarios:\n  ${scenario}\n`);
    await expect(start({ fixtures: dir })).rejects.toThrow(`${file}: ${message}`);
  });

  it('the line the page prints is the one a non-integer id gives', () => {
    expect(errorLine).toBe('fixtures/get-plant.yaml: /scenarios/missing/match/path/id: must be an integer (the value as a request would carry it, read by GET /plants/{id}\'s parameter schemas)');
  });
});
