// How an answer's media type is chosen and shapes its bytes: `Accept` chooses among the documented
// media types (406 when none fits), text media types carry their text as it is (no JSON quotes),
// JSON media types carry JSON, XML media types carry XML written along the schema's `xml` hints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Media, version: '1' }
paths:
  /ping:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: string }, example: pong } } }
  /page:
    get:
      responses:
        '200': { description: ok, content: { text/html: { example: '<p>hi</p>' } } }
  /count:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: integer }, example: 42 } } }
  /words:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: string, minLength: 3, maxLength: 3, pattern: '^[a-z]+$' } } } }
  /json-text:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: string }, example: pong } } }
  /todos:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json: { example: { title: Work } }
            application/xml: { example: '<todo><title>Work</title></todo>' }
            text/plain: { example: 'Work' }
            application/vnd.todo+json: { example: { title: Vendor } }
        '204': { description: nothing }
  /empty:
    delete:
      responses:
        '204': { description: gone }
  /any:
    get:
      responses:
        '200': { description: ok, content: { '*/*': { example: { any: true } } } }
  /pets/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: a pet
          content:
            application/json: { schema: { $ref: '#/components/schemas/Pet' }, examples: { rex: { value: { id: 1, name: Rex } } } }
            application/xml:
              schema: { $ref: '#/components/schemas/Pet' }
              examples:
                rex: { value: { id: 1, name: Rex, tags: [good, small], photos: [a.png], owner: { name: Ann } } }
  /repos:
    get:
      responses:
        '200': { description: ok, content: { application/json: { example: { name: hello-world } } } }
  /feed:
    get:
      responses:
        '200': { description: ok, content: { application/xml: { example: '<feed/>' } } }
  /plain-pets:
    get:
      responses:
        '200':
          description: pets
          content:
            application/xml:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
              example: [{ id: 1, name: Rex }, { id: 2, name: 'Tom & Jerry' }]
components:
  schemas:
    Pet:
      type: object
      xml: { name: pet, prefix: p, namespace: 'https://example.com/pets' }
      properties:
        id: { type: integer, xml: { attribute: true } }
        name: { type: string, xml: { name: petName } }
        tags: { type: array, items: { type: string, xml: { name: tag } }, xml: { wrapped: true } }
        photos: { type: array, items: { type: string }, xml: { name: photo } }
        owner: { type: object, properties: { name: { type: string } } }
`;

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStubOn(DOCUMENT);
});
afterAll(async () => {
  await stub?.close();
});

describe('text media types carry their text', () => {
  it.each([
    { name: 'a text/plain example is sent as its text, without JSON quotes', path: '/ping', type: 'text/plain', text: 'pong' },
    { name: 'a text/html example is sent as written', path: '/page', type: 'text/html', text: '<p>hi</p>' },
    { name: 'a number example of a text/plain answer is its digits', path: '/count', type: 'text/plain', text: '42' },
    { name: 'a JSON string example stays a JSON string', path: '/json-text', type: 'application/json', text: '"pong"' },
  ])('$name', async ({ path, type, text }) => {
    const answer = await request(`${stub.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.text).toBe(text);
  });

  it('generated text for a text/plain string schema is the bare string', async () => {
    const answer = await request(`${stub.url}/words`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain');
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    expect(answer.text).toMatch(/^[a-z]{3}$/);
  });
});

