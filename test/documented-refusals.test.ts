// A refusal (401, 400, 422) follows the response the operation documents for it: its example, its
// media type (text/plain, text/html), its headers, a list-of-errors or FastAPI shape, or no body
// when it documents none; 422 is the validation status of APIs that document 422 and no 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const SPEC = `
openapi: 3.1.0
info: { title: Documented refusals, version: 1.0.0 }
components:
  securitySchemes:
    key: { type: apiKey, in: query, name: apiKey }
    basic: { type: http, scheme: basic }
  parameters:
    n: { name: n, in: query, required: true, schema: { type: integer } }
paths:
  /signup:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [user], properties: { user: { type: string, maxLength: 5 } } } } } }
      responses:
        '201': { description: created, content: { application/json: { examples: { welcome: { value: { hello: new-user } } } } } }
        '422':
          description: invalid
          content:
            application/json:
              schema: { type: object, properties: { code: { type: string }, message: { type: string } } }
              examples:
                tooLong: { value: { code: E1, message: The user name is too long } }
                taken: { value: { code: E2, message: The user name is taken } }
  /basic:
    get:
      security: [{ basic: [] }]
      responses: { '200': { description: ok, content: { application/json: { example: welcome } } } }
  /no-body:
    post:
      responses:
        '200': { description: ok }
        '415': { description: no body allowed, content: { text/plain: { example: no body allowed } } }
  /json-only:
    post:
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses: { '200': { description: ok } }
  /example-401:
    get:
      security: [{ key: [] }]
      responses:
        '200': { description: ok }
        '401':
          description: denied
          headers: { X-Request-Id: { schema: { type: string }, example: req-7 } }
          content: { application/json: { example: unauthorized } }
  /empty-401:
    get:
      security: [{ key: [] }]
      responses: { '200': { description: ok }, '401': { description: denied } }
  /text-401:
    get:
      security: [{ key: [] }]
      responses: { '200': { description: ok }, '401': { description: denied, content: { text/plain: { schema: { type: string } } } } }
  /html-400:
    get:
      parameters: [{ $ref: '#/components/parameters/n' }]
      responses: { '200': { description: ok }, '400': { description: bad, content: { text/html: { schema: { type: string } } } } }
  /errors-list-400:
    get:
      parameters: [{ $ref: '#/components/parameters/n' }]
      responses:
        '200': { description: ok }
        '400':
          description: bad
          content:
            application/json:
              schema:
                type: object
                properties:
                  errors: { type: array, items: { type: object, required: [message], properties: { message: { type: string }, help: { type: string } } } }
  /only-422:
    get:
      parameters: [{ name: age, in: query, required: true }]
      responses:
        '200': { description: ok }
        '422': { description: invalid, content: { application/json: { example: { name: invalid-input } } } }
  /fastapi-422:
    get:
      parameters: [{ $ref: '#/components/parameters/n' }]
      responses:
        '200': { description: ok }
        '422':
          description: Validation Error
          content:
            application/json:
              schema:
                type: object
                properties:
                  detail:
                    type: array
                    items:
                      type: object
                      required: [loc, msg, type]
                      properties:
                        loc: { type: array, items: { type: string } }
                        msg: { type: string }
                        type: { type: string }
              example: { detail: [{ loc: [query, n], msg: field required, type: missing }] }
