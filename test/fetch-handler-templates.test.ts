// Templates in the fetch handler (a page, MSW): fixtures given with a template load the template
// engine and render per request as on the server; a page whose fixtures held none was built
// without it, and a template added later says so instead of failing at every request.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/fetch.js';

const DOCUMENT = join(import.meta.dirname, '..', 'openapi.yaml');
const TEMPLATED = {
  operation: 'POST /plants',
  scenarios: { taken: { status: 400, body: { error: 1004, message: 'A plant named {{request.body.name}} already exists' } } },
};

const plantRequest = (headers: Record<string, string> = {}) => new Request('http://stub.test/plants', {
  method: 'POST',
  headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ id: 1, name: 'Fern' }),
});

describe('templates in the fetch handler', () => {
  // First: the engine, once loaded by a handler, stays loaded in this test file's process.
  it('refuses a template added to a handler built without the engine, saying why', async () => {
    const handle = await createFetchHandler({ document: await readFile(DOCUMENT, 'utf8') });
    expect(() => handle.use({ operation: 'POST /plants', status: 400, body: { error: 1, message: '{{request.body.name}}' } }))
      .toThrow(/stub\.use: \/body\/message: templates need the template engine, loaded when the fixtures given at start hold a template/);
    const name = handle.use({ operation: 'POST /plants', status: 400, body: { error: 1, message: 'plain' } });
    expect((await handle(plantRequest({ 'x-mock-scenario': name })))!.status).toBe(400);
  });
  it('renders a templated fixture given at start', async () => {
    const handle = await createFetchHandler({ document: await readFile(DOCUMENT, 'utf8'), fixtures: [TEMPLATED] });
    const response = (await handle(plantRequest({ 'x-mock-scenario': 'taken' })))!;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 1004, message: 'A plant named Fern already exists' });
  });

});
