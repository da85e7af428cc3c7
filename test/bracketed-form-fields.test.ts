// Form bodies with bracketed field names, as Stripe's official client and every Rails-style client
// sends them (`metadata[order_id]=42`, `address[line1]=…`, `expand[0]=…`): read into the objects
// and arrays the form's schema describes (`style: deepObject` in its `encoding`), validated,
// echoed and stored as such; a violation inside one names the field as the client wrote it; and
// nothing a client writes in brackets reaches Object.prototype or grows without bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const CUSTOMER = `{ type: object, properties: { id: { type: string }, name: { type: string }, metadata: { type: object, additionalProperties: { type: string } }, address: { $ref: '#/components/schemas/Address' } } }`;
const DOCUMENT = `
openapi: 3.0.3
info: { title: Payments, version: '1' }
paths:
  /v1/customers:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              additionalProperties: false
              properties:
                name: { type: string }
                metadata: { type: object, additionalProperties: { type: string } }
                address: { $ref: '#/components/schemas/Address' }
                expand: { type: array, items: { type: string } }
            encoding:
              metadata: { style: deepObject, explode: true }
              address: { style: deepObject, explode: true }
              expand: { style: deepObject, explode: true }
      responses:
        '200': { description: the customer, content: { application/json: { schema: ${CUSTOMER} } } }
        '400': { description: refused, content: { application/json: { schema: { type: object, properties: { error: { type: object, properties: { message: { type: string } } } } } } } }
  /v1/customers/{customer}:
    parameters: [{ name: customer, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: the customer, content: { application/json: { schema: ${CUSTOMER} } } }
components:
  schemas:
    Address:
      type: object
      additionalProperties: false
      properties: { line1: { type: string }, city: { type: string }, floor: { type: integer } }
`;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('bracketed form fields', () => {
  let stub: DocumentStub;
  let stateful: DocumentStub;
  beforeAll(async () => {
    [stub, stateful] = await Promise.all([startStubOn(DOCUMENT), startStubOn(DOCUMENT, { stateful: true })]);
  });
  afterAll(async () => {
    await Promise.all([stub?.close(), stateful?.close()]);
  });

  it.each([
    {
      name: 'objects and arrays from brackets are read, validated and echoed',
      form: 'name=Ada&metadata[order_id]=42&metadata[plan]=gold&address[line1]=1%20Main%20St&address[floor]=3&expand[0]=sources&expand[1]=tax',
      status: 200,
      body: { name: 'Ada', metadata: { order_id: '42', plan: 'gold' }, address: { line1: '1 Main St', floor: 3 } },
    },
    {
      name: 'brackets percent-encoded, as URLSearchParams writes them',
      form: 'name=Ada&metadata%5Border_id%5D=42',
      status: 200,
      body: { name: 'Ada', metadata: { order_id: '42' } },
    },
    {
      name: 'a field its object does not allow is named as sent',
      form: 'name=Ada&address[zip]=10115',
      status: 400,
      violation: '/address[zip]',
    },
    {
      name: 'a wrong type inside one is named as sent',
      form: 'name=Ada&address[floor]=top',
      status: 400,
      violation: '/address[floor]: must be an integer',
    },
  ])('$name', async ({ form, status, body, violation }) => {
    const answer = await request(`${stub.url}/v1/customers`, { method: 'POST', headers: FORM, body: form });
    expect(answer.status).toBe(status);
    if (body) expect(answer.json).toMatchObject(body);
    if (violation) expect(JSON.stringify(answer.json)).toContain(violation);
  });

  it('stores them in stateful mode: the customer read back has its metadata and address', async () => {
    const created = await request(`${stateful.url}/v1/customers`, { method: 'POST', headers: FORM, body: 'name=Ada&metadata[order_id]=42&address[city]=Berlin' });
    expect(created.status).toBe(200);
    const read = await request(`${stateful.url}/v1/customers/${created.json.id}`);
    expect([read.status, read.json]).toEqual([200, expect.objectContaining({ id: created.json.id, name: 'Ada', metadata: { order_id: '42' }, address: { city: 'Berlin' } })]);
  });

  it.each([
    ['__proto__ in brackets', 'name=Ada&metadata[__proto__][polluted]=yes'],
    ['constructor.prototype in brackets', 'name=Ada&metadata[constructor][prototype][polluted]=yes'],
    ['nesting far deeper than any schema', `name=Ada&address${'[a]'.repeat(50)}=1`],
    ['an index far beyond any list', 'name=Ada&expand[99999999]=x'],
    ['a thousand fields', Array.from({ length: 3000 }, (_, i) => `metadata[k${i}]=v`).join('&')],
  ])('%s: answered without a 5xx, and nothing reaches Object.prototype', async (_name, form) => {
    const answer = await request(`${stub.url}/v1/customers`, { method: 'POST', headers: FORM, body: form });
    expect(answer.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const probe = await request(`${stub.url}/v1/customers`, { method: 'POST', headers: FORM, body: 'name=Probe' });
    expect(probe.json.polluted).toBeUndefined();
  });
});