`;

describe('refusals follow the response the operation documents for them', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStubOn(SPEC);
  });
  afterAll(() => stub.close());

  const MISSING_KEY = 'the API key "apiKey" (query) is missing';
  it.each([
    ['a documented 401 example is the body, with the documented headers', '/example-401', 401, 'application/json', '"unauthorized"', { 'x-request-id': 'req-7' }],
    ['a documented 401 without content has no body', '/empty-401', 401, null, '', {}],
    ['a text/plain 401 carries the reason as text', '/text-401', 401, 'text/plain', MISSING_KEY, {}],
    [
      'a text/html 400 is an HTML page with the violation escaped',
      '/html-400?n=<b>',
      400,
      'text/html',
      '<!DOCTYPE html><html><head><title>400 Bad Request</title></head><body><h1>400 Bad Request</h1><p>/query/n: must be an integer</p></body></html>',
      {},
    ],
    ['an errors list carries the violations in its one item', '/errors-list-400?n=x', 400, 'application/json', JSON.stringify({ errors: [{ message: '/query/n: must be an integer' }] }), {}],
    ['an API that documents 422 and no 400 gets 422 in its own shape', '/only-422', 422, 'application/json', JSON.stringify({ name: 'invalid-input' }), {}],
    [
      'FastAPI’s 422 shape carries the violations in detail[0].msg',
      '/fastapi-422?n=x',
      422,
      'application/json',
      JSON.stringify({ detail: [{ loc: ['query', 'n'], type: 'missing', msg: '/query/n: must be an integer' }] }),
      {},
    ],
  ])('%s', async (_name, path, status, contentType, body, headers) => {
    const response = await request(stub.url + path);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.text).toBe(body);
    for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
    expect(response.headers.get('x-mock-scenario')).toBeNull();
  });

  it.each([
    ['a body sent to an operation that documents none gets its documented 415', '/no-body', 'text/plain', 'text/plain', 'no body allowed'],
    [
      'a body in an undocumented media type gets 415 naming the documented ones',
      '/json-only',
      'text/csv',
      'application/problem+json',
      JSON.stringify({
        type: 'about:blank',
        title: 'Unsupported Media Type',
        status: 415,
        detail: '/: the content type "text/csv" is not accepted; send application/json',
        violations: ['/: the content type "text/csv" is not accepted; send application/json'],
      }),
    ],
  ])('%s', async (_name, path, sentType, contentType, body) => {
    const response = await request(stub.url + path, { method: 'POST', headers: { 'content-type': sentType }, body: 'a,b' });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.text).toBe(body);
  });

  it.each([
    ['Basic credentials that are base64 of user:password pass', 'Basic dXNlcjpwYXNz', 200, '"welcome"'],
    ['Basic credentials that are not base64 get the 401', 'Basic abc123', 401, 'the Basic credentials are not base64 of user:password'],
    ['Basic credentials without a colon get the 401', 'Basic dXNlcg==', 401, 'the Basic credentials are not base64 of user:password'],
    ['a Bearer token where Basic is documented gets the 401', 'Bearer dXNlcjpwYXNz', 401, 'the Authorization header must use the Basic scheme'],
  ])('%s', async (_name, authorization, status, expected) => {
    const response = await request(`${stub.url}/basic`, { headers: { authorization } });
    expect(response.status).toBe(status);
    if (status === 200) {
      expect(response.text).toBe(expected);
      return;
    }
    expect(response.headers.get('www-authenticate')).toBe('Basic');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: expected });
  });

  it.each([
    ['an invalid request that names an example of its refusal status gets that example', { prefer: 'code=422, example=taken' }, '', { code: 'E2', message: 'The user name is taken' }],
    ['Prism’s query selectors name it too', {}, '?__code=422&__example=tooLong', { code: 'E1', message: 'The user name is too long' }],
    ['an example named for another status is ignored: the refusal carries the violations', { prefer: 'code=201, example=welcome' }, '', { message: '/user: must NOT have more than 5 characters' }],
    ['an unknown example name is ignored too', { prefer: 'code=422, example=nope' }, '', { message: '/user: must NOT have more than 5 characters' }],
  ])('%s', async (_name, steering, query, body) => {
    const response = await request(`${stub.url}/signup${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...steering }, body: '{"user":"far-too-long"}' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toEqual(body);
  });

  it('an empty body is no body: an operation that documents none accepts it', async () => {
    const response = await request(`${stub.url}/no-body`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' });
    expect(response.status).toBe(200);
  });

  it('records the violations of a refusal whose documented body cannot carry them', async () => {
    stub.reset();
    await request(`${stub.url}/only-422`);
    const [entry] = stub.requests({ path: '/only-422' });
    expect(entry).toMatchObject({ status: 422, violations: ['/query/age: is required'] });
  });
});
