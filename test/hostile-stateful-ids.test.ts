// Stateful mode against ids and sizes a hostile or careless client sends: an integer id created by
// PUT keeps its type at every digit count (int64 included), read back as the number it was; an
// empty or blank id is refused (400 naming it) instead of stored where no path can reach it; and
// the fetch handler's store is capped as the server's is, with the same statuses for the same
// requests (a create past the cap is 422 and not stored, in both).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import { createFetchHandler } from '../src/fetch.js';

const DOCUMENT = `
${documentHead('Ids')}
  /slots:
    get:
      responses: { '200': { description: slots, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Slot' } } } } } }
  /slots/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer, format: int64 } }]
    get:
      responses:
        '200': { description: a slot, content: { application/json: { schema: { $ref: '#/components/schemas/Slot' } } } }
        '404': { description: none }
    put:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Slot' } } } }
      responses: { '200': { description: the slot, content: { application/json: { schema: { $ref: '#/components/schemas/Slot' } } } } }
  /notes:
    get:
      responses: { '200': { description: notes, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } } } }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
        '400': { description: refused, content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } } }
  /notes/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: a note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
components:
  schemas:
    Slot:
      type: object
      properties: { id: { type: integer, format: int64 }, name: { type: string } }
    Note:
      type: object
      properties: { id: { type: string }, text: { type: string } }
`;

const json = { 'content-type': 'application/json' };

describe('ids a client sends to a stateful stub', () => {
  let stub: DocumentStub;
  beforeAll(async () => {
    stub = await startStubOn(DOCUMENT, { stateful: true });
  });
  afterAll(async () => {
    await stub?.close();
  });

  it.each([
    ['a short one', '42'],
    ['16 digits, below 2^53', '1234567890123456'],
    ['2^53 + 1', '9007199254740993'],
    ['int64\'s largest', '9223372036854775807'],
  ])('an integer id created by PUT (%s) stays a number, every digit kept, in the answer and read back', async (_name, id) => {
    const put = await request(`${stub.url}/slots/${id}`, { method: 'PUT', headers: json, body: '{"name":"window"}' });
    expect([put.status, put.text]).toEqual([200, `{"id":${id},"name":"window"}`]);
    const read = await request(`${stub.url}/slots/${id}`);
    expect([read.status, read.text, read.headers.get('x-mock-violations')]).toEqual([200, `{"id":${id},"name":"window"}`, null]);
  });

  it('an id one past int64 is refused by its parameter\'s format, digits judged exactly', async () => {
    const put = await request(`${stub.url}/slots/9223372036854775808`, { method: 'PUT', headers: json, body: '{"name":"window"}' });
    expect([put.status, put.json.detail]).toEqual([400, '/path/id: must be an int64 (from -9223372036854775808 to 9223372036854775807)']);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('an %s id is refused with 400 naming it, and nothing is stored', async (_name, id) => {
    const created = await request(`${stub.url}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ id, text: 'hello' }) });
    expect(created.status).toBe(400);
    expect(created.json.message).toBe(`/id: ${JSON.stringify(id)} cannot name an item: it could never be read, changed or deleted at /notes/{id}; send an id with a character other than blanks, or none for the stub to assign one`);
    expect((await request(`${stub.url}/notes`)).json).toEqual([]);
  });
});

describe('the fetch handler\'s store, capped as the server\'s', () => {
  it('gives the same statuses as the server to creates that overfill it, and keeps only what it answered as stored', async () => {
    const options = { stateful: true, maxStateBytes: 4000 };
    const server = await startStubOn(DOCUMENT, options);
    const handler = await createFetchHandler({ document: DOCUMENT, log: () => {}, ...options });
    try {
      const bodies = Array.from({ length: 8 }, (_, i) => JSON.stringify({ id: `note-${i}`, text: 'x'.repeat(900) }));
      const served: number[] = [];
      const handled: number[] = [];
      for (const body of bodies) {
        served.push((await request(`${server.url}/notes`, { method: 'POST', headers: json, body })).status);
        handled.push((await handler(new Request('http://stub.test/notes', { method: 'POST', headers: json, body })))!.status);
      }
      expect(served).toEqual([201, 201, 201, 201, 422, 422, 422, 422]);
      expect(handled).toEqual(served);
      const listed = await (await handler(new Request('http://stub.test/notes')))!.json();
      expect(listed.map((note: { id: string }) => note.id)).toEqual(['note-0', 'note-1', 'note-2', 'note-3']);
    } finally {
      await server.close();
    }
  });
});
