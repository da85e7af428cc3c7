// The x-stub-* hints (issue 33): corrections to what the stub infers, added here by an overlay to a
// document that holds none (test/specs/people-directory.yaml). Each hint is shown taking effect
// over HTTP, the same request answered before and after the overlay; each wrong hint stops the
// start with the document, the hint's JSON pointer and the nearest right name.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, startStub, type RunningStub } from '../src/index.js';
import { post, request, type TestResponse } from './helpers/http.js';
import { runCli, startCli } from './helpers/cli.js';
import { UUID } from './helpers/plant.js';
import { codeBlocks } from './helpers/doc-examples.js';

const SPEC = join(import.meta.dirname, 'specs', 'people-directory.yaml');
const JSON_BODY = { 'content-type': 'application/json' };
let dir: string;
const started: RunningStub[] = [];

const HINTS = `overlay: 1.0.0
info: { title: People directory hints, version: 1.0.0 }
actions:
  - target: $.components.schemas.Person.properties.handle
    update: { x-stub-id: true }
  - target: $.components.schemas.Person.properties.joinedAt
    update: { x-stub-server-set: true }
  - target: "$.paths['/people']"
    update: { x-stub-resource: { name: members } }
  - target: "$.paths['/sessions']"
    update: { x-stub-resource: false }
  - target: "$.paths['/people/{login}'].get.responses['200']"
    update: { x-stub-example: bob }
  - target: "$.paths['/people'].post.responses['201']"
    update: { x-stub-example: waitlisted }
  - target: "$.paths['/people/{login}/badge'].get.responses['200'].content['application/json'].schema.properties.code"
    update: { x-stub-generate: string.uuid }
  - target: "$.paths['/people/{login}/badge'].get.responses['200'].content['application/json'].schema.properties.level"
    update: { x-stub-generate: { number.int: { min: 7, max: 7 } } }
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-hints-'));
});
afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await rm(dir, { recursive: true, force: true });
});

async function overlayFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function start(overlays: string[], stateful: boolean): Promise<RunningStub> {
  const stub = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), port: 0, watch: false, log: false, stateful, overlays });
  started.push(stub);
  return stub;
}

/** What a case compares: status, the headers it names, and the body. */
function seen(response: TestResponse, headers: string[] = []): { status: number; headers: Record<string, string | null>; body: unknown } {
  return { status: response.status, headers: Object.fromEntries(headers.map((name) => [name, response.headers.get(name)])), body: response.json ?? response.text };
}

interface EffectCase {
  hint: string;
  stateful: boolean;
  /** The requests, against a fresh stub of the mode; what the last answered is compared. */
  run: (url: string) => Promise<ReturnType<typeof seen>>;
  before: unknown;
  after: unknown;
}

const ada = { handle: 'ada', email: 'ada@example.com', joinedAt: '1999-12-31T23:59:59Z' };

const EFFECTS: EffectCase[] = [
  {
    hint: 'x-stub-id: true on Person.handle keys people by the handle their path reads',
    stateful: true,
    run: async (url) => {
      await post(`${url}/people`, ada, JSON_BODY);
      return seen(await request(`${url}/people/ada`), ['content-type']);
    },
    // The document's 404 has no content: the stub answers it bare.
    before: { status: 404, headers: { 'content-type': null }, body: '' },
    after: { status: 200, headers: { 'content-type': 'application/json' }, body: expect.objectContaining({ handle: 'ada', email: 'ada@example.com' }) },
  },
  {
    hint: "x-stub-server-set: true on Person.joinedAt keeps the server's value from create, whatever the client sent",
    stateful: true,
    run: async (url) => {
      const created = await post(`${url}/people`, ada, JSON_BODY);
      // Read back by whatever keys the item, before the hints and after.
      const id = created.json[(await request(`${url}/__admin/resources`)).json.resources[0].idProperty];
      await request(`${url}/people/${id}`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify({ ...ada, joinedAt: '2000-01-01T00:00:00Z' }) });
      const read = await request(`${url}/people/${id}`);
      return { ...seen(read, ['content-type']), body: read.json.joinedAt };
    },
    before: { status: 200, headers: { 'content-type': 'application/json' }, body: '2000-01-01T00:00:00Z' },
    // Made at create from the create's default example (x-stub-example: waitlisted), kept through the PUT.
    after: { status: 200, headers: { 'content-type': 'application/json' }, body: '2026-02-03T04:05:06Z' },
  },
  {
    hint: 'x-stub-resource: { name } names the resource in the admin API',
    stateful: true,
    run: async (url) => {
      await post(`${url}/people`, ada, JSON_BODY);
      const report = await request(`${url}/__admin/resources`);
      return { ...seen(report, ['content-type']), body: report.json.resources.map((r: { name: string; collection: string; nameFrom: string }) => [r.name, r.collection, r.nameFrom]) };
    },
    before: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: [['people', '/people', 'inferred'], ['sessions', '/sessions', 'inferred']] },
    after: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: [['members', '/people', 'x-stub-resource at /paths/~1people/x-stub-resource']] },
  },
  {
    hint: 'x-stub-resource: false on /sessions answers its paths as without stateful mode',
    stateful: true,
    run: async (url) => seen(await request(`${url}/sessions/tok_9`), ['content-type', 'x-mock-scenario']),
    before: { status: 404, headers: { 'content-type': null, 'x-mock-scenario': null }, body: '' },
    after: { status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'example:default' }, body: { token: 'tok_9', handle: 'ada' } },
  },
  {
    hint: 'x-stub-example: bob on GET /people/{login} 200 answers bob by default',
    stateful: false,
    run: async (url) => seen(await request(`${url}/people/bob`), ['content-type', 'x-mock-scenario']),
    before: { status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'example:alice' }, body: expect.objectContaining({ id: 7, email: 'alice@example.com' }) },
    after: { status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'example:bob' }, body: { id: 8, handle: 'bob', email: 'bob@example.com', joinedAt: '2025-06-07T08:09:10Z' } },
  },
  {
    hint: 'x-stub-example: waitlisted on POST /people 201 answers that example rather than the echo',
    stateful: false,
    run: async (url) => seen(await post(`${url}/people`, ada, JSON_BODY), ['content-type', 'x-mock-scenario']),
    // The echo fills what the client did not send (`id`) from the first example; the hinted
    // example, like any default one, takes the fields an RPC-style request sent.
    before: { status: 201, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'echo' }, body: { id: 1, ...ada } },
    after: { status: 201, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'example:waitlisted' }, body: { id: 2, ...ada } },
  },
  {
    hint: "x-stub-generate names the faker method a property's generated value comes from",
    stateful: false,
    run: async (url) => {
      const badge = await request(`${url}/people/ada/badge`);
      return { ...seen(badge, ['content-type', 'x-mock-scenario']), body: { uuid: UUID.test(badge.json.code), level: badge.json.level } };
    },
    before: { status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'generated' }, body: { uuid: false, level: expect.any(Number) } },
    after: { status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'generated' }, body: { uuid: true, level: 7 } },
  },
];

describe('x-stub-* hints taking effect', () => {
  let hints: string;
  beforeAll(async () => {
    hints = await overlayFile('hints.yaml', HINTS);
  });

  it.each(EFFECTS)('$hint', async ({ stateful, run, before, after }) => {
    const [plain, hinted] = await Promise.all([start([], stateful), start([hints], stateful)]);
    expect(await run(plain.url)).toEqual(before);
    expect(await run(hinted.url)).toEqual(after);
  });

  it('GET /__admin/resources says which hint decided a resource\'s name, id and server-set fields, and why a pair is stateless', async () => {
    const stub = await start([hints], true);
    const report = await request(`${stub.url}/__admin/resources`);
    expect(report.status).toBe(200);
    expect(report.json.resources).toHaveLength(1);
    expect(report.json.resources[0]).toMatchObject({
      name: 'members', collection: '/people', item: '/people/{login}', idProperty: 'handle', idKind: 'string',
      nameFrom: 'x-stub-resource at /paths/~1people/x-stub-resource',
      idFrom: 'x-stub-id at /components/schemas/Person/properties/handle/x-stub-id',
      serverSetFrom: { joinedAt: 'x-stub-server-set at /components/schemas/Person/properties/joinedAt/x-stub-server-set' },
    });
    expect(report.json.resources[0].serverFields).toContain('joinedAt');
    expect(report.json.stateless).toEqual([{ collection: '/sessions', item: '/sessions/{token}', reason: 'x-stub-resource at /paths/~1sessions/x-stub-resource says never stateful' }]);
    // The items are listed under the hinted name.
    await post(`${stub.url}/people`, ada, JSON_BODY);
    const items = await request(`${stub.url}/__admin/resources/members/items`);
    expect(items.status).toBe(200);
    expect(JSON.stringify(items.json)).toContain('"handle":"ada"');
  });

  it('an operation\'s x-stub-resource: false leaves that operation out of stateful mode', async () => {
    const overlay = await overlayFile('keep-delete.yaml', `overlay: 1.0.0
