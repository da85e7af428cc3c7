// The whole Plant Store (`POST /plants` taking a `NewPlant` with `id`, answering a `Plant` without
// one, `GET` and `DELETE /plants/{id}`) in stateful mode: items are keyed by the path's `id`,
// which the create's body names though the answer does not, never by `name`. So a second create
// of id 7 is refused, and the read and delete of /plants/7 find the item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: {title: Plant Store, version: "1"}
paths:
  /plants:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/NewPlant'}}}}
      responses:
        "200": {description: plant, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        "400": {description: bad, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    get:
      responses:
        "200": {description: plants, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Plant'}}}}}
  /plants/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer, format: int64}}]
    get:
      responses:
        "200": {description: plant, content: {application/json: {schema: {$ref: '#/components/schemas/Plant'}}}}
        "404": {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
    delete:
      responses:
        "204": {description: gone}
        "404": {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
components:
  schemas:
    Plant:
      type: object
      required: [name]
      properties: {name: {type: string}, tag: {type: string}}
    NewPlant:
      allOf:
        - $ref: '#/components/schemas/Plant'
        - type: object
          required: [id]
          properties: {id: {type: integer, format: int64}}
    Error:
      type: object
      required: [error, message]
      properties: {error: {type: integer, format: int32}, message: {type: string}}
`;

const json = { 'content-type': 'application/json' };

describe('the whole Plant Store in stateful mode', () => {
  let stub: DocumentStub;
  beforeAll(async () => {
    stub = await startStubOn(DOCUMENT, { stateful: true });
  });
  afterAll(async () => {
    await stub?.close();
  });

  it('keys plants by the path\'s id, which only the create\'s body names', async () => {
    expect((await request(`${stub.url}/__admin/resources`)).json.resources.map((r: { idProperty: string }) => r.idProperty)).toEqual(['id']);
  });

  it.each([
    ['the first create of id 7', 'POST', '/plants', '{"id":7,"name":"Fern"}', 200],
    ['a second create of id 7, another name', 'POST', '/plants', '{"id":7,"name":"Moss"}', 400],
    ['the read of /plants/7', 'GET', '/plants/7', undefined, 200],
    ['the delete of /plants/7', 'DELETE', '/plants/7', undefined, 204],
    ['a read after the delete', 'GET', '/plants/7', undefined, 404],
  ])('%s answers %s %s with its status', async (_name, method, path, body, status) => {
    const answer = await request(`${stub.url}${path}`, { method, headers: body ? json : {}, body });
    expect(answer.status).toBe(status);
    if (status === 200 && method === 'GET') expect(answer.json).toMatchObject({ name: 'Fern' });
  });
});
