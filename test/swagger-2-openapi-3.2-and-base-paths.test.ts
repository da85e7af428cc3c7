// Documents beyond OpenAPI 3.0/3.1: Swagger 2.0 (converted on load), OpenAPI 3.2 (`query` and
// `additionalOperations`), and every document's paths served under its first server's base path.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

const SWAGGER = `
swagger: '2.0'
info: { title: Old Library, version: '1' }
basePath: /v1
paths:
  /books:
    get:
      produces: [application/json]
      parameters:
        - { name: limit, in: query, type: integer, maximum: 50 }
      responses:
        200:
          description: ok
          schema: { type: array, items: { $ref: '#/definitions/Book' } }
          examples: { application/json: [{ id: 1, title: Dune }] }
definitions:
  Book: { type: object, required: [id, title], properties: { id: { type: integer }, title: { type: string } } }
`;

const OPENAPI_32 = `
openapi: 3.2.0
info: { title: Search, version: '1' }
servers:
  - url: 'https://{region}.api.example.com/{version}/'
    variables:
      region: { default: eu }
      version: { default: v2 }
paths:
  /things:
    query:
      requestBody: { content: { application/json: { schema: { type: object, required: [q], properties: { q: { type: string } } } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { type: array }, example: [found] } } } }
    additionalOperations:
      COPY:
        responses: { '201': { description: copied, content: { application/json: { schema: { type: object }, example: { copied: true } } } } }
`;

let dir: string;
let swagger: RunningStub;
let modern: RunningStub;
const log: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-kinds-'));
  await writeFile(join(dir, 'swagger.yaml'), SWAGGER);
  await writeFile(join(dir, 'search.yaml'), OPENAPI_32);
  const options = { fixtures: join(dir, 'none'), port: 0, watch: false, log: (line: string) => log.push(line) };
  [swagger, modern] = await Promise.all([
    startStub({ ...options, spec: join(dir, 'swagger.yaml') }),
    startStub({ ...options, spec: join(dir, 'search.yaml') }),
  ]);
});
afterAll(async () => {
  await Promise.all([swagger?.close(), modern?.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('documents of other kinds', () => {
  it.each([
    { name: 'Swagger 2.0: a path is served with its example', stub: () => swagger, method: 'GET', path: '/books', status: 200, json: [{ id: 1, title: 'Dune' }] },
    { name: 'Swagger 2.0: under its basePath too', stub: () => swagger, method: 'GET', path: '/v1/books', status: 200, json: [{ id: 1, title: 'Dune' }] },
    { name: 'Swagger 2.0: its parameters are validated', stub: () => swagger, method: 'GET', path: '/books?limit=99', status: 400 },
    { name: 'OpenAPI 3.2: a QUERY operation validates its body and answers', stub: () => modern, method: 'QUERY', path: '/things', body: '{"q":"x"}', status: 200, json: ['found'] },
    { name: 'OpenAPI 3.2: a QUERY body that breaks its schema is a 400', stub: () => modern, method: 'QUERY', path: '/things', body: '{}', status: 400 },
    { name: 'OpenAPI 3.2: an additionalOperations method is routed', stub: () => modern, method: 'COPY', path: '/things', status: 201, json: { copied: true } },
    { name: 'a server URL with variables: served under its base path with their defaults', stub: () => modern, method: 'COPY', path: '/v2/things', status: 201, json: { copied: true } },
  ])('$name', async ({ stub, method, path, body, status, json }) => {
    const answer = await request(`${stub().url}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body });
    expect(answer.status).toBe(status);
    if (json !== undefined) expect(answer.json).toEqual(json);
  });

  it('says on start how it reads each', () => {
    expect(log).toContain(`note: ${join(dir, 'swagger.yaml')} is Swagger 2.0; served as OpenAPI 3.0 (converted on load by swagger2openapi)`);
    expect(log).toContain(`note: ${join(dir, 'search.yaml')} is OpenAPI 3.2; served with 3.1's schema rules, \`query\` and \`additionalOperations\` included`);
  });
});
