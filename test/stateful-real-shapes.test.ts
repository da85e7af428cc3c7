// Stateful mode on the shapes company documents use: bodies in an envelope (`{"data": {...}}` in
// and out, `{"data": [...]}` for lists), `.json` suffixes on both paths, ids in the property the
// document names (`gid`, `sid` with its pattern, a uuid) assigned at create and usable at once,
// and the fields only the server sets made at create time and read back unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters, SID, SID_PROPERTY } from './helpers/company-shapes.js';
import { startCli } from './helpers/cli.js';

const DOCUMENT = `
${documentHead('Real shapes')}
  /tasks:
    get:
      responses:
        '200':
          description: tasks
          content: { application/json: { schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Task' } } } } } }
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/TaskRequest' } } } } } }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } }
              example: { data: { gid: '12345', name: Bug Task, created_at: '2024-01-02T03:04:05Z' } }
  /tasks/{task_gid}:
    ${pathParameters('task_gid')}
    get:
      responses:
        '200': { description: a task, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } }
        '404': { description: no such task }
    put:
      requestBody: { content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/TaskRequest' } } } } } }
      responses:
        '200': { description: updated, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } }
    delete:
      responses:
        '200': { description: deleted, content: { application/json: { schema: { type: object, properties: { data: { type: object } } } } } }
  /Accounts/{AccountSid}/Messages.json:
    ${pathParameters('AccountSid')}
    get:
      responses:
        '200':
          description: messages
          content: { application/json: { schema: { type: object, properties: { messages: { type: array, items: { $ref: '#/components/schemas/Message' } }, page: { type: integer } } } } }
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [Body], properties: { Body: { type: string } } } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Message' } } } }
  /Accounts/{AccountSid}/Messages/{Sid}.json:
    ${pathParameters('AccountSid', 'Sid')}
    get:
      responses:
        '200': { description: a message, content: { application/json: { schema: { $ref: '#/components/schemas/Message' } } } }
  /folders:
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Folder' } } } }
  /folders/{folder_id}:
    ${pathParameters('folder_id')}
    get:
      responses:
        '200': { description: a folder, content: { application/json: { schema: { $ref: '#/components/schemas/Folder' } } } }
  /jobs:
    get:
      responses:
        '200': { description: jobs, content: { application/json: { schema: { type: array, items: { type: object } } } } }
  /jobs/{id}:
    ${pathParameters('id')}
    post:
      responses:
        '202': { description: started }
components:
  schemas:
    TaskRequest:
      type: object
      properties: { name: { type: string }, notes: { type: string } }
    Task:
      type: object
      properties:
        gid: { type: string, readOnly: true }
        name: { type: string }
        notes: { type: string }
        created_at: { type: string, format: date-time, readOnly: true }
    Message:
      type: object
      properties:
        ${SID_PROPERTY}
        body: { type: string }
        Body: { type: string }
        date_created: { type: string, example: 'Thu, 30 Jul 2015 20:12:31 +0000' }
    Folder:
      type: object
      properties:
        id: { type: string, format: uuid }
        name: { type: string }
        size: { type: integer, minimum: 0 }
        created_at: { type: string, format: date-time }
`;

const JSON_TYPE = { 'content-type': 'application/json' };
let stub: DocumentStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT, { stateful: true }); });
afterAll(async () => { await stub?.close(); });

describe('an envelope API (Asana\'s shape)', () => {
  it('assigns a new gid to each create, answers it in the envelope, and reads back what the create answered', async () => {
    const first = await request(`${stub.url}/tasks`, { method: 'POST', headers: JSON_TYPE, body: '{"data":{"name":"Buy milk"}}' });
    const second = await request(`${stub.url}/tasks`, { method: 'POST', headers: JSON_TYPE, body: '{"data":{"name":"Walk dog"}}' });
    expect(first.status).toBe(201);
    expect(first.json.data.name).toBe('Buy milk');
    expect(first.json.data.created_at).toBe('2024-01-02T03:04:05Z');
    expect(typeof first.json.data.gid).toBe('string');
    expect(second.json.data.gid).not.toBe(first.json.data.gid);

    const read = await request(`${stub.url}/tasks/${first.json.data.gid}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(first.json);

    const list = await request(`${stub.url}/tasks`);
    expect(list.status).toBe(200);
    expect(list.json.data.map((task: any) => task.name)).toEqual(['Buy milk', 'Walk dog']);
    expect(list.json.data.map((task: any) => task.gid)).toEqual([first.json.data.gid, second.json.data.gid]);
  });

  it('replaces through the envelope, keeping the id and what only the server set, then deletes', async () => {
    const created = await request(`${stub.url}/tasks`, { method: 'POST', headers: JSON_TYPE, body: '{"data":{"name":"Old"}}' });
    const gid = created.json.data.gid;
    const replaced = await request(`${stub.url}/tasks/${gid}`, { method: 'PUT', headers: JSON_TYPE, body: '{"data":{"name":"New","notes":"n"}}' });
    expect(replaced.status).toBe(200);
    expect(replaced.json.data).toEqual({ gid, name: 'New', notes: 'n', created_at: created.json.data.created_at });
    expect((await request(`${stub.url}/tasks/${gid}`)).json).toEqual(replaced.json);
    const removed = await request(`${stub.url}/tasks/${gid}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await request(`${stub.url}/tasks/${gid}`)).status).toBe(404);
  });
});

