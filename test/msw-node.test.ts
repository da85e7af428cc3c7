// openApiHandlers in Node through MSW's setupServer: docs/runtimes.md's MSW example prints the
// client contract test's cases as docs/in-your-tests.md does (package-install.test.ts runs that
// example as printed, against the packed package; printed-contract-test.test.ts runs the cases
// against the server), the runtime table gets the HTTP server's bytes, and requests the document
// has no operation for go on to the network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http as route, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { openApiHandlers } from '../src/msw.js';
import type { FetchHandler } from '../src/fetch.js';
import { startStub, type RunningStub } from '../src/index.js';
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

describe('MSW in Node', () => {
  it("prints in docs/runtimes.md's example the test cases docs/in-your-tests.md prints", () => {
    const cases = (source: string) => source.slice(source.indexOf("it('createPlant posts"), source.indexOf('error paths the client never tried'));
    const printed = cases(text('docs/in-your-tests.md'));
    expect(printed.length).toBeGreaterThan(500);
    expect(cases(text('docs/runtimes.md'))).toBe(printed);
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
