// A stateful demo starts with data: each resource holds the items of its list operation's
// documented example (a bare array or an envelope's), and `seedItems` (`--seed-items N`) adds N
// generated items per resource, each valid, with its own id, readable by it. A state file that
// holds state wins over the seed; one that holds none (or is not there yet) is seeded. Shared
// stores too: --workers seeds the primary's store once; a Redis store seeds each resource once,
// only where it holds none of its items; the fetch handler's store is seeded as the server's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn } from './helpers/document-stub.js';
import { runCli, startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import type { StubOptions } from '../src/index.js';
import { createFetchHandler } from '../src/fetch.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const DOCUMENT = `
${documentHead('Seeded')}
  /plants:
    get:
      responses:
        '200':
          description: plants
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Plant' } }
              example: [{ id: 1, name: Monstera }, { id: 2, name: Fern }]
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } } }
  /plants/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: a plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '404': { description: none }
  /tasks:
    get:
      responses:
        '200':
          description: tasks
          content:
            application/json:
              schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Task' } } } }
              example: { data: [{ gid: '12345', name: Bug Task }] }
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } } }
  /tasks/{task_gid}:
    ${pathParameters('task_gid')}
    get:
      responses:
        '200': { description: a task, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } }
        '404': { description: none }
components:
  schemas:
    Plant:
      type: object
      required: [name]
      properties: { id: { type: integer, minimum: 1 }, name: { type: string, minLength: 1 } }
    Task:
      type: object
      properties: { gid: { type: string }, name: { type: string } }
`;

const cases: Array<{ name: string; options: StubOptions; plants: unknown[]; tasks: number }> = [
  { name: 'the list examples alone', options: {}, plants: [{ id: 1, name: 'Monstera' }, { id: 2, name: 'Fern' }], tasks: 1 },
  { name: 'the list examples and 3 generated items each', options: { seedItems: 3 }, plants: [{ id: 1, name: 'Monstera' }, { id: 2, name: 'Fern' }], tasks: 4 },
];

describe('a stateful stub starts with data', () => {
  it.each(cases)('holds $name', async ({ options, plants, tasks }) => {
    const stub = await startStubOn(DOCUMENT, { stateful: true, seed: 5, ...options });
    try {
      const listed = await request(`${stub.url}/plants`);
      expect(listed.status).toBe(200);
      expect(listed.json.slice(0, 2)).toEqual(plants);
      const generated = listed.json.slice(2);
      expect(generated.length).toBe(options.seedItems ?? 0);
      expect(generated.map((plant: any) => plant.id)).toEqual(generated.map((_: unknown, i: number) => 3 + i));
      for (const plant of listed.json) {
        expect(typeof plant.name).toBe('string');
        const read = await request(`${stub.url}/plants/${plant.id}`);
        expect(read.status).toBe(200);
        expect(read.json).toEqual(plant);
      }
      const taskList = await request(`${stub.url}/tasks`);
      expect(taskList.json.data[0]).toEqual({ gid: '12345', name: 'Bug Task' });
      const gids = taskList.json.data.map((task: any) => task.gid);
      expect(gids.length).toBe(tasks);
      expect(new Set(gids).size).toBe(tasks);
      expect((await request(`${stub.url}/tasks/${gids[gids.length - 1]}`)).json.data.gid).toBe(gids[gids.length - 1]);
      const created = await request(`${stub.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ivy"}' });
      expect(created.json).toEqual({ id: 3 + (options.seedItems ?? 0), name: 'Ivy' });
    } finally {
      await stub.close();
    }
  });
});

describe('a state file and the seed', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'seed-state-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  const fileCases = [
    { name: 'a state file holding state wins over the seed', content: '{"/plants": [{"id": 9, "name": "Cactus"}]}', plants: [{ id: 9, name: 'Cactus' }] },
    { name: 'a state file holding nothing is seeded', content: '{}', plants: [{ id: 1, name: 'Monstera' }, { id: 2, name: 'Fern' }] },
    { name: 'a state file not there yet is seeded', content: null, plants: [{ id: 1, name: 'Monstera' }, { id: 2, name: 'Fern' }] },
  ];
  it.each(fileCases)('$name', async ({ name, content, plants }) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    if (content !== null) await writeFile(file, content);
    const stub = await startStubOn(DOCUMENT, { stateFile: file });
    try {
      const listed = await request(`${stub.url}/plants`);
      expect(listed.status).toBe(200);
      expect(listed.json).toEqual(plants);
    } finally {
      await stub.close();
    }
  });
});

