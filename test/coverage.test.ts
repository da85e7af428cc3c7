// Coverage through the real server: which documented statuses and fixture scenarios of each
// operation a request exercised since the last reset, over HTTP, from code, and written on stop.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStub, type CoverageReport, type RunningStub } from '../src/index.js';
import { startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { createPlant, JSON_HEADERS } from './helpers/plant.js';

const PLANT = '{"id":1,"name":"Fern"}';
const STATUSES = ['200', '400'];
const SCENARIOS: Array<[string, number]> = [['duplicate-id', 400], ['unknown-tag', 400], ['name-too-long', 400], ['slow-create', 200]];

/** The whole expected report for the Plant Store, from the hits of each status / scenario name. */
function report(hits: Record<string, number>): CoverageReport {
  const row = (key: string) => ({ exercised: (hits[key] ?? 0) > 0, hits: hits[key] ?? 0 });
  const exercised = Object.values(hits).filter((n) => n > 0).length;
  const total = STATUSES.length + SCENARIOS.length;
  return {
    operations: [{
      operation: 'POST /plants',
      operationId: null,
      responses: STATUSES.map((status) => ({ status, ...row(status) })),
      scenarios: SCENARIOS.map(([name, status]) => ({ name, status, ...row(name) })),
    }],
    summary: { exercised, total, ratio: Math.round((exercised / total) * 1000) / 1000 },
  };
}

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

const valid: Sent = { headers: JSON_HEADERS, body: PLANT };
const scenario = (name: string, extra: Record<string, string> = {}): Sent => ({ headers: { ...JSON_HEADERS, 'x-mock-scenario': name, ...extra }, body: PLANT });

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, seed: 5 });
});
afterAll(async () => {
  await stub?.close();
});
beforeEach(() => stub.reset());

async function sendAll(url: string, list: Sent[]): Promise<void> {
  for (const { method = 'POST', path = '/plants', headers = {}, body } of list) {
    await request(`${url}${path}`, { method, headers, body }).catch(() => undefined); // faults reject
  }
}

describe('coverage report', () => {
  // traffic since the last reset -> hits per documented status and per scenario name.
  const cases: Array<[string, Sent[], Record<string, number>]> = [
    ['a fresh stub lists every documented status and every scenario as not exercised', [], {}],
    ['a valid create exercises the documented 200', [valid], { '200': 1 }],
    ['a request the stub rejects as invalid exercises the documented 400', [{ headers: JSON_HEADERS, body: '{"id":1}' }, { headers: JSON_HEADERS, body: '{' }], { '400': 2 }],
    ['a scenario-served answer exercises both the scenario and its status', [scenario('duplicate-id')], { '400': 1, 'duplicate-id': 1 }],
    ['a 200 scenario counts for 200 (its delay overridden)', [scenario('slow-create', { 'x-mock-delay': '0' })], { '200': 1, 'slow-create': 1 }],
    ['Prefer: code=400 serves and exercises the first 400 scenario', [{ headers: { ...JSON_HEADERS, prefer: 'code=400' }, body: PLANT }], { '400': 1, 'duplicate-id': 1 }],
    [
      'answers the spec does not document (401, 404, 405, unknown scenario, undocumented Prefer code) exercise nothing',
      [
        { headers: { 'content-type': 'application/json' }, body: PLANT },
        { method: 'GET', path: '/nowhere' },
        { method: 'GET', headers: JSON_HEADERS },
        scenario('no-such-scenario'),
        { headers: { ...JSON_HEADERS, prefer: 'code=418' }, body: PLANT },
      ],
      {},
    ],
    ['a scenario answered with an injected fault exercises the scenario, not the status never sent', [scenario('unknown-tag', { 'x-mock-fault': 'reset' })], { 'unknown-tag': 1 }],
    [
      'exercising every status and scenario gives a ratio of 1',
      [valid, valid, ...SCENARIOS.map(([name]) => scenario(name, { 'x-mock-delay': '0' }))],
      { '200': 3, '400': 3, 'duplicate-id': 1, 'unknown-tag': 1, 'name-too-long': 1, 'slow-create': 1 },
    ],
  ];

  it.each(cases)('%s', async (_name, traffic, hits) => {
    await sendAll(stub.url, traffic);
    const expected = report(hits);
    const response = await request(`${stub.url}/__admin/coverage`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json).toEqual(expected);
    expect(stub.coverage()).toEqual(expected);
  });

  it('a sticky scenario set through PUT /__admin/scenario counts as that scenario', async () => {
    const put = await request(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"name-too-long"}' });
    expect(put.status).toBe(200);
    try {
      expect((await createPlant(stub.url, PLANT)).status).toBe(400);
    } finally {
      await request(`${stub.url}/__admin/scenario`, { method: 'DELETE' });
    }
    expect(stub.coverage()).toEqual(report({ '400': 1, 'name-too-long': 1 }));
  });

  it('a scenario chosen with useScenario() counts as that scenario', async () => {
    stub.useScenario('unknown-tag');
    try {
      expect((await createPlant(stub.url, PLANT)).json).toMatchObject({ error: 1002 });
    } finally {
      stub.clearScenario();
    }
    expect(stub.coverage()).toEqual(report({ '400': 1, 'unknown-tag': 1 }));
  });

  it('DELETE /__admin/requests and reset() both start coverage over', async () => {
    await sendAll(stub.url, [valid]);
    expect((await request(`${stub.url}/__admin/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(stub.coverage()).toEqual(report({}));
    await sendAll(stub.url, [scenario('duplicate-id')]);
    stub.reset();
    expect((await request(`${stub.url}/__admin/coverage`)).json).toEqual(report({}));
  });
});

describe('coverage written on stop', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-coverage-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the coverageOut option writes the report as JSON when close() resolves', async () => {
    const file = join(dir, 'programmatic.json');
    const own = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, coverageOut: file });
    await sendAll(own.url, [valid, scenario('unknown-tag')]);
    await own.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(report({ '200': 1, '400': 1, 'unknown-tag': 1 }));
  });

  it('the CLI writes --coverage-out FILE and prints a short coverage table on shutdown', async () => {
    const file = join(dir, 'cli.json');
    const cli = await startCli(['--port', '0', '--no-watch', '--coverage-out', file]);
    try {
      await sendAll(cli.url, [valid, scenario('duplicate-id'), { headers: JSON_HEADERS, body: '{}' }]);
    } finally {
      await cli.stop('SIGTERM');
    }
    const { code, stdout } = await cli.exited;
    expect(code).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(report({ '200': 1, '400': 2, 'duplicate-id': 1 }));
    const table = stdout.slice(stdout.indexOf('coverage: '));
    expect(table.split('\n').slice(0, 8)).toEqual([
      'coverage: 3/6 (50%)',
      '  POST /plants',
      '    ✓ 200 (1)',
      '    ✓ 400 (2)',
      '    ✓ scenario duplicate-id -> 400 (1)',
      '    ✗ scenario unknown-tag -> 400',
      '    ✗ scenario name-too-long -> 400',
      '    ✗ scenario slow-create -> 200',
    ]);
    expect(stdout).toContain(`coverage written to ${file}`);
  });
});
