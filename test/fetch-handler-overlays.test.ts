// The fetch handler's `overlays` (issue 33): overlays given as text or as objects, applied to the
// document as the server applies its --overlay files, so a page or MSW serves the corrected
// document. A table of requests answered alike by the server (overlay files) and the handler
// (the same overlays as values), then what is the handler's own: its errors name `overlays[i]`,
// a target matching nothing is a warning, and the caller's document object is left as it was.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { ConfigError, createFetchHandler, type FetchHandler } from '../src/fetch.js';
import { comparable, requestInit, type RuntimeCase } from './helpers/runtime-cases.js';

const SPEC = join(import.meta.dirname, 'specs', 'people-directory.yaml');
const BASE = 'http://people.test';
const JSON_BODY = { 'content-type': 'application/json' };

/** As text: hints the stateful cases show taking effect. */
const HINTS = `overlay: 1.0.0
info: { title: People directory hints, version: 1.0.0 }
actions:
  - target: $.components.schemas.Person.properties.handle
    update: { x-stub-id: true }
  - target: "$.paths['/sessions']"
    update: { x-stub-resource: false }
  - target: "$.paths['/people/{login}'].get.responses['200']"
    update: { x-stub-example: bob }
`;

/** As an object: a path taken away and a bound tightened. */
const CORRECTIONS = {
  overlay: '1.0.0',
  info: { title: 'People directory corrections', version: '1.0.0' },
  actions: [
    { target: "$.paths['/people/{login}/badge']", remove: true },
    { target: '$.components.schemas.NewPerson.properties.handle', update: { maxLength: 5 } },
  ],
};

/** Answered alike over HTTP and by the handler, in order (one store each). */
const CASES: RuntimeCase[] = [
  { name: 'creates a person, keyed by the handle x-stub-id names', method: 'POST', path: '/people', headers: JSON_BODY, body: '{"handle": "ada", "email": "ada@example.com"}', status: 201, bodyHolds: '"handle":"ada"' },
  { name: 'reads the person back by the handle', method: 'GET', path: '/people/ada', status: 200, bodyHolds: '"email":"ada@example.com"' },
  { name: 'refuses a handle past the maxLength the object overlay set', method: 'POST', path: '/people', headers: JSON_BODY, body: '{"handle": "grace-hopper", "email": "g@example.com"}', status: 400, bodyHolds: '/handle' },
  { name: 'answers 404 for the path the object overlay removed', method: 'GET', path: '/people/ada/badge', status: 404 },
  { name: 'answers a session from its example: x-stub-resource: false left it stateless', method: 'GET', path: '/sessions/tok_9', status: 200, bodyHolds: '"token":"tok_9"' },
];

let dir: string;
let server: RunningStub;
let handle: FetchHandler;
let document: object;
let warned: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-fetch-overlays-'));
  const files = [join(dir, 'hints.yaml'), join(dir, 'corrections.json')];
  await writeFile(files[0], HINTS);
  await writeFile(files[1], JSON.stringify(CORRECTIONS));
  server = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), overlays: files, stateful: true, port: 0, watch: false, log: false });
  document = load(readFileSync(SPEC, 'utf8')) as object;
  warned = [];
  handle = await createFetchHandler({ document, overlays: [HINTS, CORRECTIONS], stateful: true, baseUrl: BASE, log: (line) => warned.push(line) });
});
afterAll(async () => {
  await server?.close(500);
  await rm(dir, { recursive: true, force: true });
});

describe('the fetch handler with overlays, beside the server with the same overlay files', () => {
  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const overHttp = await comparable(await fetch(server.url + testCase.path, requestInit(testCase)));
    const inProcess = await comparable((await handle(new Request(BASE + testCase.path, requestInit(testCase))))!);
    expect(overHttp.status).toBe(testCase.status);
    if (testCase.bodyHolds) expect(overHttp.body).toContain(testCase.bodyHolds);
    expect(inProcess).toEqual(overHttp);
  });

  it('answers the example x-stub-example names (not stateful: the handler without stateful mode)', async () => {
    const plain = await createFetchHandler({ document, overlays: [HINTS], log: () => {} });
    const answer = (await plain(new Request(`${BASE}/people/bob`)))!;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('example:bob');
    expect(await answer.json()).toEqual({ id: 8, handle: 'bob', email: 'bob@example.com', joinedAt: '2025-06-07T08:09:10Z' });
  });

  it('leaves the document object it was given as it was', () => {
    expect(document).toEqual(load(readFileSync(SPEC, 'utf8')));
  });
});

describe("the fetch handler's overlays, refused or warned of", () => {
  it('warns of a target that selects nothing, naming overlays[i] and the action', async () => {
    const lines: string[] = [];
    const stray = { overlay: '1.0.0', info: { title: 'stray', version: '1' }, actions: [{ target: "$.paths['/trees']", update: { summary: 'x' } }] };
    const stub = await createFetchHandler({ document, overlays: [HINTS, stray], log: (line) => lines.push(line) });
    expect(lines).toContain("warning: overlays[1]: /actions/0: the target $.paths['/trees'] selects nothing in the document; the action changed nothing");
    expect((await stub(new Request(`${BASE}/people/bob`)))!.status).toBe(200);
  });

  it.each([
    { says: 'overlays that are no list', overlays: 'hints.yaml', message: 'overlays: must be an array of overlays, each its text or its parsed content ({ overlay: 1.0.0, info, actions })' },
    { says: 'an action with both update and remove, by its index', overlays: [HINTS, { overlay: '1.0.0', info: { title: 'x', version: '1' }, actions: [{ target: '$.info', update: {}, remove: true }] }], message: 'overlays[1]: /actions/0: has both update and remove: true; an action does one' },
    { says: 'an overlay text that is not YAML', overlays: ['overlay: [1.0.0'], message: expect.stringMatching(/^overlays\[0\]: /) },
    {
      says: 'a wrong hint the overlay adds, by its pointer in the document',
      overlays: [{ overlay: '1.0.0', info: { title: 'x', version: '1' }, actions: [{ target: '$.components.schemas.Person.properties.handle', update: { 'x-stub-ids': true } }] }],
      message: 'document: /components/schemas/Person/properties/handle/x-stub-ids: unknown hint (did you mean "x-stub-id"?); the hints are x-stub-resource, x-stub-id, x-stub-generate, x-stub-server-set, x-stub-example',
    },
    { says: 'overlays beside several documents', overlays: [HINTS], documents: true, message: 'overlays: apply to `document`; with `documents`, give each document already corrected' },
  ])('refuses $says with a ConfigError naming it', async ({ overlays, message, documents }) => {
    const given = documents ? { documents: [{ document, mount: '/a' }, { document, mount: '/b' }] } : { document };
    const failure = await createFetchHandler({ ...given, overlays: overlays as never, log: () => {} }).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toEqual(message);
  });
});
