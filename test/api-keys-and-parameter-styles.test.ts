// Another document over HTTP: API keys in header and query (required and redacted in the journal),
// array parameters in each style, a non-ASCII example name, capped violations, fixtures refused.
import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

describe('a document with API keys, array parameter styles, a non-ASCII example name and odd fixtures', () => {
  let dir: string;
  let stub: RunningStub;
  const SPEC = `
openapi: 3.1.0
info: { title: Keys, version: 1.0.0 }
security: [{ headerKey: [] }, { queryKey: [] }]
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, required: [n], properties: { n: { type: integer } } }
              examples:
                café: { value: { n: 1 } }
  /search/{ids}:
    get:
      security: []
      parameters:
        - { name: ids, in: path, required: true, schema: { type: array, items: { type: integer } } }
        - { name: only, in: query, explode: false, schema: { type: array, items: { type: integer, maximum: 9 } } }
        - { name: tag, in: query, schema: { type: array, items: { type: string, enum: [a, b] } } }
        - { name: sep, in: query, style: pipeDelimited, schema: { type: array, items: { type: integer } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object }, example: { found: true } } } } }
  /lists:
    post:
      security: []
      requestBody: { required: true, content: { application/json: { schema: { type: array, items: { type: integer } } } } }
      responses: { '200': { description: ok } }
components:
  securitySchemes:
    headerKey: { type: apiKey, in: header, name: X-Api-Key }
    queryKey: { type: apiKey, in: query, name: key }
`;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'review-'));
    await writeFile(join(dir, 'spec.yaml'), SPEC);
    await mkdir(join(dir, 'fixtures'));
    stub = await startStub({ spec: join(dir, 'spec.yaml'), fixtures: join(dir, 'fixtures'), port: 0, watch: false });
  });
  afterAll(() => stub.close());

  it('sends a non-ASCII example name percent-encoded instead of failing the answer', async () => {
    const response = await request(`${stub.url}/things`, { headers: { 'x-api-key': 'k' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('example:caf%C3%A9');
    expect(response.json).toEqual({ n: 1 });
  });

  it('caps the violations of a body with thousands of wrong items at 100, and still answers 400', async () => {
    const response = await request(`${stub.url}/lists`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array(5000).fill('x')) });
    expect(response.status).toBe(400);
    const listed = response.json.violations as string[];
    expect(listed).toHaveLength(101);
    expect(listed.slice(0, 2)).toEqual(['/0: must be an integer', '/1: must be an integer']);
    expect(listed[100]).toBe('…and 4900 more violations');
  });

  it.each([
    ['arrays in each documented style are accepted', '/search/1,2?only=3,4&tag=a&tag=b&sep=5|6', 200, undefined],
    ['a comma-separated path array is checked item by item', '/search/1,x', 400, ['/path/ids/1: must be an integer']],
    ['an explode:false query array is split on commas', '/search/1?only=3,10', 400, ['/query/only/1: must be <= 9']],
    ['an exploded query array is read from repeated keys', '/search/1?tag=a&tag=c', 400, ['/query/tag/1: must be one of "a", "b"']],
    ['a pipeDelimited array is split on pipes', '/search/1?sep=5|x', 400, ['/query/sep/1: must be an integer']],
  ])('%s', async (_name, path, status, violations) => {
    const response = await request(stub.url + path);
    expect(response.status).toBe(status);
    if (violations) expect(response.json.violations).toEqual(violations);
    else expect(response.json).toEqual({ found: true });
  });

  it.each([
    ['neither alternative sent: the 401 names both', {}, '', 401, 'one of these is needed: the API key "X-Api-Key" (header) is missing; or the API key "key" (query) is missing'],
    ['the first alternative is enough', { 'x-api-key': 'k' }, '', 200, null],
    ['the second alternative is enough', {}, '?key=k', 200, null],
  ])('security alternatives (header key or query key): %s', async (_name, headers, query, status, detail) => {
    const response = await request(`${stub.url}/things${query}`, { headers });
    expect(response.status).toBe(status);
    if (detail === null) expect(response.json).toEqual({ n: 1 });
    else expect(response.json).toMatchObject({ status: 401, detail });
  });

  it('redacts the spec’s API keys, header and query, in the journal', async () => {
    stub.reset();
    await request(`${stub.url}/things`, { headers: { 'x-api-key': 'secret-header-key' } });
    await request(`${stub.url}/things?key=secret-query-key&page=2`);
    const entries = stub.requests();
    expect(entries.map((e) => [e.headers['x-api-key'], e.query])).toEqual([
      ['[redacted]', {}],
      [undefined, { key: '[redacted]', page: '2' }],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/secret-/);
  });

  it.each([
    ['a scenario name outside visible ASCII', 'naïve', /\/scenarios\/naïve: a scenario name must be visible ASCII/],
    ['a scenario named like the stub’s own answers', 'echo', /\/scenarios\/echo: "echo", "generated", "state" and "example:…" name the stub's own answers/],
  ])('refuses at start-up %s', async (_name, scenario, message) => {
    const fixtures = await mkdtemp(join(tmpdir(), 'review-fixtures-'));
    await writeFile(join(fixtures, 'things.yaml'), `operation: GET /things\nscenarios:\n  ${scenario}:\n    status: 200\n    body: { n: 2 }\n`);
    await expect(startStub({ spec: join(dir, 'spec.yaml'), fixtures, port: 0, watch: false })).rejects.toThrow(message);
  });
});