info: { title: deletes are not kept, version: 1.0.0 }
actions:
  - target: "$.paths['/people/{login}'].delete"
    update: { x-stub-resource: false }
`);
    const stub = await start([overlay], true);
    const created = await post(`${stub.url}/people`, ada, JSON_BODY);
    const id = created.json.id;
    expect((await request(`${stub.url}/people/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(`${stub.url}/people/${id}`)).status).toBe(200);
    const report = (await request(`${stub.url}/__admin/resources`)).json.resources.find((r: { collection: string }) => r.collection === '/people');
    expect(report.operations.delete).toBeUndefined();
  });

  it('the start line counts the resources hints shaped', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--stateful', '--spec', SPEC, '--overlay', hints, '--fixtures', join(dir, 'none')]);
    try {
      expect(cli.stdout().split('\n').map((line) => line.trim())).toContain('stateful: 1 resource (1 shaped by x-stub-* hints); 1 path pair left stateless, see /__admin/resources');
    } finally {
      await cli.stop();
    }
  });
});

interface RefusedCase {
  says: string;
  target: string;
  update: string;
  pointer: string;
  problem: string;
}

const REFUSED: RefusedCase[] = [
  {
    says: 'an unknown hint, with the nearest one',
    target: '$.components.schemas.Person.properties.handle', update: '{ x-stub-ids: true }',
    pointer: '/components/schemas/Person/properties/handle/x-stub-ids',
    problem: 'unknown hint (did you mean "x-stub-id"?); the hints are x-stub-resource, x-stub-id, x-stub-generate, x-stub-server-set, x-stub-example',
  },
  {
    says: 'a value of the wrong type',
    target: '$.components.schemas.Person.properties.joinedAt', update: '{ x-stub-server-set: "yes" }',
    pointer: '/components/schemas/Person/properties/joinedAt/x-stub-server-set', problem: 'must be true or false, not "yes"',
  },
  {
    says: 'a hint where it means nothing',
    target: "$.paths['/people'].post", update: '{ x-stub-id: true }',
    pointer: '/paths/~1people/post/x-stub-id', problem: 'x-stub-id is written on a schema property, not on an operation',
  },
  {
    says: 'an id property the items do not have',
    target: "$.paths['/people']", update: '{ x-stub-resource: { idProperty: handel } }',
    pointer: '/paths/~1people/x-stub-resource', problem: 'idProperty "handel" is no property of the items (did you mean "handle"?); they have id, handle, email, joinedAt',
  },
  {
    says: 'an unknown field of x-stub-resource',
    target: "$.paths['/people/{login}'].get", update: '{ x-stub-resource: { nmae: members } }',
    pointer: '/paths/~1people~1{login}/get/x-stub-resource', problem: 'unknown field "nmae" (did you mean "name"?); it takes name, idProperty',
  },
  {
    says: 'x-stub-resource: true, which means nothing',
    target: "$.paths['/sessions']", update: '{ x-stub-resource: true }',
    pointer: '/paths/~1sessions/x-stub-resource', problem: 'must be false (never stateful) or { name, idProperty }, not true',
  },
  {
    says: 'an example the response does not have',
    target: "$.paths['/people/{login}'].get.responses['200']", update: '{ x-stub-example: bobb }',
    pointer: '/paths/~1people~1{login}/get/responses/200/x-stub-example', problem: 'the response has no example "bobb" (did you mean "bob"?); its examples: alice, bob',
  },
  {
    says: 'a faker method faker lacks',
    target: '$.components.schemas.Person.properties.email', update: '{ x-stub-generate: internet.emial }',
    pointer: '/components/schemas/Person/properties/email/x-stub-generate',
    problem: 'faker has no method "internet.emial" (did you mean "internet.email"?); write it as faker\'s module and method: \'person.fullName\', \'internet.email\'',
  },
];

