// Editor support and named examples: the fixture files' JSON Schema (from the command line and from
// GET /__admin/fixture-schema) accepts every fixture the project ships and prints, and refuses what
// the start refuses where an editor can tell; a request equal to a named request example gets the
// response example of that name.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { load as parseYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { runCli } from './helpers/cli.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { post, request } from './helpers/http.js';

const ROOT = join(import.meta.dirname, '..');
const ORDERS = join(import.meta.dirname, 'specs', 'scripted-orders.yaml');

let plantStore: RunningStub;
let orders: RunningStub;
beforeAll(async () => {
  plantStore = await startStub({ spec: join(ROOT, 'openapi.yaml'), fixtures: join(ROOT, 'fixtures'), port: 0, watch: false, log: false });
  orders = await startStub({ spec: ORDERS, fixtures: join(ROOT, 'none'), port: 0, watch: false, log: false });
});
afterAll(async () => {
  await plantStore?.close(500);
  await orders?.close(500);
});

function validator(schema: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  return ajv.compile(schema);
}

describe('the fixture schema', () => {
  it('is served at GET /__admin/fixture-schema and accepts every shipped and printed Plant Store fixture', async () => {
    const response = await request(`${plantStore.url}/__admin/fixture-schema`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(response.json.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validate = validator(response.json);
    const shipped = (await readdir(join(ROOT, 'fixtures'))).map(async (name) => parseYaml(await readFile(join(ROOT, 'fixtures', name), 'utf8')));
    const printed = (await codeBlocks('scenarios-and-fixtures.md')).filter(({ lang, text }) => lang === 'yaml' && /^operation: POST \/plants/m.test(text)).map(({ text }) => parseYaml(text));
    const files = [...(await Promise.all(shipped)), ...printed];
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(validate(file) ? [] : validate.errors).toEqual([]);
  });

  it.each([
    ['an undocumented status', { operation: 'POST /plants', scenarios: { teapot: { status: 418, body: {} } } }, '/scenarios/teapot/status'],
    ['a body of the wrong shape', { operation: 'POST /plants', scenarios: { bad: { status: 400, body: { error: 'x', message: 'y' } } } }, '/scenarios/bad/body/error'],
    ['an operation the document lacks', { operation: 'POST /plant', scenarios: {} }, '/operation'],
    ['an unknown scenario key', { operation: 'POST /plants', scenarios: { bad: { status: 400, body: { error: 1, message: 'y' }, dealy: 5 } } }, '/scenarios/bad'],
    ['a chance above 1', { operation: 'POST /plants', scenarios: { bad: { status: 400, body: { error: 1, message: 'y' }, chance: 2 } } }, '/scenarios/bad/chance'],
  ])('refuses %s', async (_what, file, pointer) => {
    const validate = validator((await request(`${plantStore.url}/__admin/fixture-schema`)).json);
    expect(validate(file)).toBe(false);
    expect(validate.errors!.map((error) => error.instancePath)).toContain(pointer);
  });

  it('is printed by `plant-store-stub fixture-schema --spec FILE`, each operation with its statuses', async () => {
    const run = await runCli(['fixture-schema', '--spec', ORDERS]);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout);
    expect(schema.properties.operation.enum).toEqual(expect.arrayContaining(['POST /orders', 'createOrder', 'GET /orders/{id}', 'getOrder']));
    const validate = validator(schema);
    expect(validate({ operation: 'getOrder', scenarios: { gone: { status: 404, body: { message: 'no' } }, slow: { status: 200, delay: { min: 1, max: 5 }, body: { id: 1, owner: 'Ada' } } } })).toBe(true);
    expect(validate({ operation: 'getOrder', scenarios: { gone: { status: 201, body: {} } } })).toBe(false);
    expect(validate({ operation: 'getOrder', sequence: ['gone'], after: 'sometimes', scenarios: {} })).toBe(false);
  });

  it('names a mistyped flag of the command', async () => {
    const run = await runCli(['fixture-schema', '--sepc', ORDERS]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/fixture-schema: Unknown option '--sepc' \(it takes --spec FILE\)/);
  });
});

describe('named examples paired', () => {
  it('answers a request equal to the request example "rush" with the response example "rush"', async () => {
    const response = await post(`${orders.url}/orders`, { id: 1, owner: { name: 'Ada' }, items: [{ sku: 'R-1' }], rush: true }, { 'content-type': 'application/json' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-mock-scenario')).toBe('example:rush');
    expect(response.json).toEqual({ id: 1, owner: 'Ada', rush: true, status: 'expedited' });
  });

  it('pairs a later example too, and answers any other request as before (here the first example)', async () => {
    const paired = await post(`${orders.url}/orders`, { id: 2, owner: { name: 'Bo' } }, { 'content-type': 'application/json' });
    expect(paired.headers.get('x-mock-scenario')).toBe('example:standard');
    expect(paired.json).toEqual({ id: 2, owner: 'Bo', status: 'queued' });
    const other = await post(`${orders.url}/orders`, { id: 2, owner: { name: 'Cy' } }, { 'content-type': 'application/json' });
    expect(other.status).toBe(201);
    expect(other.headers.get('x-mock-scenario')).toBe('example:rush');
  });
});
