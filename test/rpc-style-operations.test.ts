// RPC-style operations: where no id is in the path (`chat.postMessage`,
// `conversations.info?channel=C1`), the fields a request sends in its query or body land in the
// answer's properties of the same name (spelt alike), where they fit; and an operation documented
// only as GET with a form request (a form request body, or Swagger 2.0's `consumes:
// application/x-www-form-urlencoded`) also answers the same request sent as a form POST, as the
// official clients of such APIs send every call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

const CHANNEL = "{ type: string, pattern: '^C[A-Z0-9]+$' }";
const OPENAPI = `
openapi: 3.0.3
info: { title: Chat, version: '1' }
paths:
  /chat.postMessage:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded: { schema: { type: object, required: [channel], properties: { channel: { type: string }, text: { type: string } } } }
          application/json: { schema: { type: object, properties: { channel_id: { type: string }, text: { type: string } } } }
      responses:
        '200':
          description: sent
          content:
            application/json:
              schema: { type: object, properties: { ok: { type: boolean }, channelId: ${CHANNEL}, channel: ${CHANNEL}, ts: { type: string } } }
              example: { ok: true, channelId: C0EXAMPLE, channel: C0EXAMPLE, ts: '1503435956.000247' }
  /conversations.members:
    get:
      parameters:
        - { name: channel, in: query, required: true, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200':
          description: members
          content:
            application/json:
              schema: { type: object, properties: { ok: { type: boolean }, channel: ${CHANNEL}, limit: { type: integer }, members: { type: array, items: { type: string } } } }
              example: { ok: true, channel: C0EXAMPLE, limit: 100, members: [U1, U2] }
  /conversations.history:
    get:
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, required: [channel], properties: { channel: { type: string }, inclusive: { type: boolean } } } } } }
      responses:
        '200':
          description: history
          content:
            application/json:
              schema: { type: object, properties: { ok: { type: boolean }, channel: ${CHANNEL}, inclusive: { type: boolean } } }
              example: { ok: true, channel: C0EXAMPLE, inclusive: false }
`;

const SWAGGER = `
swagger: '2.0'
info: { title: Chat, version: '1' }
paths:
  /conversations.info:
    get:
      consumes: [application/x-www-form-urlencoded]
      produces: [application/json]
      parameters:
        - { name: channel, in: query, required: true, type: string }
        - { name: include_locale, in: query, type: boolean }
      responses:
        '200':
          description: the channel
          schema: { type: object, properties: { ok: { type: boolean }, channel: { type: string, pattern: '^C[A-Z0-9]+$' }, include_locale: { type: boolean } } }
          examples: { application/json: { ok: true, channel: C0EXAMPLE, include_locale: false } }
  /users.list:
    get:
      produces: [application/json]
      parameters: [{ name: cursor, in: query, type: string }]
      responses: { '200': { description: users, schema: { type: object, properties: { ok: { type: boolean } } } } }
`;

describe('RPC-style operations', () => {
  let openapi: DocumentStub;
  let swagger: DocumentStub;
  beforeAll(async () => {
    openapi = await startStubOn(OPENAPI);
    swagger = await startStubOn(SWAGGER);
  });
  afterAll(async () => {
    await openapi?.close();
    await swagger?.close();
  });

  it.each([
    ['a query field in the answer property of its name, read in its type', 'GET', '/conversations.members?channel=C42&limit=7', {}, undefined, 200, { ok: true, channel: 'C42', limit: 7, members: ['U1', 'U2'] }],
    ['a value that breaks the property\'s schema is not reflected', 'GET', '/conversations.members?channel=general', {}, undefined, 200, { ok: true, channel: 'C0EXAMPLE', limit: 100, members: ['U1', 'U2'] }],
    ['a form POST\'s field', 'POST', '/chat.postMessage', FORM, 'channel=C42&text=hello', 200, { ok: true, channel: 'C42', channelId: 'C0EXAMPLE', ts: '1503435956.000247' }],
    ['a JSON field in the property spelt the other way (channel_id -> channelId)', 'POST', '/chat.postMessage', JSON_TYPE, '{"channel_id":"C7","text":"hi"}', 200, { ok: true, channel: 'C0EXAMPLE', channelId: 'C7', ts: '1503435956.000247' }],
    ['a GET documented with a form body, sent as a form POST', 'POST', '/conversations.history', FORM, 'channel=C9&inclusive=true', 200, { channel: 'C9', inclusive: true }],
    ['a form POST to it still checks the form', 'POST', '/conversations.history', FORM, 'inclusive=true', 400, expect.objectContaining({ violations: ['/channel: is required'] })],
  ])('%s', async (_name, method, path, headers, body, status, json) => {
    const answer = await request(openapi.url + path, { method, headers, body });
    expect([answer.status, answer.json]).toEqual([status, json]);
  });

  it.each([
    ['GET with its query', 'GET', '/conversations.info?channel=C5&include_locale=true', {}, undefined, 200, { ok: true, channel: 'C5', include_locale: true }],
    ['the same as a form POST (the form read as the query)', 'POST', '/conversations.info', FORM, 'channel=C5&include_locale=true', 200, { ok: true, channel: 'C5', include_locale: true }],
    ['a form POST missing the required query field', 'POST', '/conversations.info', FORM, 'include_locale=true', 400, expect.objectContaining({ violations: ['/query/channel: is required'] })],
  ])('Swagger 2.0 `consumes` form: %s', async (_name, method, path, headers, body, status, json) => {
    const answer = await request(swagger.url + path, { method, headers, body });
    expect([answer.status, answer.json]).toEqual([status, json]);
  });

  it.each([
    ['a form GET names POST among the methods it allows', () => openapi, '/conversations.history', 'GET, HEAD, POST'],
    ['a Swagger 2.0 form GET too', () => swagger, '/conversations.info', 'GET, HEAD, POST'],
    ['a GET whose request is no form does not', () => swagger, '/users.list', 'GET, HEAD'],
  ])('%s', async (_name, stub, path, allow) => {
    const answer = await request(stub().url + path, { method: 'PUT', headers: FORM, body: 'channel=C1' });
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, allow]);
  });
});
