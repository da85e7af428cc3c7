// Choosing what the stub answers on the shipped Plant Store: X-Mock-Scenario, Prefer (code,
// example, dynamic), sticky scenarios through /__admin/scenario, and Prefer: code=N passing over
// fixtures that script a delay or a fault. All over real HTTP against stubs on port 0.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant, PROBLEM_TYPE } from './helpers/plant.js';
import { ADMIN_PROBLEM_TYPE, FIXTURES, INSTANT, SHIPPED_NAMES, SPEC, VALID, closeAfterAll, isPlant, shipped, start, tempDir, unprocessable } from './helpers/plant-store-suite.js';

closeAfterAll();

describe('scenario selection on POST /plants', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  it('ships the fixtures this suite expects', () => {
    expect(INSTANT).toEqual(expect.arrayContaining(['duplicate-id', 'unknown-tag', 'name-too-long']));
  });

  it.each(INSTANT)('X-Mock-Scenario: %s answers that fixture, naming it in X-Mock-Scenario', async (name) => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': name });
    expect(response.status).toBe(shipped.scenarios[name].status);
    expect(response.headers.get('x-mock-scenario')).toBe(name);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios[name].body));
  });

  it('an invalid body with a scenario header still gets the validation 400, not the fixture', async () => {
    const response = await createPlant(stub.url, '{"name":"Ficus"}', { 'x-mock-scenario': 'duplicate-id' });
    expect(response.status).toBe(400);
    expect(response.text).toBe('{"error":400,"message":"/id: is required"}');
    expect(response.headers.get('x-mock-scenario')).toBeNull();
  });

  it('a scenario header without authentication is 401: auth comes before selection', async () => {
    const response = await request(`${stub.url}/plants`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-scenario': 'duplicate-id' }, body: VALID,
    });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: 401, message: expect.stringContaining('Authorization') });
    expect(response.headers.get('x-mock-scenario')).toBeNull();
  });

  it('an unknown scenario is a 422 problem listing the known scenario names', async () => {
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'no-such-scenario' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.headers.get('x-mock-scenario')).toBeNull();
    expect(response.json).toEqual({
      ...unprocessable(`unknown scenario "no-such-scenario" for POST /plants; known scenarios: ${SHIPPED_NAMES.join(', ')}`),
      knownScenarios: SHIPPED_NAMES,
    });
  });

  it('Prefer: code=400 answers a documented 400 fixture', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=400' });
    expect(response.status).toBe(400);
    const name = response.headers.get('x-mock-scenario')!;
    expect(INSTANT).toContain(name);
    expect(response.text).toBe(JSON.stringify(shipped.scenarios[name].body));
  });

  it('Prefer: code=200 answers generated Plant data at once, skipping the 3-second slow-create fixture', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { prefer: 'code=200' });
    const elapsed = performance.now() - t0;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(isPlant(response.json), `${response.text}: ${JSON.stringify(isPlant.errors)}`).toBe(true);
    expect(response.text).not.toBe(JSON.stringify(shipped.scenarios['slow-create'].body));
    // slow-create waits 3000 ms; an answer well inside that cannot have been it.
    expect(elapsed).toBeLessThan(1_500);
  });

  it('Prefer: code=418 is a 422 problem listing the documented statuses', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=418' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual({
      ...unprocessable('Prefer: code=418 is not documented for POST /plants; documented statuses: 200, 400'),
      documentedStatuses: ['200', '400'],
    });
  });

  it('Prefer: code=abc is a 422 problem, not a silent default', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=abc' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual(unprocessable('Prefer: code=abc is not an HTTP status code'));
  });

  it('Prefer: example=duplicate-id answers that scenario, never a 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'example=duplicate-id' });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-mock-scenario')).toBe('duplicate-id');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios['duplicate-id'].body));
  });

  it('Prefer: code=400, example=unknown-tag answers that scenario, not the first 400 fixture', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=400, example=unknown-tag' });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-mock-scenario')).toBe('unknown-tag');
    expect(response.text).toBe(JSON.stringify(shipped.scenarios['unknown-tag'].body));
  });

  it('Prefer: code=200, example=duplicate-id (a 400 scenario) is a 422 problem listing the names for 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'code=200, example=duplicate-id' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    expect(response.json).toEqual({
      ...unprocessable('no example or scenario "duplicate-id" answers 200 for POST /plants; known for 200: slow-create'),
      knownExamples: ['slow-create'],
    });
  });

  it('Prefer: example=<unknown> is a 422 problem listing the known names, never a 200', async () => {
    const response = await createPlant(stub.url, VALID, { prefer: 'example=no-such-example' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe(PROBLEM_TYPE);
    // The plant store documents no examples, so the known names are the scenarios.
    expect(response.json).toEqual({
      ...unprocessable(`unknown example "no-such-example" for POST /plants; known examples and scenarios: ${SHIPPED_NAMES.join(', ')}`),
      knownExamples: SHIPPED_NAMES,
    });
  });

  it('Prefer: dynamic=true answers generated data valid against Plant', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await createPlant(stub.url, `{"id":${i},"name":"Ficus"}`, { prefer: 'dynamic=true' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-mock-scenario')).toBe('generated');
      expect(isPlant(response.json), `${response.text}: ${JSON.stringify(isPlant.errors)}`).toBe(true);
    }
  });

  it('GET /__admin/scenarios lists the POST /plants scenarios with name and status', async () => {
    const response = await request(`${stub.url}/__admin/scenarios`);
    expect(response.status).toBe(200);
    const operation = response.json.operations.find((entry: { operation: string }) => entry.operation === 'POST /plants');
    expect(operation).toBeDefined();
    expect(operation.scenarios.map(({ name, status }: { name: string; status: number }) => ({ name, status }))).toEqual(
      SHIPPED_NAMES.map((name) => ({ name, status: shipped.scenarios[name].status })),
    );
    expect(response.json.sticky).toBeNull();
  });
});