describe('Accept chooses among the documented media types', () => {
  it.each([
    { name: 'without Accept, the JSON media type answers', accept: undefined, type: 'application/json', text: '{"title":"Work"}' },
    { name: 'Accept: */* takes the JSON media type too (what fetch sends)', accept: '*/*', type: 'application/json', text: '{"title":"Work"}' },
    { name: 'an exact Accept picks that media type', accept: 'text/plain', type: 'text/plain', text: 'Work' },
    { name: 'the highest q-value wins', accept: 'application/json;q=0.5, application/xml;q=0.9', type: 'application/xml', text: '<todo><title>Work</title></todo>' },
    { name: 'a type without q counts as q=1', accept: 'application/json;q=0.8, application/xml', type: 'application/xml', text: '<todo><title>Work</title></todo>' },
    { name: 'a range (text/*) picks a documented type in it', accept: 'image/png, text/*', type: 'text/plain', text: 'Work' },
    { name: 'a vendor JSON type is chosen by name', accept: 'application/vnd.todo+json', type: 'application/vnd.todo+json', text: '{"title":"Vendor"}' },
    { name: 'parameters the document does not list are set aside, as Prism does', accept: 'application/vnd.todo+json; version=2', type: 'application/vnd.todo+json', text: '{"title":"Vendor"}' },
    { name: 'a browser navigation Accept with an XML preference gets XML', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', type: 'application/xml', text: '<todo><title>Work</title></todo>' },
  ])('$name', async ({ accept, type, text }) => {
    const answer = await request(`${stub.url}/todos`, { headers: accept === undefined ? {} : { accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.text).toBe(text);
  });

  it.each([
    { name: 'a vendor JSON type the document does not list gets its JSON (GitHub documents application/json, its clients send this)', path: '/repos', accept: 'application/vnd.github+json', type: 'application/json', text: '{"name":"hello-world"}' },
    { name: 'the same with a version parameter', path: '/repos', accept: 'application/vnd.github.v3+json; charset=utf-8', type: 'application/json', text: '{"name":"hello-world"}' },
    { name: 'a vendor XML type gets the documented XML', path: '/feed', accept: 'application/atom+xml', type: 'application/xml', text: '<feed/>' },
  ])('$name', async ({ path, accept, type, text }) => {
    const answer = await request(`${stub.url}${path}`, { headers: { accept } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.text).toBe(text);
  });

  it.each([
    { name: 'an Accept no documented media type meets is a 406 naming the documented ones', path: '/todos', accept: 'image/png', detail: /Accept: image\/png; documented: application\/json, application\/xml, text\/plain, application\/vnd.todo\+json/ },
    { name: 'a vendor JSON type asked with q=0 is refused, not served as JSON', path: '/repos', accept: 'application/vnd.github+json;q=0', detail: /documented: application\/json/ },
    { name: 'a vendor JSON type where only XML is documented: 406', path: '/feed', accept: 'application/vnd.github+json', detail: /documented: application\/xml/ },
    { name: 'a malformed Accept meets nothing: 406', path: '/ping', accept: 'inv/alid', detail: /documented: text\/plain/ },
    { name: 'q=0 refuses a type', path: '/ping', accept: 'text/plain;q=0', detail: /documented: text\/plain/ },
  ])('$name', async ({ path, accept, detail }) => {
    const answer = await request(`${stub.url}${path}`, { headers: { accept } });
    expect(answer.status).toBe(406);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.json).toMatchObject({ status: 406, title: 'Not Acceptable', detail: expect.stringMatching(detail) });
    expect(answer.headers.get('x-mock-scenario')).toBeNull();
  });

  it.each([
    { name: 'a response without content answers whatever the Accept', path: '/empty', method: 'DELETE', accept: 'image/png', status: 204, type: null, text: '' },
    { name: 'a documented */* media type meets any Accept', path: '/any', method: 'GET', accept: 'application/json', status: 200, type: '*/*', text: '{"any":true}' },
    { name: 'Prefer: code picks the response, Accept its media type', path: '/todos', method: 'GET', accept: 'text/plain', prefer: 'code=204', status: 204, type: null, text: '' },
    { name: 'a named example is served in the media type that has it', path: '/pets/1', method: 'GET', accept: '*/*', prefer: 'example=rex', status: 200, type: 'application/json', text: '{"id":1,"name":"Rex"}' },
  ])('$name', async ({ path, method, accept, prefer, status, type, text }) => {
    const answer = await request(`${stub.url}${path}`, { method, headers: { accept, ...(prefer ? { prefer } : {}) } });
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.text).toBe(text);
  });
});

describe('XML answers follow the schema\'s xml hints', () => {
  it('an example object is written as XML: names, attributes, wrapped and unwrapped arrays, prefix and namespace', async () => {
    const answer = await request(`${stub.url}/pets/1`, { headers: { accept: 'application/xml' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/xml');
    expect(answer.text).toBe(
      '<p:pet id="1" xmlns:p="https://example.com/pets"><petName>Rex</petName><tags><tag>good</tag><tag>small</tag></tags><photo>a.png</photo><owner><name>Ann</name></owner></p:pet>',
    );
  });

  it('an array answer is the items under one root, text escaped', async () => {
    const answer = await request(`${stub.url}/plain-pets`, { headers: { accept: 'application/xml' } });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(
      '<xml><p:pet id="1" xmlns:p="https://example.com/pets"><petName>Rex</petName></p:pet><p:pet id="2" xmlns:p="https://example.com/pets"><petName>Tom &amp; Jerry</petName></p:pet></xml>',
    );
  });

  it('generated data for an XML media type is XML too', async () => {
    const answer = await request(`${stub.url}/pets/7`, { headers: { accept: 'application/xml', prefer: 'dynamic=true' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    expect(answer.text).toMatch(/^<p:pet id="-?\d+" xmlns:p="https:\/\/example.com\/pets"><petName>[^<]*<\/petName>.*<\/p:pet>$/);
  });
});