describe('--seed-items on the command line', () => {
  it('starts with the examples and N generated items per resource', async () => {
    const stub = await startStubOn(DOCUMENT);
    const cli = await startCli(['--port', '0', '--no-watch', '--stateful', '--seed-items', '2', '--spec', stub.file, '--fixtures', join(dirname(stub.file), 'none')]);
    try {
      const listed = await request(`${cli.url}/plants`);
      expect(listed.json.map((plant: any) => plant.id)).toEqual([1, 2, 3, 4]);
    } finally {
      await cli.stop();
      await stub.close();
    }
  });

  it('refuses a count that is not a whole number, naming the flag', async () => {
    const run = await runCli(['--port', '0', '--no-watch', '--stateful', '--seed-items', 'many']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--seed-items');
  });
});

/** GET /plants's ids, each request on a fresh connection so every worker answers some. */
async function plantIds(url: string, times: number): Promise<unknown[][]> {
  return Promise.all(Array.from({ length: times }, async () => {
    const listed = await request(`${url}/plants`, { headers: { connection: 'close' } });
    expect(listed.status).toBe(200);
    return listed.json.map((plant: any) => plant.id);
  }));
}

describe('--workers and the seed', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'seed-workers-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  const workerCases = [
    { name: 'every worker answers the one seed, taken once', stateFile: null, ids: [1, 2, 3, 4] },
    { name: 'a state file holding state wins over the seed', stateFile: '{"/plants": [{"id": 9, "name": "Cactus"}]}', ids: [9] },
  ];
  it.each(workerCases)('$name', async ({ stateFile, ids }) => {
    const spec = join(dir, `spec-${ids.length}.yaml`);
    await writeFile(spec, DOCUMENT);
    const file = join(dir, `state-${ids.length}.json`);
    if (stateFile !== null) await writeFile(file, stateFile);
    const stateArgs = stateFile === null ? ['--stateful'] : ['--state-file', file];
    const cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', ...stateArgs, '--seed-items', '2', '--spec', spec, '--fixtures', join(dir, 'none')], { timeoutMs: 20_000 });
    try {
      for (const listed of await plantIds(cli.url, 8)) expect(listed).toEqual(ids);
      const created = await request(`${cli.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ivy"}' });
      expect([created.status, created.json]).toEqual([201, { id: Math.max(...ids) + 1, name: 'Ivy' }]);
    } finally {
      await cli.stop();
    }
  });
});

describe.runIf(haveRedis)('a Redis state store and the seed', () => {
  let redis: RunningRedis;
  beforeAll(async () => { redis = await startRedis(); });
  afterAll(async () => { await redis?.stop(); });

  it('is seeded by the first instance alone: a second one adds nothing, and items deleted stay deleted', async () => {
    const url = redis.url.replace(/\/0$/, '/1');
    const first = await startStubOn(DOCUMENT, { stateful: true, stateStore: url, seedItems: 2, seed: 5 });
    const second = await startStubOn(DOCUMENT, { stateful: true, stateStore: url, seedItems: 2, seed: 5 });
    try {
      for (const stub of [first, second]) expect((await plantIds(stub.url, 1))[0]).toEqual([1, 2, 3, 4]);
      // Emptied through the admin API: an instance that starts later does not seed again.
      expect((await request(`${first.url}/__admin/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"/plants": [{"id": 7, "name": "Kept"}]}' })).status).toBe(200);
      const third = await startStubOn(DOCUMENT, { stateful: true, stateStore: url, seedItems: 2, seed: 5 });
      try {
        expect((await plantIds(third.url, 1))[0]).toEqual([7]);
        expect((await request(`${third.url}/tasks`)).json).toEqual({ data: [] });
      } finally {
        await third.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('keeps the state already there for a resource and seeds only the resources that hold nothing', async () => {
    const url = redis.url.replace(/\/0$/, '/2');
    // The document before it had examples: its instance has nothing to seed, and a client creates a plant.
    const before = await startStubOn(DOCUMENT.replace(/^ *example: .*\n/gm, ''), { stateful: true, stateStore: url });
    try {
      expect((await request(`${before.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ivy"}' })).status).toBe(201);
    } finally {
      await before.close();
    }
    const after = await startStubOn(DOCUMENT, { stateful: true, stateStore: url });
    try {
      expect((await request(`${after.url}/plants`)).json).toEqual([{ id: 1, name: 'Ivy' }]);
      expect((await request(`${after.url}/tasks`)).json).toEqual({ data: [{ gid: '12345', name: 'Bug Task' }] });
    } finally {
      await after.close();
    }
  });
});

describe('the fetch handler and the seed', () => {
  it('starts stateful mode with the list examples and seedItems generated items, as the server does', async () => {
    const handle = await createFetchHandler({ document: DOCUMENT, stateful: true, seedItems: 2, seed: 5, log: () => {} });
    const served = await startStubOn(DOCUMENT, { stateful: true, seedItems: 2, seed: 5 });
    try {
      const answer = await handle(new Request('http://stub.test/plants'));
      expect(answer!.status).toBe(200);
      const listed = await answer!.json();
      expect(listed.map((plant: any) => plant.id)).toEqual([1, 2, 3, 4]);
      expect(listed).toEqual((await request(`${served.url}/plants`)).json);
    } finally {
      await served.close();
    }
  });

  it('refuses a seedItems that is not a whole number, naming it', async () => {
    await expect(createFetchHandler({ document: DOCUMENT, stateful: true, seedItems: -1 })).rejects.toThrow(/seedItems/);
  });

  it('turns stateful mode on for seedItems alone in both runtimes, and refuses it beside stateful: false', async () => {
    const handle = await createFetchHandler({ document: DOCUMENT, seedItems: 2, seed: 5, log: () => {} });
    const served = await startStubOn(DOCUMENT, { seedItems: 2, seed: 5 });
    try {
      const answer = await handle(new Request('http://stub.test/plants'));
      const listed = (await request(`${served.url}/plants`)).json;
      expect([answer!.status, answer!.headers.get('x-mock-scenario'), await answer!.json()]).toEqual([200, 'state', listed]);
      expect(listed.map((plant: any) => plant.id)).toEqual([1, 2, 3, 4]);
    } finally {
      await served.close();
    }
    const refusal = /^seedItems: fills stateful mode's store, and stateful mode is off \(stateful: false\); leave one of them out$/;
    await expect(createFetchHandler({ document: DOCUMENT, stateful: false, seedItems: 2 })).rejects.toThrow(refusal);
    await expect(startStubOn(DOCUMENT, { stateful: false, seedItems: 2 })).rejects.toThrow(refusal);
  });
});
