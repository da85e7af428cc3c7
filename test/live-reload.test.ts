// Live reload as a user lives it: a fixture half-written by a slow writer is never served, a
// fixtures folder made after the start is watched, and edits to files the spec reaches by `$ref`
// are served like edits to the spec. Every case runs a real stub over HTTP and waits for the
// outcome (a few seconds at most); how soon it comes is not asserted.
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { post, request } from './helpers/http.js';
import { createPlant } from './helpers/plant.js';
import { pollUntil as pollFor } from './helpers/poll.js';

/** Long enough for the quiet second before a reload, on a loaded CI machine. */
const PICKUP_MS = 8_000;
const VALID = '{"id":1,"name":"Fern"}';
const FIXTURE = readFile(join('fixtures', 'create-plant.yaml'), 'utf8');

const temps: string[] = [];
const stubs: RunningStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-live-reload-'));
  temps.push(dir);
  return dir;
}

async function start(spec: string, fixtures: string): Promise<RunningStub> {
  const stub = await startStub({ spec, fixtures, port: 0, watch: true, log: () => {} });
  stubs.push(stub);
  return stub;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pollUntil = <T>(probe: () => Promise<T>, done: (value: T) => boolean) => pollFor(probe, done, PICKUP_MS);


const scenarioAnswer = (stub: RunningStub, name: string) => () =>
  createPlant(stub.url, VALID, { 'x-mock-scenario': name }).then((r) => `${r.status} ${r.text}`);

describe('a fixture written slowly is served only once it is complete', { timeout: 30_000 }, () => {
  it('a writer pausing half a second twice mid-file never gets its partial file served', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'fixtures'));
    const file = join(dir, 'fixtures', 'create-plant.yaml');
    const original = await FIXTURE;
    await writeFile(file, original);
    const stub = await start('openapi.yaml', join(dir, 'fixtures'));
    const probe = scenarioAnswer(stub, 'name-too-long');
    const before = await probe();
    expect(before).toMatch(/^400 \{"error":1003,/);

    // The new version, cut at line ends so that each prefix is itself a valid fixture with fewer
    // scenarios: served early, it would answer 422 for name-too-long.
    const edited = original.replace('error: 1003', 'error: 1033');
    const cut1 = edited.indexOf('  unknown-tag:');
    const cut2 = edited.indexOf('  name-too-long:');
    const answers: string[] = [];
    let writing = true;
    const client = (async () => {
      while (writing) {
        answers.push(await probe());
        await sleep(20);
      }
    })();
    const handle = await open(file, 'w');
    await handle.write(edited.slice(0, cut1));
    await sleep(500);
    await handle.write(edited.slice(cut1, cut2));
    await sleep(500);
    await handle.write(edited.slice(cut2));
    await handle.close();
    const after = await pollUntil(probe, (answer) => answer !== before);
    writing = false;
    await client;

    expect(after).toMatch(/^400 \{"error":1033,/);
    expect(answers.length).toBeGreaterThan(10);
    const wrong = answers.filter((answer) => answer !== before && answer !== after);
    expect(wrong).toEqual([]);
  });
});

describe('a fixtures folder made after the start', { timeout: 30_000 }, () => {
  const cases = [
    { name: 'is watched: a fixture written into it is served', adminReload: false },
    { name: 'is watched after POST /__admin/reload too', adminReload: true },
  ];

  it.each(cases)('$name', async ({ adminReload }) => {
    const dir = await tempDir();
    const folder = join(dir, 'fixtures');
    const stub = await start('openapi.yaml', folder);
    const probe = scenarioAnswer(stub, 'duplicate-id');
    expect(await probe()).toMatch(/^422 /);

    await mkdir(folder);
    if (adminReload) {
      const reloaded = await post(`${stub.url}/__admin/reload`);
      expect(reloaded.status).toBe(200);
    }
    await writeFile(join(folder, 'create-plant.yaml'), await FIXTURE);
    expect(await pollUntil(probe, (answer) => answer.startsWith('400'))).toBe('400 {"error":1001,"message":"A plant with this id already exists"}');
  });

  it('deleted and made again, it is still watched', async () => {
    const dir = await tempDir();
    const folder = join(dir, 'fixtures');
    await mkdir(folder);
    await writeFile(join(folder, 'create-plant.yaml'), await FIXTURE);
    const stub = await start('openapi.yaml', folder);
    const probe = scenarioAnswer(stub, 'duplicate-id');
    expect(await probe()).toMatch(/^400 /);

    await rm(folder, { recursive: true });
    expect(await pollUntil(probe, (answer) => answer.startsWith('422'))).toMatch(/^422 /);
    await mkdir(folder);
    await writeFile(join(folder, 'create-plant.yaml'), (await FIXTURE).replace('error: 1001', 'error: 1011'));
    expect(await pollUntil(probe, (answer) => answer.startsWith('400'))).toBe('400 {"error":1011,"message":"A plant with this id already exists"}');
  });
});

