// The client contract test docs/in-your-tests.md prints, run against examples/plant-client.ts:
// it must keep passing as printed, and the page must print this file (from its first import on).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createPlant } from '../examples/plant-client.js';
import { codeBlocks } from './helpers/doc-examples.js';

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ port: 0, watch: false }); // ./openapi.yaml, else the bundled Plant Store
});
beforeEach(() => stub.reset());
afterAll(() => stub.close());

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

it('is what docs/in-your-tests.md prints, the package and client imported as a user would', async () => {
  const own = await readFile(import.meta.filename, 'utf8');
  const printed = (await codeBlocks('in-your-tests.md')).find(({ text }) => text.startsWith("import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';"));
  const asUser = own.slice(own.indexOf("import { afterAll"), own.indexOf("\nit('is what docs/in-your-tests.md prints"))
    .replace("import { readFile } from 'node:fs/promises';\n", '')
    .replace("'../src/index.js'", "'plant-store-stub'")
    .replace("'../examples/plant-client.js'", "'./plant-client.js'")
    .replace("import { codeBlocks } from './helpers/doc-examples.js';\n", '');
  expect(printed?.text).toBe(asUser);
});
