// One name, several spellings: a request field sent as `FriendlyName`,
// `friendlyName` or `friendly-name` is answered as the document's `friendly_name`, stateless (the
// echo) and stateful (the create's answer and every later read agree), where the spelling is the
// only one of its words in the request; two spellings of one name map to neither.
import { afterAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import { post, request } from './helpers/http.js';

const ITEM = `{ type: object, required: [sid], properties: { sid: { type: string }, friendly_name: { type: string }, status_callback: { type: string }, max_price: { type: number } } }`;

const DOCUMENT = `
${documentHead('Spellings')}
  /Accounts/{AccountSid}/Queues.json:
    ${pathParameters('AccountSid')}
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { FriendlyName: { type: string }, StatusCallback: { type: string }, MaxPrice: { type: number } } }
      responses:
        '201': { description: created, content: { application/json: { schema: ${ITEM} } } }
  /Accounts/{AccountSid}/Queues/{Sid}.json:
    ${pathParameters('AccountSid', 'Sid')}
    get:
      responses:
        '200': { description: a queue, content: { application/json: { schema: ${ITEM} } } }
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { FriendlyName: { type: string }, MaxPrice: { type: number } } }
      responses:
        '200': { description: updated, content: { application/json: { schema: ${ITEM} } } }
  /labels:
    post:
      requestBody: { content: { application/json: { schema: { type: object, additionalProperties: true } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { type: object, properties: { display_name: { type: string }, colour_code: { type: string } } } } } }
`;

const started: DocumentStub[] = [];
afterAll(async () => Promise.all(started.map((stub) => stub.close())));

async function stubOf(stateful: boolean): Promise<DocumentStub> {
  const stub = await startStubOn(DOCUMENT, { stateful });
  started.push(stub);
  return stub;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('one name, several spellings', () => {
  it.each([
    ['PascalCase form fields', 'FriendlyName=Support&StatusCallback=https%3A%2F%2Fexample.com%2Fcb&MaxPrice=0.5'],
  ])('answers %s under the document\'s snake_case names, stateless', async (_what, form) => {
    const stub = await stubOf(false);
    const created = await post(`${stub.url}/Accounts/AC1/Queues.json`, form, FORM);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ friendly_name: 'Support', status_callback: 'https://example.com/cb', max_price: 0.5 });
  });

  it.each([
    ['camelCase', { displayName: 'Urgent', colourCode: '#f00' }],
    ['kebab-case', { 'display-name': 'Urgent', 'colour-code': '#f00' }],
    ['PascalCase', { DisplayName: 'Urgent', ColourCode: '#f00' }],
  ])('echoes %s JSON fields under snake_case names', async (_what, body) => {
    const stub = await stubOf(false);
    const created = await post(`${stub.url}/labels`, body, JSON_TYPE);
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ display_name: 'Urgent', colour_code: '#f00' });
  });

  it('maps neither of two spellings of one name', async () => {
    const stub = await stubOf(false);
    const created = await post(`${stub.url}/labels`, { displayName: 'A', DisplayName: 'B', colourCode: '#0f0' }, JSON_TYPE);
    expect(created.status).toBe(201);
    expect(created.json.colour_code).toBe('#0f0');
    expect(['A', 'B']).not.toContain(created.json.display_name);
  });

  it('stateful: the create answers the fields sent, and the read by its sid answers the same', async () => {
    const stub = await stubOf(true);
    const created = await post(`${stub.url}/Accounts/AC1/Queues.json`, 'FriendlyName=Billing&MaxPrice=2', FORM);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ friendly_name: 'Billing', max_price: 2 });
    const read = await request(`${stub.url}/Accounts/AC1/Queues/${encodeURIComponent(created.json.sid)}.json`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    // An update in the request's spelling changes the answer's field, and every read agrees.
    const item = `${stub.url}/Accounts/AC1/Queues/${encodeURIComponent(created.json.sid)}.json`;
    const updated = await post(item, 'FriendlyName=Billing%20EU', FORM);
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ friendly_name: 'Billing EU', max_price: 2 });
    expect((await request(item)).json).toEqual(updated.json);
    expect((await request(`${stub.url}/__admin/state`)).text).not.toContain('FriendlyName');
  });
});