describe('a wrong x-stub-* hint stops the start', () => {
  it.each(REFUSED)('$says: names the document, the pointer and the nearest right name', async ({ target, update, pointer, problem }) => {
    const overlay = await overlayFile('wrong.yaml', `overlay: 1.0.0\ninfo: { title: wrong, version: 1.0.0 }\nactions:\n  - target: "${target.replace(/"/g, '\\"')}"\n    update: ${update}\n`);
    const failure = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), port: 0, watch: false, log: false, overlays: [overlay] }).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toBe(`${SPEC}: ${pointer}: ${problem}`);
  });

  it('two hints giving one resource two names, naming both', async () => {
    const overlay = await overlayFile('two-names.yaml', `overlay: 1.0.0
info: { title: two names, version: 1.0.0 }
actions:
  - target: "$.paths['/people']"
    update: { x-stub-resource: { name: members } }
  - target: "$.paths['/people/{login}']"
    update: { x-stub-resource: { name: folks } }
`);
    const failure = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), port: 0, watch: false, log: false, stateful: true, overlays: [overlay] }).then(() => null, (error: unknown) => error);
    expect((failure as ConfigError).message).toBe(`${SPEC}: /paths/~1people~1{login}/x-stub-resource/name: "folks" differs from "members" given to the same resource by x-stub-resource at /paths/~1people/x-stub-resource; give it once`);
  });

  it('from the command line: exits 2 with one line naming the document and the pointer', async () => {
    const overlay = await overlayFile('wrong-cli.yaml', `overlay: 1.0.0
info: { title: wrong, version: 1.0.0 }
actions:
  - target: $.components.schemas.Person.properties.handle
    update: { x-stub-ids: true }
`);
    const run = await runCli(['--port', '0', '--no-watch', '--spec', SPEC, '--overlay', overlay, '--fixtures', join(dir, 'none')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${SPEC}: /components/schemas/Person/properties/handle/x-stub-ids: unknown hint (did you mean "x-stub-id"?)`);
    expect(run.stdout).not.toContain('listening');
  });
});

describe('docs/serving-documents.md, the hints', () => {
  it('runs the page\'s hints.yaml as printed, and prints the refusal the stub writes', async () => {
    const blocks = await codeBlocks('serving-documents.md');
    const printed = blocks.find(({ text }) => text.startsWith('# hints.yaml'))!.text;
    const stub = await start([await overlayFile('printed-hints.yaml', printed)], true);
    expect((await post(`${stub.url}/people`, ada, JSON_BODY)).status).toBe(201);
    expect((await request(`${stub.url}/people/ada`)).json).toMatchObject({ handle: 'ada' });
    expect((await request(`${stub.url}/__admin/resources`)).json.stateless).toEqual([expect.objectContaining({ collection: '/sessions' })]);
    const refusal = blocks.find(({ text }) => text.startsWith('people.yaml: '))!.text.trim();
    const wrong = await overlayFile('printed-wrong.yaml', 'overlay: 1.0.0\ninfo: { title: wrong, version: 1.0.0 }\nactions:\n  - target: $.components.schemas.Person.properties.handle\n    update: { x-stub-ids: true }\n');
    const failure = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), port: 0, watch: false, log: false, overlays: [wrong] }).then(() => null, (error: unknown) => error);
    expect((failure as ConfigError).message).toBe(refusal.replace('people.yaml', SPEC));
  });
});
