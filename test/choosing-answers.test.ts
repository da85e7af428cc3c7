// Which documented answer a request gets: Prism's query selectors (`__code`, `__example`,
// `__dynamic`) as aliases of Prefer, and operations that document no success answering their
// first documented response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Choosing, version: '1' }
paths:
  /pets:
    get:
      parameters:
        - { name: limit, in: query, schema: { type: integer, maximum: 10 } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { name: { type: string } } }
              examples:
                cat: { value: { name: Felix } }
                dog: { value: { name: Rex } }
        '404':
          description: missing
          content: { application/json: { example: { message: no such pet } } }
  /download:
    get:
      responses:
        '302':
          description: redirect
          headers:
            Location: { schema: { type: string }, example: 'https://files.example.com/a.zip' }
  /secret:
    get:
      responses:
        '401':
          description: always refused
          content: { application/json: { example: { message: sign in first } } }
  /teapot:
    post:
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses:
        '418':
          description: a teapot
          content: { application/json: { schema: { type: object, properties: { short: { type: boolean } } }, example: { short: true } } }
  /nothing:
    get:
      responses:
        '405': { description: never allowed }
`;

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStubOn(DOCUMENT);
});
afterAll(async () => {
  await stub?.close();
});

interface Case {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  json?: unknown;
  source?: string | null;
  location?: string;
}

const cases: Case[] = [
  { name: '?__code=404 answers the documented 404, like Prefer: code=404', path: '/pets?__code=404', status: 404, json: { message: 'no such pet' }, source: 'example:default' },
  { name: '?__example=dog answers the example of that name', path: '/pets?__example=dog', status: 200, json: { name: 'Rex' }, source: 'example:dog' },
  { name: '?__code and ?__example together pick that status\'s example', path: '/pets?__code=200&__example=dog', status: 200, json: { name: 'Rex' }, source: 'example:dog' },
  { name: '?__dynamic=true generates data from the schema', path: '/pets?__dynamic=true', status: 200, source: 'generated' },
  { name: 'the Prefer header wins over a query selector of the same name', path: '/pets?__example=dog', headers: { prefer: 'example=cat' }, status: 200, json: { name: 'Felix' }, source: 'example:cat' },
  { name: 'a query selector and Prefer on different names both count', path: '/pets?__example=dog', headers: { prefer: 'code=200' }, status: 200, json: { name: 'Rex' }, source: 'example:dog' },
  { name: 'an undocumented ?__code is the stub\'s 422, as Prefer: code is', path: '/pets?__code=503', status: 422, source: null },
  { name: 'a ?__code that is not a status is the stub\'s 422', path: '/pets?__code=abc', status: 422, source: null },
  { name: 'query selectors are not validated as the operation\'s query parameters', path: '/pets?limit=3&__example=cat&__dynamic=false', status: 200, json: { name: 'Felix' }, source: 'example:cat' },
  { name: 'documented query parameters are still validated beside a selector', path: '/pets?limit=99&__example=cat', status: 400, source: null },
  { name: 'an operation documenting only a 302 answers it with its Location', path: '/download', status: 302, location: 'https://files.example.com/a.zip', source: 'generated' },
  { name: 'an operation documenting only a 401 answers its 401', path: '/secret', status: 401, json: { message: 'sign in first' }, source: 'example:default' },
  { name: 'a non-2xx first answer is not an echo of the request body', path: '/teapot', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"short":false,"tall":1}', status: 418, json: { short: true }, source: 'example:default' },
  { name: 'an operation documenting only a 405 without content answers 405 with no body', path: '/nothing', status: 405, source: 'generated' },
];

describe('choosing the documented answer', () => {
  it.each(cases)('$name', async ({ path, method, headers, body, status, json, source, location }) => {
    const answer = await request(`${stub.url}${path}`, { method, headers, body });
    expect(answer.status).toBe(status);
    if (json !== undefined) expect(answer.json).toEqual(json);
    if (source !== undefined) expect(answer.headers.get('x-mock-scenario')).toBe(source);
    if (location !== undefined) expect(answer.headers.get('location')).toBe(location);
    if (status === 405) expect(answer.text).toBe('');
    if (status === 422) expect(answer.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('browsers may read the documented response headers', () => {
  it.each([
    { name: 'the operation\'s documented headers are exposed beside the stub\'s own', path: '/download', exposed: 'X-Mock-Scenario, WWW-Authenticate, Allow, X-Mock-Proxy, X-Mock-Violations, location' },
    { name: 'an operation documenting no headers exposes the stub\'s own only', path: '/pets', exposed: 'X-Mock-Scenario, WWW-Authenticate, Allow, X-Mock-Proxy, X-Mock-Violations' },
  ])('$name', async ({ path, exposed }) => {
    const answer = await request(`${stub.url}${path}`, { headers: { origin: 'http://localhost:5173' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(answer.headers.get('access-control-expose-headers')).toBe(exposed);
  });
});
