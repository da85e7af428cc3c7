// openApiHandlers in Node through MSW's setupServer: the client contract test of docs/in-your-tests.md runs with
// its test cases unchanged but without a port (MSW answers this process's fetch calls), the
// runtime table gets the HTTP server's bytes, and requests the document has no operation for go
// on to the network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http as route, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { openApiHandlers } from '../src/msw.js';
import type { FetchHandler } from '../src/fetch.js';
import { startStub, type RunningStub } from '../src/index.js';
import { createPlant } from '../examples/plant-client.js';
import { comparable, requestInit, PLANT_STORE_CASES } from './helpers/runtime-cases.js';

const ROOT = join(import.meta.dirname, '..');
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

let server: ReturnType<typeof setupServer>;
let stub: FetchHandler;
let http: RunningStub; // the HTTP server, to compare with and to reach through MSW
beforeAll(async () => {
  const handlers = await openApiHandlers({
    document: text('openapi.yaml'),
    fixtures: [text('fixtures/create-plant.yaml')],
    baseUrl: 'https://plant-store.test',
    seed: 7,
  });
  stub = handlers.stub;
  // After the stub's handlers, one of the application's own, for a path the document lacks.
  server = setupServer(...handlers, route.get('https://plant-store.test/elsewhere', () => HttpResponse.text('mine')));
  server.listen({ onUnhandledRequest: 'bypass' });
  http = await startStub({ spec: join(ROOT, 'openapi.yaml'), fixtures: join(ROOT, 'fixtures'), seed: 7, port: 0, watch: false });
});
beforeEach(() => stub.reset());
afterAll(async () => {
  server?.close();
  await http?.close();
});

// From here to the describe below: the test cases docs/in-your-tests.md prints, unchanged.
it('createPlant posts the plant with the token and returns the created plant', async () => {
  const plant = await createPlant(stub.url, 'secret', { id: 7, name: 'Fern', tag: 'fern' });
  expect(plant).toEqual({ name: 'Fern', tag: 'fern' });
  const [sent] = stub.requests({ method: 'POST', path: '/plants' });
  expect(sent).toMatchObject({ body: { id: 7, name: 'Fern', tag: 'fern' }, status: 200, violations: [] });
  expect(sent.headers.authorization).toBe('Bearer [redacted]');
});

it('createPlant turns a duplicate id into an error with the API code', async () => {
  stub.useScenario('duplicate-id');
  await expect(createPlant(stub.url, 'secret', { id: 7, name: 'Fern' }))
    .rejects.toMatchObject({ status: 400, code: 1001, message: 'A plant with this id already exists' });
  stub.clearScenario();
  const [operation] = stub.coverage().operations;
  expect(operation.scenarios.find((s) => s.name === 'duplicate-id')?.exercised).toBe(true);
  expect(operation.scenarios.filter((s) => !s.exercised).map((s) => s.name))
    .toEqual(['unknown-tag', 'name-too-long', 'slow-create']); // error paths the client never tried
});

describe('MSW in Node', () => {
  it("runs the test cases as docs/in-your-tests.md prints them, as docs/runtimes.md's example does", () => {
    const cases = (source: string) => source.slice(source.indexOf("it('createPlant posts"), source.indexOf('error paths the client never tried'));
    const readme = text('docs/in-your-tests.md');
    expect(cases(readme).length).toBeGreaterThan(500);
    expect(cases(text('test/msw-node.test.ts'))).toBe(cases(readme));
    expect(cases(text('docs/runtimes.md'))).toBe(cases(readme));
  });

  // A path the document lacks goes on to the next handler under MSW (below), not to the stub's 404.
  it.each(PLANT_STORE_CASES.filter((testCase) => testCase.status !== 404).map((testCase) => [testCase.name, testCase] as const))('%s, with the HTTP server\'s bytes', async (_name, testCase) => {
    const overHttp = await comparable(await fetch(http.url + testCase.path, requestInit(testCase)));
    const throughMsw = await comparable(await fetch(stub.url + testCase.path, requestInit(testCase)));
    expect(overHttp.status).toBe(testCase.status);
    expect(throughMsw).toEqual(overHttp);
  });

  it('lets a request for a path the document lacks through to the next handler', async () => {
    const answer = await fetch(`${stub.url}/elsewhere`);
    expect(await answer.text()).toBe('mine');
    expect(stub.requests()).toEqual([]);
  });

  it('lets a request for another origin through to the network', async () => {
    const answer = await fetch(`${http.url}/__admin/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ok' });
    expect(stub.requests()).toEqual([]);
  });
});
