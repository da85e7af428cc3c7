// Parameters in every documented style over HTTP: objects in query (form exploded or not,
// deepObject), path (simple, label, matrix) and header; label and matrix primitives and arrays;
// cookie parameters; `oneOf: [integer, string]`; required parameters without a schema or with
// `content` instead of one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const SPEC = `
openapi: 3.0.3
info: { title: Parameter styles, version: 1.0.0 }
components:
  schemas:
    Page: { type: object, properties: { offset: { type: integer }, limit: { type: integer, maximum: 100 } } }
    Color: { type: object, required: [R, G], properties: { R: { type: integer }, G: { type: integer } } }
paths:
  /recipes:
    get:
      parameters:
        - { name: page, in: query, required: true, style: form, explode: true, schema: { $ref: '#/components/schemas/Page' } }
        - { name: sort, in: query, schema: { type: string } }
      responses: { '200': { description: ok } }
  /packed:
    get:
      parameters: [{ name: page, in: query, required: true, style: form, explode: false, schema: { $ref: '#/components/schemas/Page' } }]
      responses: { '200': { description: ok } }
  /deep:
    get:
      parameters: [{ name: filter, in: query, required: true, style: deepObject, explode: true, schema: { $ref: '#/components/schemas/Color' } }]
      responses: { '200': { description: ok } }
  /simple/{color}:
    get:
      parameters: [{ name: color, in: path, required: true, schema: { $ref: '#/components/schemas/Color' } }]
      responses: { '200': { description: ok } }
  /simple-exploded/{color}:
    get:
      parameters: [{ name: color, in: path, required: true, explode: true, schema: { $ref: '#/components/schemas/Color' } }]
      responses: { '200': { description: ok } }
  /label/{id}/{ids}:
    get:
      parameters:
        - { name: id, in: path, required: true, style: label, schema: { type: integer } }
        - { name: ids, in: path, required: true, style: label, explode: true, schema: { type: array, items: { type: integer } } }
      responses: { '200': { description: ok } }
  /matrix/{id}/{color}:
    get:
      parameters:
        - { name: id, in: path, required: true, style: matrix, schema: { type: integer } }
        - { name: color, in: path, required: true, style: matrix, explode: true, schema: { $ref: '#/components/schemas/Color' } }
      responses: { '200': { description: ok } }
  /header-object:
    get:
      parameters: [{ name: X-Color, in: header, required: true, explode: true, schema: { $ref: '#/components/schemas/Color' } }]
      responses: { '200': { description: ok } }
  /cookies:
    get:
      parameters:
        - { name: session, in: cookie, required: true, schema: { type: string, minLength: 3 } }
        - { name: ids, in: cookie, explode: false, schema: { type: array, items: { type: integer } } }
      responses: { '200': { description: ok } }
  /workflows/{workflow_id}/enable:
    put:
      parameters: [{ name: workflow_id, in: path, required: true, schema: { oneOf: [{ type: integer }, { type: string }] } }]
      responses: { '204': { description: enabled } }
  /no-schema:
    get:
      parameters:
        - { name: X-Trace, in: header, required: true }
        - { name: age, in: query, required: true }
      responses: { '200': { description: ok } }
  /content:
    get:
      parameters:
        - name: where
          in: query
          required: true
          content: { application/json: { schema: { type: object, required: [city], properties: { city: { type: string } } } } }
      responses: { '200': { description: ok } }