describe('sticky scenarios through /__admin/scenario', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await start({ spec: SPEC, fixtures: FIXTURES });
  });

  const putSticky = (name: string) =>
    request(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });

  it('a sticky scenario answers plain requests, yields to a request\'s own selection, and clears', async () => {
    expect((await createPlant(stub.url, VALID)).headers.get('x-mock-scenario')).toBe('echo');

    const put = await putSticky('unknown-tag');
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ sticky: 'unknown-tag' });

    for (let i = 0; i < 2; i++) {
      const plain = await createPlant(stub.url, VALID);
      expect(plain.status).toBe(400);
      expect(plain.headers.get('x-mock-scenario')).toBe('unknown-tag');
      expect(plain.text).toBe(JSON.stringify(shipped.scenarios['unknown-tag'].body));
    }
    const own = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id' });
    expect(own.headers.get('x-mock-scenario')).toBe('duplicate-id');
    expect(own.text).toBe(JSON.stringify(shipped.scenarios['duplicate-id'].body));
    const preferred = await createPlant(stub.url, VALID, { prefer: 'dynamic=true' });
    expect(preferred.status).toBe(200);
    expect(preferred.headers.get('x-mock-scenario')).toBe('generated');
    // Validation still comes first.
    expect((await createPlant(stub.url, '{}')).text).toBe('{"error":400,"message":"/name: is required; /id: is required"}');
    expect((await request(`${stub.url}/__admin/scenarios`)).json.sticky).toBe('unknown-tag');

    const cleared = await request(`${stub.url}/__admin/scenario`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    const after = await createPlant(stub.url, VALID);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-mock-scenario')).toBe('echo');
    expect(after.text).toBe('{"name":"Ficus","tag":"fig"}');
  });

  it('PUT with an unknown name is a 404 problem listing the names, and changes nothing', async () => {
    const response = await putSticky('no-such-scenario');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(ADMIN_PROBLEM_TYPE);
    expect(response.json).toMatchObject({ status: 404, knownScenarios: SHIPPED_NAMES });
    expect(response.json.detail).toContain('no-such-scenario');
    expect((await createPlant(stub.url, VALID)).headers.get('x-mock-scenario')).toBe('echo');
  });

  it('PUT without a name is a 400 problem', async () => {
    const response = await request(`${stub.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(ADMIN_PROBLEM_TYPE);
  });
});

// Prefer: code=N picks a fixture with that status, but never one that scripts a delay or a fault:
// those are served only when asked for by name. Past them: the documented example, else generated.
describe('Prefer: code=N skips fixtures that script a delay or a fault', () => {
  const SLOW_MS = 1_500;
  // Delayed and faulted fixtures come first, so a first-match rule would pick them.
  const FIXTURE = `operation: POST /plants
scenarios:
  slow-ok: {status: 200, delay: ${SLOW_MS}, body: {name: Slow}}
  reset-ok: {status: 200, fault: reset, body: {name: Reset}}
  quick-ok: {status: 200, body: {name: Quick, tag: ok}}
  slow-error: {status: 400, delay: ${SLOW_MS}, body: {error: 1, message: slow}}
  closed-error: {status: 400, fault: close, body: {error: 2, message: closed}}
`;
  const ERROR_REF = "                $ref: '#/components/schemas/Error'\n";
  let stub: RunningStub;

  beforeAll(async () => {
    const dir = await tempDir();
    const spec = await readFile(SPEC, 'utf8');
    expect(spec.split(ERROR_REF)).toHaveLength(2);
    // The plant store with a documented example for its 400 response.
    await writeFile(join(dir, 'openapi.yaml'), spec.replace(ERROR_REF, `${ERROR_REF}              example: {error: 9, message: documented}\n`));
    await mkdir(join(dir, 'fixtures'));
    await writeFile(join(dir, 'fixtures', 'plants.yaml'), FIXTURE);
    stub = await start({ spec: join(dir, 'openapi.yaml'), fixtures: join(dir, 'fixtures') });
  });

  // Prefer -> status, X-Mock-Scenario, exact body; every one answered at once.
  const cases: Array<[string, string, number, string, string]> = [
    ['code=200 passes the delayed and the faulted 200 fixtures and answers the plain one', 'code=200', 200, 'quick-ok', '{"name":"Quick","tag":"ok"}'],
    ['code=400 passes the delayed and the faulted 400 fixtures and answers the documented example', 'code=400', 400, 'example:default', '{"error":9,"message":"documented"}'],
  ];

  it.each(cases)('Prefer: %s', async (_name, prefer, status, label, body) => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { prefer });
    const elapsed = performance.now() - t0;
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-mock-scenario')).toBe(label);
    expect(response.text).toBe(body);
    expect(elapsed).toBeLessThan(SLOW_MS - 500);
  });

  it('the delayed fixture is still served when asked for by name, after its delay', async () => {
    const t0 = performance.now();
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'slow-ok' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(SLOW_MS);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('slow-ok');
    expect(response.text).toBe('{"name":"Slow"}');
  });

  it('the faulted fixture is still served when asked for by name: the connection is reset', async () => {
    await expect(createPlant(stub.url, VALID, { 'x-mock-scenario': 'reset-ok' })).rejects.toThrow(TypeError);
    // And the server goes on serving.
    const after = await createPlant(stub.url, VALID, { prefer: 'code=200' });
    expect(after.headers.get('x-mock-scenario')).toBe('quick-ok');
  });
});