describe('a .json suffix with a patterned sid (Twilio\'s shape)', () => {
  it('assigns a sid that fits the pattern and reads the message back by it', async () => {
    const base = `${stub.url}/Accounts/AC1/Messages`;
    const created = await request(`${base}.json`, { method: 'POST', headers: JSON_TYPE, body: '{"Body":"Hello"}' });
    const again = await request(`${base}.json`, { method: 'POST', headers: JSON_TYPE, body: '{"Body":"Again"}' });
    expect(created.status).toBe(201);
    expect(created.json.sid).toMatch(new RegExp(SID));
    expect(again.json.sid).toMatch(new RegExp(SID));
    expect(again.json.sid).not.toBe(created.json.sid);
    expect(created.json.Body).toBe('Hello');
    const read = await request(`${base}/${created.json.sid}.json`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    const list = await request(`${base}.json`);
    expect(list.json.messages.map((m: any) => m.sid)).toEqual([created.json.sid, again.json.sid]);
  });
});

describe('a uuid id and server-only fields (Box\'s shape)', () => {
  it('answers the read with every field the create answered', async () => {
    const created = await request(`${stub.url}/folders`, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Docs"}' });
    expect(created.status).toBe(201);
    expect(created.json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Object.keys(created.json).sort()).toEqual(['created_at', 'id', 'name', 'size']);
    const read = await request(`${stub.url}/folders/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
  });
});

describe('GET /__admin/resources', () => {
  it('lists each resource with its id property, envelopes and parent scope, and each pair left stateless with the reason', async () => {
    const answer = await request(`${stub.url}/__admin/resources`);
    expect(answer.status).toBe(200);
    const byCollection = Object.fromEntries(answer.json.resources.map((r: any) => [r.collection, r]));
    expect(byCollection['/tasks']).toMatchObject({
      item: '/tasks/{task_gid}', idProperty: 'gid', bodyEnvelope: 'data', answerEnvelope: 'data', serverFields: ['created_at'],
      operations: { create: 'POST /tasks', list: 'GET /tasks', read: 'GET /tasks/{task_gid}', replace: 'PUT /tasks/{task_gid}', delete: 'DELETE /tasks/{task_gid}' }, scope: [],
    });
    expect(byCollection['/Accounts/{AccountSid}/Messages.json']).toMatchObject({ item: '/Accounts/{AccountSid}/Messages/{Sid}.json', idProperty: 'sid', idKind: 'pattern', answerEnvelope: null });
    // A parent parameter the message has no property for: messages are not kept apart by account.
    expect(byCollection['/Accounts/{AccountSid}/Messages.json'].scope).toEqual([{ parameter: 'AccountSid', property: null }]);
    expect(byCollection['/folders']).toMatchObject({ idProperty: 'id', idKind: 'uuid', serverFields: ['size', 'created_at'] });
    expect(answer.json.stateless).toEqual([{ collection: '/jobs', item: '/jobs/{id}', reason: 'the item path has no GET, PUT, PATCH or DELETE' }]);
  });
});

describe('the start', () => {
  it('says in one line what it made stateful and where to see the rest', async () => {
    const cli = await startCli(['--port', '0', '--no-watch', '--stateful', '--spec', stub.file]);
    try {
      const lines = cli.stdout().split('\n').map((line) => line.trim());
      expect(lines).toContain('stateful: 3 resources; 1 path pair left stateless, see /__admin/resources');
    } finally {
      await cli.stop();
    }
  });
});
