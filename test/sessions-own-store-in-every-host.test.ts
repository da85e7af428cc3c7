// Stateful mode gives a named session (X-Mock-Session) a store of its own, seeded as the shared
// one and capped, in every host alike: the server (startStub over HTTP) and the fetch handler
// (a Request in, a Response out) assemble the same core, so one table of cases runs against both
// and each step must get the same status, headers and body from each. Also the same first-data
// check at start: a seed over the store's cap is refused by both, in the same words.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createFetchHandler } from '../src/fetch.js';

const ROOT = join(import.meta.dirname, '..');
const SPEC = join(ROOT, 'test', 'specs', 'plant-store-full.yaml');
const FIXTURES = join(ROOT, 'test', 'specs', 'plant-store-full-fixtures');
const BASE = 'http://plants.test';
const quiet = { log: () => {} };

interface Answer {
  status: number;
  contentType: string | null;
  scenario: string | null;
  body: string;
}

/** One host, as a test sees it: a request sent, and the session control both hosts hand out. */
interface Host {
  send(method: string, path: string, session?: string, body?: object): Promise<Answer>;
  forgetSession(name: string): void;
  reset(options?: { state?: boolean }): Promise<void>;
  close(): Promise<void>;
}

const requestInit = (method: string, session?: string, body?: object): RequestInit => ({
  method,
  headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...(session ? { 'x-mock-session': session } : {}) },
  body: body && JSON.stringify(body),
});

const read = async (response: Response): Promise<Answer> => ({
  status: response.status,
  contentType: response.headers.get('content-type'),
  scenario: response.headers.get('x-mock-scenario'),
  body: await response.text(),
});

type Options = { stateful: true; seed: number; maxStateBytes?: number; seedItems?: number };

const HOSTS: Record<string, (options: Options) => Promise<Host>> = {
  'the server over HTTP': async (options) => {
    const server: RunningStub = await startStub({ ...options, spec: SPEC, fixtures: FIXTURES, port: 0, host: '127.0.0.1', watch: false, ...quiet });
    return {
      send: async (method, path, session, body) => read(await fetch(server.url + path, requestInit(method, session, body))),
      forgetSession: (name) => server.session(name).reset(),
      reset: (options) => server.reset(options),
      close: () => server.close(),
    };
  },
  'the fetch handler': async (options) => {
    const fixtures = [readFileSync(join(FIXTURES, 'add-plant.yaml'), 'utf8')];
    const handle = await createFetchHandler({ ...options, document: readFileSync(SPEC, 'utf8'), fixtures, baseUrl: BASE, ...quiet });
    return {
      send: async (method, path, session, body) => read((await handle(new Request(BASE + path, requestInit(method, session, body))))!),
      forgetSession: (name) => handle.session(name).reset(),
      reset: (options) => handle.reset(options),
      close: async () => {},
    };
  },
};

const fern = { id: 101, name: 'Fern' };
const big = (id: number) => ({ id, name: `plant ${id} ${'x'.repeat(60)}` });
const json = 'application/json';
const stored = (item: object): Partial<Answer> => ({ status: 200, contentType: json, scenario: 'state', body: JSON.stringify(item) });
const noItem = (id: number): Partial<Answer> => ({ status: 404, contentType: json, scenario: null, body: JSON.stringify({ error: 404, message: `/plants: no item with id ${id}` }) });

/** A request and what must come back, or a control call between requests. */
type Step =
  | { send: [method: string, path: string, session?: string, body?: object]; expect: Partial<Answer> | ((answer: Answer) => void) }
  | { forget: string }
  | { reset: true | 'state' };

