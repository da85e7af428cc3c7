// A stateful create whose answer documents a `Location` header names the created item there, on
// the stub (its item path, its new id, its parent's path values): a client that follows it reads
// what it created, instead of the example's other item or another host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';

const PLANT = "{ type: object, properties: { id: { type: integer }, name: { type: string }, shop: { type: string } } }";
const CREATED = `'201': { description: created, headers: { Location: { schema: { type: string }, example: 'https://api.example.com/plants/1' } }, content: { application/json: { schema: ${PLANT} } } }`;
const DOCUMENT = `
${documentHead('Located')}
  /plants:
    post:
      requestBody: { content: { application/json: { schema: ${PLANT} } } }
      responses: { ${CREATED} }
  /plants/{id}:
    ${pathParameters('id')}
    get:
      responses: { '200': { description: a plant, content: { application/json: { schema: ${PLANT} } } } }
  /shops/{shop}/plants:
    ${pathParameters('shop')}
    post:
      requestBody: { content: { application/json: { schema: ${PLANT} } } }
      responses: { ${CREATED} }
  /shops/{shop}/plants/{id}:
    ${pathParameters('shop', 'id')}
    get:
      responses: { '200': { description: a plant, content: { application/json: { schema: ${PLANT} } } } }
`;

describe('the Location of a created item', () => {
  let stub: DocumentStub;
  beforeAll(async () => {
    stub = await startStubOn(DOCUMENT, { stateful: true });
  });
  afterAll(async () => {
    await stub?.close();
  });

  it.each([
    ['a top-level collection', '/plants', /^\/plants\/\d+$/],
    ['a nested one, under its parent', '/shops/north%20side/plants', /^\/shops\/north%20side\/plants\/\d+$/],
  ])('%s: names the created item on the stub, and following it reads what was created', async (_name, collection, path) => {
    const created = await request(`${stub.url}${collection}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Fern"}' });
    const location = created.headers.get('location')!;
    expect([created.status, location.startsWith(stub.url), location.slice(stub.url.length)]).toEqual([201, true, expect.stringMatching(path)]);
    const read = await request(location);
    expect([read.status, read.json]).toEqual([200, created.json]);
  });
});
