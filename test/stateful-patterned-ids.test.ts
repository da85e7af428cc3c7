// Ids a client can use: in stateful mode the ids the stub assigns fit the id's
// schema, the property's or, where that leaves the string open, the read's path parameter's
// (`pattern`, `minLength`, `format`), so the created item is read back by its id instead of being
// refused by the document's own 400 for the path parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { post, request } from './helpers/http.js';
import { documentHead } from './helpers/company-shapes.js';

const NEW = '{ type: object, properties: { name: { type: string } } }';

/** A collection and its item path, the item's id property `field` with `property`'s schema, the path parameter `param` with `parameter`'s. */
function resource(collection: string, param: string, parameter: string, field: string, property: string): string {
  const item = `{ type: object, properties: { ${field}: ${property}, name: { type: string } } }`;
  return `
  /${collection}:
    post:
      requestBody: { content: { application/json: { schema: ${NEW} } } }
      responses: { '201': { description: created, content: { application/json: { schema: ${item} } } } }
  /${collection}/{${param}}:
    parameters: [{ name: ${param}, in: path, required: true, schema: ${parameter} }]
    get:
      responses:
        '200': { description: the item, content: { application/json: { schema: ${item} } } }
        '400': { description: a malformed id, content: { application/json: { schema: { type: object, properties: { error: { type: string } } } } } }`;
}

const DOCUMENT = `${documentHead('Patterned ids')}
${resource('sessions', 'id', "{ type: string, pattern: '^se(-[a-z0-9]+)+$' }", 'id', '{ type: string }')}
${resource('tickets', 'ticket_id', '{ type: string }', 'ticket_id', "{ type: string, pattern: '^tk_[A-Z]{4}[0-9]{3}$' }")}
${resource('codes', 'code', '{ type: string, minLength: 6, maxLength: 6 }', 'code', '{ type: string }')}
${resource('hosts', 'address', '{ type: string, format: ipv4 }', 'address', '{ type: string }')}
`;

describe('stateful ids that fit the id\'s schema', () => {
  let stub: DocumentStub;
  beforeAll(async () => {
    stub = await startStubOn(DOCUMENT, { stateful: true });
  });
  afterAll(async () => {
    await stub?.close();
  });

  it.each([
    ['a path parameter\'s pattern the property leaves open', 'sessions', 'id', /^se(-[a-z0-9]+)+$/],
    ['the property\'s own pattern, without an example', 'tickets', 'ticket_id', /^tk_[A-Z]{4}[0-9]{3}$/],
    ['a path parameter\'s minLength', 'codes', 'code', /^\d{6}$/],
    ['a path parameter\'s format', 'hosts', 'address', /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/],
  ])('%s: three creates get distinct ids that fit, and each reads back by its id', async (_name, collection, field, shape) => {
    const ids: string[] = [];
    for (const name of ['Fern', 'Ivy', 'Moss']) {
      const created = await post(`${stub.url}/${collection}`, { name }, { 'content-type': 'application/json' });
      expect(created.status).toBe(201);
      ids.push(created.json[field]);
    }
    expect(ids.map((id) => shape.test(id))).toEqual([true, true, true]);
    expect(new Set(ids).size).toBe(3);
    for (const [i, id] of ids.entries()) {
      const read = await request(`${stub.url}/${collection}/${encodeURIComponent(id)}`);
      expect([read.status, read.json]).toEqual([200, { [field]: id, name: ['Fern', 'Ivy', 'Moss'][i] }]);
    }
  });
});
