// Stateless answers agree with their request: an item read by id answers that id in the property
// the path parameter names (full name, snake_case, last word, else id/gid/sid/uuid/key), at the top
// level or inside an envelope; other path values land in the properties they name; a list's items
// each have their own id. Where the path's value does not fit the property's schema, the answer is
// today's (the documented example), never an invalid one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters, SID, SID_PROPERTY } from './helpers/company-shapes.js';

const DOCUMENT = `
${documentHead('Agreeing answers')}
  /tasks:
    get:
      responses:
        '200':
          description: tasks in an envelope
          content:
            application/json:
              schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Task' } }, next_page: { type: object, nullable: true } } }
              example: { data: [{ gid: '12345', name: Bug Task }, { gid: '12345', name: Bug Task }], next_page: { offset: abc } }
  /tasks/{task_gid}:
    ${pathParameters('task_gid')}
    get:
      responses:
        '200':
          description: one task in an envelope
          content:
            application/json:
              schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } }
              examples:
                first: { value: { data: { gid: '12345', name: Bug Task } } }
                second: { value: { data: { gid: '999', name: Other Task } } }
  /Accounts/{AccountSid}/Messages.json:
    ${pathParameters('AccountSid')}
    get:
      responses:
        '200':
          description: messages of one account
          content:
            application/json:
              schema:
                type: object
                properties:
                  messages: { type: array, minItems: 3, maxItems: 3, items: { $ref: '#/components/schemas/Message' } }
                  page: { type: integer, example: 0 }
  /Accounts/{AccountSid}/Messages/{Sid}.json:
    ${pathParameters('AccountSid', 'Sid')}
    get:
      responses:
        '200':
          description: one message
          content: { application/json: { schema: { $ref: '#/components/schemas/Message' } } }
  /pets/{petId}:
    ${pathParameters('petId')}
    get:
      responses:
        '200':
          description: a pet with an integer id
          content:
            application/json:
              schema: { type: object, required: [id], properties: { id: { type: integer, format: int64 }, name: { type: string } } }
              example: { id: 7, name: Rex }
  /pets:
    get:
      responses:
        '200':
          description: pets with integer ids
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { id: { type: integer }, name: { type: string } } } }
              example: [{ id: 7, name: Rex }, { id: 7, name: Rex }, { id: 8, name: Bo }]
  /folders/{folder_id}:
    ${pathParameters('folder_id')}
    get:
      responses:
        '200':
          description: a folder with a uuid
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string, format: uuid }, name: { type: string } } }
              example: { id: 3fa85f64-5717-4562-b3fc-2c963f66afa6, name: Docs }
  /folders:
    get:
      responses:
        '200':
          description: folders with uuids
          content:
            application/json:
              schema: { type: object, properties: { entries: { type: array, items: { type: object, properties: { id: { type: string, format: uuid } } } } } }
              example: { entries: [{ id: 3fa85f64-5717-4562-b3fc-2c963f66afa6 }, { id: 3fa85f64-5717-4562-b3fc-2c963f66afa6 }] }
  /repos/{owner}/{repo}/issues/{issue_number}:
    parameters:
      - { name: owner, in: path, required: true, schema: { type: string } }
      - { name: repo, in: path, required: true, schema: { type: string } }
      - { name: issue_number, in: path, required: true, schema: { type: integer } }
    patch:
      requestBody: { content: { application/json: { schema: { type: object, properties: { title: { type: string } } } } } }
      responses:
        '200':
          description: the issue
          content:
            application/json:
              schema: { type: object, properties: { id: { type: integer }, number: { type: integer }, title: { type: string } } }
              example: { id: 1, number: 1347, title: Found a bug }
components:
  schemas:
    Task:
      type: object
      properties: { gid: { type: string }, name: { type: string } }
    Message:
      type: object
      properties:
        ${SID_PROPERTY}
        account_sid: { type: string, pattern: '^AC[0-9a-fA-F]{32}$', example: AC1234567890abcdef1234567890abcdef }
        body: { type: string, example: Hello }
`;

const MESSAGE_SID = 'SMaaaabbbbccccddddeeeeffff00001111';
const ACCOUNT_SID = 'ACbbbbccccddddeeeeffff000011112222';
const FOLDER_UUID = '0b6f5a2e-8c1d-4f3a-9e7b-2d4c6a8e0f12';

let stub: RunningStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT); });
afterAll(async () => { await stub?.close(); });

