// A 400 follows the operation's own documented error shape, whatever it is: flat, wrapped in an
// object, or with extra required fields; where no documented shape fits, problem+json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const SPEC = `
openapi: 3.1.0
info: { title: Error shapes, version: 1.0.0 }
paths:
  /flat:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Input' } } } }
      responses:
        '200': { description: ok }
        '400': { description: bad, content: { application/json: { schema: { type: object, required: [code, detail], properties: { code: { type: integer }, detail: { type: string } } } } } }
  /wrapped:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Input' } } } }
      responses:
        '200': { description: ok }
        '4XX':
          description: bad
          content:
            application/json:
              schema:
                type: object
                required: [error, requestId]
                properties:
                  requestId: { type: string, example: req-1 }
                  error: { type: object, required: [status, message], properties: { status: { type: integer }, message: { type: string } } }
              example: { requestId: req-42, error: { status: 400, message: example } }
  /impossible:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Input' } } } }
      responses:
        '200': { description: ok }
        default: { description: bad, content: { application/json: { schema: { type: object, required: [kind], properties: { kind: { const: never-an-error } } } } } }
components:
  schemas:
    Input: { type: object, required: [n], properties: { n: { type: integer } } }
`;

describe('400 answers in each operation’s documented error shape', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStubOn(SPEC);
  });
  afterAll(() => stub.close());

  it.each([
    ['a flat shape carries the status and the violations', '/flat', 'application/json', { code: 400, detail: '/n: must be an integer' }],
    ['a wrapped shape carries them inside, other required fields from the example', '/wrapped', 'application/json', { requestId: 'req-42', error: { status: 400, message: '/n: must be an integer' } }],
    ['a shape no error fits is replaced by problem+json', '/impossible', 'application/problem+json', { type: 'about:blank', title: 'Bad Request', status: 400, detail: '/n: must be an integer', violations: ['/n: must be an integer'] }],
  ])('%s', async (_name, path, contentType, body) => {
    const response = await request(stub.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":"x"}' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.json).toEqual(body);
  });
});
