// `additionalProperties: false` beside an `allOf` whose branches declare the properties: as
// written no object with them is valid (the keyword sees only the schema's own `properties`), so a
// shipping API's own valid creates got its 400 and its answers could never be valid. The stub
// reads it as meant, for requests and answers alike, says so once per schema at
// /__admin/warnings, and --strict refuses the document naming the schema, as with every flaw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';

const DOCUMENT = `
${documentHead('Shipping')}
  /shipments:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Shipment' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Shipment' } } } }
        '400': { description: invalid }
  /shipments/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Shipment' } } } }
components:
  schemas:
    Address:
      type: object
      required: [street]
      properties: { street: { type: string }, city: { type: string } }
    Shipment:
      type: object
      additionalProperties: false
      properties: { id: { type: string } }
      allOf:
        - $ref: '#/components/schemas/Address'
        - { type: object, properties: { weight: { type: number, minimum: 0 } } }
`;

const JSON_TYPE = { 'content-type': 'application/json' };
let stub: DocumentStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT); });
afterAll(async () => { await stub?.close(); });

describe('a closed object whose allOf branches declare its properties', () => {
  const cases = [
    { name: 'a body with the branches\' properties', body: { street: 'Main St', city: 'Oslo', weight: 2.5 }, status: 201, violations: [] },
    { name: 'a body with the schema\'s own and a branch\'s property', body: { id: 's1', street: 'Main St' }, status: 201, violations: [] },
    { name: 'a body with a property no branch declares', body: { street: 'Main St', color: 'red' }, status: 400, violations: ['/color: is not allowed'] },
    { name: 'a body that breaks a branch', body: { street: 'Main St', weight: -1 }, status: 400, violations: ['/weight: must be >= 0'] },
  ];
  it.each(cases)('answers $status to $name', async ({ body, status, violations }) => {
    const answer = await request(`${stub.url}/shipments`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    expect(answer.status).toBe(status);
    if (status === 201) expect(answer.json).toMatchObject(body);
    const [entry] = stub.requests({ path: '/shipments' }).slice(-1);
    expect(entry.violations).toEqual(violations);
    expect(entry.selfCheck ?? []).toEqual([]);
  });

  it('answers a read with the branches\' properties, which its own schema finds valid', async () => {
    const answer = await request(`${stub.url}/shipments/s9`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json).sort()).toEqual(['city', 'id', 'street', 'weight']);
    const [entry] = stub.requests({ path: '/shipments/s9' });
    expect(entry.selfCheck ?? []).toEqual([]);
  });

  it('lists one warning for the schema at /__admin/warnings', async () => {
    const answer = await request(`${stub.url}/__admin/warnings`);
    expect(answer.status).toBe(200);
    expect(answer.json.warnings.filter((w: any) => w.kind === 'additionalProperties: false beside allOf')).toEqual([{
      file: stub.file,
      pointer: '/components/schemas/Shipment/additionalProperties',
      kind: 'additionalProperties: false beside allOf',
      reason: '`additionalProperties: false` beside an `allOf` whose branches declare `street`, `city`, `weight`: as written no object with them is valid; they are allowed, as `unevaluatedProperties: false` would say',
    }]);
  });

  it('is refused with --strict, which names the schema', async () => {
    await expect(startStubOn(DOCUMENT, { strict: true })).rejects.toThrow(/\/components\/schemas\/Shipment\/additionalProperties: `additionalProperties: false` beside an `allOf`.*--strict refuses documents with warnings/);
  });
});
