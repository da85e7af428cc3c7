// What a success echoes: the fields the client sent, projected onto the response schema, and the
// fields only the server sets (not in the request's schema, or readOnly) from the documented
// example, else generated data. A body that shares no field with the answer is not echoed as `{}`:
// the example answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Echoes, version: '1' }
paths:
  /orders:
    post:
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/NewOrder' } } }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Order' }
              example: { id: 41, item: widget, quantity: 1, note: from the example, createdAt: '2024-05-01T10:00:00Z' }
  /pets:
    post:
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
      responses:
        '200':
          description: the pet
          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' }, example: { id: 7, name: Rex } } }
  /wrapped:
    post:
      requestBody:
        content: { application/json: { schema: { type: object, properties: { data: { type: object, properties: { name: { type: string } } } } } } }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { type: object, properties: { data: { type: object, properties: { gid: { type: string }, name: { type: string } } } } }
              example: { data: { gid: '12345', name: Example } }
  /payment-methods:
    post:
      requestBody:
        content: { application/json: { schema: { type: object, properties: { merchant: { type: string } } } } }
      responses:
        '200':
          description: methods
          content:
            application/json:
              schema: { type: object, properties: { methods: { type: array, items: { type: string } } } }
              examples: { basic: { value: { methods: [card, ideal] } } }
components:
  schemas:
    NewOrder:
      type: object
      required: [item]
      properties:
        item: { type: string }
        quantity: { type: integer }
        note: { type: string }
    Order:
      allOf:
        - $ref: '#/components/schemas/NewOrder'
        - type: object
          required: [id]
          properties:
            id: { type: integer }
            createdAt: { type: string, format: date-time }
    Pet:
      type: object
      required: [name]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        tag: { type: string }
`;

let stub: RunningStub;

beforeAll(async () => {
  stub = await startStubOn(DOCUMENT);
});
afterAll(async () => {
  await stub?.close();
});

describe('a success echoes what was sent, and the server’s own fields come from the example', () => {
  it.each([
    {
      name: 'fields the request schema lacks (id, createdAt) come from the example; an optional field not sent stays out',
      path: '/orders', sent: { item: 'lamp', quantity: 2 },
      status: 201, scenario: 'echo', body: { id: 41, item: 'lamp', quantity: 2, createdAt: '2024-05-01T10:00:00Z' },
    },
    {
      name: 'a readOnly field of a schema shared by request and answer comes from the example',
      path: '/pets', sent: { name: 'Tom' },
      status: 200, scenario: 'echo', body: { id: 7, name: 'Tom' },
    },
    {
      name: 'a readOnly field the client sent anyway is echoed',
      path: '/pets', sent: { id: 99, name: 'Tom', tag: 'cat' },
      status: 200, scenario: 'echo', body: { id: 99, name: 'Tom', tag: 'cat' },
    },
    {
      name: 'inside a wrapper too: the wrapped object gets the server’s gid',
      path: '/wrapped', sent: { data: { name: 'Buy milk' } },
      status: 201, scenario: 'echo', body: { data: { gid: '12345', name: 'Buy milk' } },
    },
    {
      name: 'a body sharing no field with the answer is answered by the example, not echoed as {}',
      path: '/payment-methods', sent: { merchant: 'M1' },
      status: 200, scenario: 'example:basic', body: { methods: ['card', 'ideal'] },
    },
  ])('$name', async ({ path, sent, status, scenario, body }) => {
    const answer = await request(`${stub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-mock-scenario')).toBe(scenario);
    expect(answer.json).toEqual(body);
  });
});