describe('files reached by $ref are watched like the spec', { timeout: 30_000 }, () => {
  const MAIN = `
openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    post:
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: 'schemas/pet.yaml' } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: 'schemas/pet.yaml' } } } }
`;
  const PET = "type: object\nrequired: [name]\nproperties:\n  name: { $ref: 'name.yaml' }\n  age: { type: integer }\n";

  async function petsStub() {
    const dir = await tempDir();
    await mkdir(join(dir, 'schemas'));
    await writeFile(join(dir, 'main.yaml'), MAIN);
    await writeFile(join(dir, 'schemas', 'pet.yaml'), PET);
    await writeFile(join(dir, 'schemas', 'name.yaml'), 'type: string\n');
    const stub = await start(join(dir, 'main.yaml'), join(dir, 'fixtures'));
    const probe = (body: string) => () =>
      post(`${stub.url}/pets`, body, { 'content-type': 'application/json' }).then((r) => `${r.status} ${r.json?.detail ?? r.text}`);
    return { dir, stub, probe };
  }

  it('an edit to a file the spec refers to is served', async () => {
    const { dir, probe } = await petsStub();
    const probeCat = probe('{"name":"Tom"}');
    expect(await probeCat()).toBe('200 {"name":"Tom"}');
    await writeFile(join(dir, 'schemas', 'pet.yaml'), PET.replace('required: [name]', 'required: [name, age]'));
    expect(await pollUntil(probeCat, (answer) => answer.startsWith('400'))).toMatch(/^400 .*\/age: is required/);
  });

  it('an edit two references deep is served', async () => {
    const { dir, probe } = await petsStub();
    const probeCat = probe('{"name":"Tom"}');
    expect(await probeCat()).toBe('200 {"name":"Tom"}');
    await writeFile(join(dir, 'schemas', 'name.yaml'), 'type: string\nminLength: 5\n');
    expect(await pollUntil(probeCat, (answer) => answer.startsWith('400'))).toMatch(/^400 .*\/name: must NOT have fewer than 5 characters/);
  });

  it('a file the spec starts referring to after an edit is watched from then on', async () => {
    const { dir, probe } = await petsStub();
    const probeCat = probe('{"name":"Tom","age":3}');
    await writeFile(join(dir, 'schemas', 'age.yaml'), 'type: integer\n');
    await writeFile(join(dir, 'schemas', 'pet.yaml'), PET.replace('age: { type: integer }', "age: { $ref: 'age.yaml' }"));
    // Wait until the edit is in: an age that is not an integer is refused.
    const probeWrongAge = probe('{"name":"Tom","age":"three"}');
    expect(await pollUntil(probeWrongAge, (answer) => answer.startsWith('400'))).toMatch(/^400 .*\/age: must be an integer/);
    await writeFile(join(dir, 'schemas', 'age.yaml'), 'type: integer\nmaximum: 2\n');
    expect(await pollUntil(probeCat, (answer) => answer.startsWith('400'))).toMatch(/^400 .*\/age: must be <= 2/);
  });
});

describe('the admin reload', { timeout: 30_000 }, () => {
  it('answers 200 and serves what is on disk at once, without waiting for the quiet second', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'fixtures'));
    const stub = await start('openapi.yaml', join(dir, 'fixtures'));
    await writeFile(join(dir, 'fixtures', 'create-plant.yaml'), await FIXTURE);
    const reloaded = await request(`${stub.url}/__admin/reload`, { method: 'POST' });
    expect(reloaded.status).toBe(200);
    expect(await scenarioAnswer(stub, 'duplicate-id')()).toBe('400 {"error":1001,"message":"A plant with this id already exists"}');
  });
});
