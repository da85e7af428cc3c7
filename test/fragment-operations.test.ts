// Operations written on one path apart by a `#fragment`, as Box's document does: a client never
// sends the fragment, so `PUT /files/1` is answered by the operation whose request it is (the one
// written without a fragment first, then each fragment one in turn), and the journal and coverage
// name the operation that answered.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: fragments, version: '1' }
paths:
  /files/{file_id}:
    put:
      parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties: { name: { type: string }, shared_link: { type: object, properties: { access: { type: string } } } }
      responses:
        '200': { description: updated, content: { application/json: { schema: { const: updated } } } }
        '400': { description: bad, content: { application/json: { schema: { type: object, required: [problem], properties: { problem: { type: string } } } } } }
  /files/{file_id}#remove_shared_link:
    put:
      parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [shared_link], additionalProperties: false, properties: { shared_link: { nullable: true, type: object } } }
      responses:
        '200': { description: removed, content: { application/json: { schema: { const: link removed } } } }
  /templates/schema#add:
    put:
      requestBody: { content: { application/json: { schema: { type: object, required: [op], properties: { op: { const: add } } } } } }
      responses:
        '200': { description: added, content: { application/json: { schema: { const: option added } } } }
  /templates/schema#update:
    put:
      requestBody: { content: { application/json: { schema: { type: object, required: [op], properties: { op: { const: edit } } } } } }
      responses:
        '200': { description: edited, content: { application/json: { schema: { const: option edited } } } }
`;

let stub: DocumentStub;
beforeAll(async () => {
  stub = await startStubOn(DOCUMENT);
});
afterAll(() => stub.close());

describe('operations apart by a #fragment on one path', () => {
  it.each([
    ['the operation written without a fragment answers its own request', '/files/1', { name: 'report.pdf' }, 200, 'updated', 'PUT /files/{file_id}'],
    ['a body only the fragment operation accepts is answered by it', '/files/1', { shared_link: null }, 200, 'link removed', 'PUT /files/{file_id}#remove_shared_link'],
    ['a body none accepts is refused in the routed operation’s shape', '/files/1', { shared_link: 5 }, 400, { problem: expect.stringContaining('/shared_link') }, null],
    ['two fragment operations and none without: the first', '/templates/schema', { op: 'add' }, 200, 'option added', 'PUT /templates/schema#add'],
    ['two fragment operations and none without: the second', '/templates/schema', { op: 'edit' }, 200, 'option edited', 'PUT /templates/schema#update'],
  ])('%s', async (_name, path, body, status, answer, operation) => {
    stub.reset();
    const response = await request(`${stub.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(status);
    if (typeof answer === 'string') expect(response.json).toBe(answer);
    else expect(response.json).toMatchObject(answer);
    const exercised = stub.coverage().operations.filter((op) => op.responses.some((r) => r.hits > 0)).map((op) => op.operation);
    expect(exercised).toEqual(operation === null ? ['PUT /files/{file_id}'] : [operation]);
  });
});

describe('a #fragment operation written before its path’s own, under a server base path', () => {
  const FIRST = `
openapi: 3.0.3
info: { title: fragment first, version: '1' }
servers: [{ url: /v2 }]
paths:
  /files/{file_id}#remove_shared_link:
    put:
      parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
      requestBody: { content: { application/json: { schema: { type: object, required: [shared_link], additionalProperties: false, properties: { shared_link: { nullable: true, type: object } } } } } }
      responses: { '200': { description: removed, content: { application/json: { schema: { const: link removed } } } } }
  /files/{file_id}:
    put:
      parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
      requestBody: { content: { application/json: { schema: { type: object, additionalProperties: false, properties: { name: { type: string } } } } } }
      responses: { '200': { description: updated, content: { application/json: { schema: { const: updated } } } } }
`;
  let first: DocumentStub;
  beforeAll(async () => {
    first = await startStubOn(FIRST);
  });
  afterAll(() => first.close());

  it.each([
    ['/files/1', { name: 'r' }, 'updated'],
    ['/v2/files/1', { name: 'r' }, 'updated'],
    ['/v2/files/1', { shared_link: null }, 'link removed'],
  ])('PUT %s %j answers %j', async (path, body, answer) => {
    const response = await request(`${first.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect(response.json).toBe(answer);
  });

  it('two documents, one writing the other’s path with a #fragment, are refused as answering one path', async () => {
    const put = (path: string) => `openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  ${path}:\n    put:\n      responses: { '204': { description: done } }\n`;
    const dir = await mkdtemp(join(tmpdir(), 'fragment-documents-'));
    try {
      await writeFile(join(dir, 'a.yaml'), put('/files/{file_id}'));
      await writeFile(join(dir, 'b.yaml'), put('/files/{id}#remove_shared_link'));
      await expect(startStub({ spec: [join(dir, 'a.yaml'), join(dir, 'b.yaml')], port: 0, log: () => {}, watch: false })).rejects.toThrow(/answer the same path/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