describe('an item read by id answers that id', () => {
  const cases: Array<{ name: string; path: string; method?: string; read: (body: any) => unknown; expected: unknown }> = [
    { name: 'in the envelope\'s gid, named by the last word of {task_gid}', path: '/tasks/1', read: (b) => b.data.gid, expected: '1' },
    { name: 'in sid, named by {Sid}, behind a .json suffix, when it fits the pattern', path: `/Accounts/${ACCOUNT_SID}/Messages/${MESSAGE_SID}.json`, read: (b) => b.sid, expected: MESSAGE_SID },
    { name: 'with the parent\'s {AccountSid} in account_sid', path: `/Accounts/${ACCOUNT_SID}/Messages/${MESSAGE_SID}.json`, read: (b) => b.account_sid, expected: ACCOUNT_SID },
    { name: 'as an integer where the id property is an integer', path: '/pets/42', read: (b) => b.id, expected: 42 },
    { name: 'in id, named by the last word of {folder_id}, when it is a uuid', path: `/folders/${FOLDER_UUID}`, read: (b) => b.id, expected: FOLDER_UUID },
    { name: 'in number, named by the last word of {issue_number}, on an update too', path: '/repos/octo/hello/issues/42', method: 'PATCH', read: (b) => b.number, expected: 42 },
  ];
  it.each(cases)('answers $name', async ({ path, method, read, expected }) => {
    const answer = await request(`${stub.url}${path}`, method === 'PATCH'
      ? { method, headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' } : {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/json/);
    expect(read(answer.json)).toEqual(expected);
  });
});

describe('a path value that does not fit keeps the documented answer', () => {
  const cases = [
    { name: 'a sid outside the pattern', path: `/Accounts/${ACCOUNT_SID}/Messages/nope.json`, read: (b: any) => b.sid, expected: 'SM1234567890abcdef1234567890abcdef' },
    { name: 'a word where the id is an integer', path: '/pets/rex', read: (b: any) => b.id, expected: 7 },
    { name: 'a number where the id is a uuid', path: '/folders/12', read: (b: any) => b.id, expected: '3fa85f64-5717-4562-b3fc-2c963f66afa6' },
    { name: 'an account sid outside its pattern', path: `/Accounts/AC1/Messages/${MESSAGE_SID}.json`, read: (b: any) => b.account_sid, expected: 'AC1234567890abcdef1234567890abcdef' },
  ];
  it.each(cases)('answers the example for $name, with no self-check finding', async ({ path, read, expected }) => {
    const answer = await request(`${stub.url}${path}`);
    expect(answer.status).toBe(200);
    expect(read(answer.json)).toEqual(expected);
    const [entry] = stub.requests({ path: path.split('?')[0] }).slice(-1);
    expect(entry.selfCheck ?? []).toEqual([]);
  });

  it('serves an example asked for by name as written', async () => {
    const answer = await request(`${stub.url}/tasks/1`, { headers: { prefer: 'example=second' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { gid: '999', name: 'Other Task' } });
  });
});

describe('a list has distinct items', () => {
  const cases: Array<{ name: string; path: string; items: (body: any) => any[]; id: string; valid: RegExp }> = [
    { name: 'string gids in a data envelope', path: '/tasks', items: (b) => b.data, id: 'gid', valid: /^\d{5}$/ },
    { name: 'integer ids in a top-level array', path: '/pets', items: (b) => b, id: 'id', valid: /^\d+$/ },
    { name: 'uuids in an entries envelope', path: '/folders', items: (b) => b.entries, id: 'id', valid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
    { name: 'generated sids under their only array property', path: `/Accounts/${ACCOUNT_SID}/Messages.json`, items: (b) => b.messages, id: 'sid', valid: new RegExp(SID) },
  ];
  it.each(cases)('answers $name, each its own, the same bytes each time', async ({ path, items, id, valid }) => {
    const first = await request(`${stub.url}${path}`);
    const again = await request(`${stub.url}${path}`);
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const ids = items(first.json).map((item) => item[id]);
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    for (const value of ids) expect(String(value)).toMatch(valid);
  });

  it('puts the parent path value on every item of a list', async () => {
    const answer = await request(`${stub.url}/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(answer.json.messages.map((m: any) => m.account_sid)).toEqual([ACCOUNT_SID, ACCOUNT_SID, ACCOUNT_SID]);
  });
});