`;

describe('parameters in each documented style', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStubOn(SPEC);
  });
  afterAll(() => stub.close());

  it.each([
    ['an exploded form object is read from its own query keys', 'GET', '/recipes?offset=1&limit=20&sort=name', {}, 200, null],
    ['an exploded form object is checked property by property', 'GET', '/recipes?offset=x&limit=200', {}, 400, ['/query/page/offset: must be an integer', '/query/page/limit: must be <= 100']],
    ['a one-value query parameter sent twice is refused saying so, not as the wrong type', 'GET', '/recipes?offset=1&limit=20&sort=name&sort=date', {}, 400, ['/query/sort: sent 2 times; send one value']],
    ['a required exploded form object with none of its keys is missing', 'GET', '/recipes?sort=name', {}, 400, ['/query/page: is required']],
    ['a packed form object alternates names and values', 'GET', '/packed?page=offset,1,limit,20', {}, 200, null],
    ['a packed form object is checked property by property', 'GET', '/packed?page=limit,x', {}, 400, ['/query/page/limit: must be an integer']],
    ['a deepObject is read from bracketed keys', 'GET', '/deep?filter[R]=1&filter[G]=2', {}, 200, null],
    ['a deepObject is checked property by property', 'GET', '/deep?filter[R]=red', {}, 400, ['/query/filter/G: is required', '/query/filter/R: must be an integer']],
    ['a simple path object alternates names and values', 'GET', '/simple/R,1,G,2', {}, 200, null],
    ['a simple path object is checked', 'GET', '/simple/R,x,G,2', {}, 400, ['/path/color/R: must be an integer']],
    ['an exploded simple path object is name=value pairs', 'GET', '/simple-exploded/R=1,G=2', {}, 200, null],
    ['label primitives and exploded arrays are read after their dots', 'GET', '/label/.5/.1.2.3', {}, 200, null],
    ['a label array is checked item by item', 'GET', '/label/.5/.1.x', {}, 400, ['/path/ids/1: must be an integer']],
    ['matrix primitives and exploded objects are read after their semicolons', 'GET', '/matrix/;id=5/;R=1;G=2', {}, 200, null],
    ['a matrix primitive is checked', 'GET', '/matrix/;id=five/;R=1;G=2', {}, 400, ['/path/id: must be an integer']],
    ['an exploded header object is name=value pairs', 'GET', '/header-object', { 'x-color': 'R=1,G=2' }, 200, null],
    ['a header object is checked', 'GET', '/header-object', { 'x-color': 'R=1' }, 400, ['/header/X-Color/G: is required']],
    ['cookie parameters are read from the Cookie header', 'GET', '/cookies', { cookie: 'session=abc; ids=1,2' }, 200, null],
    ['cookie parameters are checked', 'GET', '/cookies', { cookie: 'session=ab; ids=1,x' }, 400, ['/cookie/session: must NOT have fewer than 3 characters', '/cookie/ids/1: must be an integer']],
    ['a missing required cookie is reported', 'GET', '/cookies', { cookie: 'other=1' }, 400, ['/cookie/session: is required']],
    ['oneOf [integer, string] accepts an integer', 'PUT', '/workflows/1/enable', {}, 204, null],
    ['oneOf [integer, string] accepts a file name', 'PUT', '/workflows/main.yaml/enable', {}, 204, null],
    ['required parameters without a schema are enforced', 'GET', '/no-schema', {}, 400, ['/query/age: is required', '/header/X-Trace: is required']],
    ['required parameters without a schema take any value', 'GET', '/no-schema?age=old', { 'x-trace': 't' }, 200, null],
    ['a JSON content parameter is parsed and validated', 'GET', '/content?where=' + encodeURIComponent('{"city":"Oslo"}'), {}, 200, null],
    ['a JSON content parameter that breaks its schema is refused', 'GET', '/content?where=' + encodeURIComponent('{"town":"Oslo"}'), {}, 400, ['/query/where/city: is required']],
    ['a JSON content parameter that is not JSON is refused', 'GET', '/content?where=Oslo', {}, 400, ['/query/where: must be JSON text']],
  ])('%s', async (_name, method, path, headers, status, violations) => {
    const response = await request(stub.url + path, { method, headers });
    expect(response.status).toBe(status);
    if (violations === null) {
      expect(response.headers.get('x-mock-scenario')).not.toBeNull();
    } else {
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.json).toMatchObject({ status, violations });
    }
  });
});