const CASES: Array<{ title: string; options?: Partial<Options>; steps: Step[] }> = [
  {
    title: "a session's create is seen in that session only, not in another nor in the shared store",
    steps: [
      { send: ['POST', '/plants', 'a', fern], expect: stored(fern) },
      { send: ['GET', '/plants/101', 'a'], expect: stored(fern) },
      { send: ['GET', '/plants', 'a'], expect: stored([fern]) },
      { send: ['GET', '/plants/101', 'b'], expect: noItem(101) },
      { send: ['GET', '/plants/101'], expect: noItem(101) },
      { send: ['GET', '/plants', 'b'], expect: stored([]) },
    ],
  },
  {
    title: 'the same id is created in two sessions, each its own; a second create in one is refused there',
    steps: [
      { send: ['POST', '/plants', 'a', fern], expect: stored(fern) },
      { send: ['POST', '/plants', 'b', fern], expect: stored(fern) },
      { send: ['POST', '/plants', 'a', fern], expect: { status: 400, scenario: null, body: JSON.stringify({ error: 400, message: '/plants: an item with id 101 already exists' }) } },
    ],
  },
  {
    title: "the shared store's create is not in a session's store",
    steps: [
      { send: ['POST', '/plants', undefined, fern], expect: stored(fern) },
      { send: ['GET', '/plants/101', 'a'], expect: noItem(101) },
      { send: ['GET', '/plants/101'], expect: stored(fern) },
    ],
  },
  {
    title: "session(name).reset() forgets the session's store; reset() forgets every session's",
    steps: [
      { send: ['POST', '/plants', 'a', fern], expect: stored(fern) },
      { send: ['POST', '/plants', 'b', fern], expect: stored(fern) },
      { forget: 'a' },
      { send: ['GET', '/plants/101', 'a'], expect: noItem(101) },
      { send: ['GET', '/plants/101', 'b'], expect: stored(fern) },
      { reset: true },
      { send: ['GET', '/plants/101', 'b'], expect: noItem(101) },
    ],
  },
  {
    title: 'reset({ state: true }) also puts the shared store back to its seeded start; reset() alone keeps it',
    steps: [
      { send: ['POST', '/plants', undefined, fern], expect: stored(fern) },
      { reset: true },
      { send: ['GET', '/plants/101'], expect: stored(fern) },
      { reset: 'state' },
      { send: ['GET', '/plants/101'], expect: noItem(101) },
    ],
  },
  {
    title: "a session's store is capped as the shared one is: a create past maxStateBytes is 422 there, the shared store unaffected",
    options: { maxStateBytes: 200 },
    steps: [
      { send: ['POST', '/plants', 'a', big(1)], expect: { status: 200, scenario: 'state' } },
      { send: ['POST', '/plants', 'a', big(2)], expect: { status: 200, scenario: 'state' } },
      { send: ['POST', '/plants', 'a', big(3)], expect: (answer) => {
        expect(answer.status).toBe(422);
        expect(answer.contentType).toBe('application/problem+json');
        expect(JSON.parse(answer.body).detail).toMatch(/more than 200 bytes/);
      } },
      { send: ['GET', '/plants', 'a'], expect: stored([big(1), big(2)]) },
      { send: ['POST', '/plants', undefined, big(3)], expect: stored(big(3)) },
    ],
  },
];

describe.each(CASES)('$title', ({ options, steps }) => {
  const open: Host[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((host) => host.close()));
  });

  it('answers each step alike in the server and the fetch handler, as the table says', async () => {
    const hosts = await Promise.all(Object.values(HOSTS).map((start) => start({ stateful: true, seed: 4, ...options })));
    open.push(...hosts);
    for (const step of steps) {
      if ('forget' in step) hosts.forEach((host) => host.forgetSession(step.forget));
      else if ('reset' in step) await Promise.all(hosts.map((host) => host.reset({ state: step.reset === 'state' })));
      else {
        const [overHttp, inProcess] = await Promise.all(hosts.map((host) => host.send(...step.send)));
        expect(inProcess).toEqual(overHttp);
        if (typeof step.expect === 'function') step.expect(overHttp);
        else expect(overHttp).toMatchObject(step.expect);
      }
    }
  });
});

describe("stateful mode's first data checked alike at start", () => {
  it('refuses seed items over the store cap in the same words from startStub and createFetchHandler', async () => {
    const options = { stateful: true, seedItems: 20, maxStateBytes: 100, ...quiet };
    const refusal = (start: () => Promise<unknown>) => start().then(() => 'started', (error: Error) => error.message);
    const byServer = await refusal(() => startStub({ ...options, spec: SPEC, fixtures: FIXTURES, port: 0, watch: false }).then((stub) => stub.close()));
    const byHandler = await refusal(() => createFetchHandler({ ...options, document: readFileSync(SPEC, 'utf8') }));
    expect(byServer).toMatch(/^seedItems: the first data takes \d+ bytes, more than the 100 the store keeps/);
    expect(byHandler).toBe(byServer);
  });
});
