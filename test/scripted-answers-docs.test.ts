// The examples of docs/scenarios-and-fixtures.md's scripted-answer sections, run as printed: its
// fixture files served with the Plant Store, and its JavaScript blocks run against that stub.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { codeBlocks, writeFixtureBlocks } from './helpers/doc-examples.js';
import { post } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';

const PAGE = 'scenarios-and-fixtures.md';
const SPEC = join(import.meta.dirname, '..', 'openapi.yaml');
let dir: string;
let stub: RunningStub;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-scripted-docs-'));
  const written = await writeFixtureBlocks(PAGE, dir);
  expect(written).toEqual(expect.arrayContaining(['plant-taken.yaml', 'plant-busy.yaml']));
  stub = await startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false, log: false });
});
afterAll(async () => {
  await stub?.close(500);
  await rm(dir, { recursive: true, force: true });
});

/** The page's JavaScript block that holds `marker`, run with the names it uses. */
async function runBlock(marker: string): Promise<void> {
  const block = (await codeBlocks(PAGE)).find(({ lang, text }) => lang === 'js' && text.includes(marker));
  expect(block, `a js block with ${marker}`).toBeDefined();
  const AsyncFunction = (async () => {}).constructor as new (...names: string[]) => (...values: unknown[]) => Promise<void>;
  const plant = { id: 5, name: 'Fern' };
  await new AsyncFunction('stub', 'assert', 'headers', 'plant', 'body', block!.text)(stub, assert, JSON_HEADERS, plant, JSON.stringify(plant));
}

describe('docs/scenarios-and-fixtures.md, scripted answers', () => {
  it('the retry test: two refusals, then the plant (the sequence)', async () => {
    await stub.reset();
    await runBlock('two refusals');
    expect(stub.requests().map((entry) => entry.scenario)).toEqual(['busy (1 of 3)', 'busy (2 of 3)', 'echo (3 of 3)']);
  });

  it('the templates render the request', async () => {
    const taken = await post(`${stub.url}/plants`, { id: 3, name: 'Fern' }, { ...JSON_HEADERS, 'x-mock-scenario': 'name-taken' });
    expect(taken.status).toBe(400);
    expect(taken.json).toEqual({ error: 1004, message: 'A plant named Fern already exists (tag none)' });
    const created = await post(`${stub.url}/plants`, '{"id": 9007199254740993, "name": "Ivy"}', { ...JSON_HEADERS, 'x-mock-scenario': 'created-as-sent' });
    expect(created.status).toBe(200);
    expect(created.text).toMatch(/^\{"id":9007199254740993,"name":"Ivy","tag":"[a-z ]+"\}$/);
  });

  it('the answer added from a test', async () => {
    await stub.reset();
    stub.useScenario('name-taken'); // the sequence steps aside for a sticky scenario; the added answer comes first
    await runBlock('stub.use(');
    expect(stub.requests()).toHaveLength(0);
    const added = stub.use({ operation: 'POST /plants', status: 400, body: { error: 1006, message: 'No room left' }, times: 1 });
    expect((await post(`${stub.url}/plants`, { id: 1, name: 'Fern' }, JSON_HEADERS)).json).toEqual({ error: 1004, message: 'A plant named Fern already exists (tag none)' });
    stub.clearScenario();
    expect((await post(`${stub.url}/plants`, { id: 1, name: 'Fern' }, JSON_HEADERS)).json).toEqual({ error: 1006, message: 'No room left' });
    // Used up, it stays listed (with its count) until removed or reset.
    expect(stub.removeScenario(added)).toBe(true);
    expect(stub.removeScenario(added)).toBe(false);
  });

  it('the session example keeps alice apart', async () => {
    await stub.reset();
    await runBlock("stub.session('alice')");
    expect(stub.requests()).toEqual([expect.objectContaining({ session: 'alice', status: 400, scenario: 'duplicate-id' })]);
    expect((await post(`${stub.url}/plants`, { id: 1, name: 'Fern' }, JSON_HEADERS)).status).toBe(400); // busy (1 of 3)
  });
});
