// A list paged by cursor ends, in the shapes company APIs use: Asana's `offset` with
// `next_page: {offset, path, uri}`, Box's `marker` with `next_marker`, Twilio's `PageToken` with a
// relative `next_page_uri`, Stripe's `starting_after` with `has_more`. A client that follows the
// next page until there is none stays on the stub and stops: after three pages without state, after
// the pages the store fills in stateful mode, seeing each item once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead } from './helpers/company-shapes.js';

const DOCUMENT = `
${documentHead('Cursors')}
  /tasks:
    get:
      parameters: [{ name: offset, in: query, schema: { type: string } }, { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }]
      responses:
        '200':
          description: tasks
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: { type: array, items: { $ref: '#/components/schemas/Task' } }
                  next_page: { type: object, nullable: true, properties: { offset: { type: string }, path: { type: string }, uri: { type: string, format: uri } } }
              example:
                data: [{ gid: '1', name: Bug }, { gid: '2', name: Fix }]
                next_page: { offset: eyJ0eXAiOJiKV1iQLCJhbGciOiJIUzI1NiJ9, path: '/tasks?limit=2&offset=eyJ0eXAiOJiKV1iQLCJhbGciOiJIUzI1NiJ9', uri: 'https://app.asana.com/api/1.0/tasks?limit=2&offset=eyJ0eXAiOJiKV1iQLCJhbGciOiJIUzI1NiJ9' }
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } } }
  /tasks/{task_gid}:
    parameters: [{ name: task_gid, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: a task, content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Task' } } } } } } }
  /files:
    get:
      parameters:
        - { name: marker, in: query, schema: { type: string } }
        - { name: usemarker, in: query, schema: { type: boolean } }
        - { name: limit, in: query, schema: { type: integer, default: 100, maximum: 1000 } }
      responses:
        '200':
          description: files
          content:
            application/json:
              schema:
                type: object
                properties:
                  entries: { type: array, items: { $ref: '#/components/schemas/File' } }
                  limit: { type: integer }
                  next_marker: { type: string, nullable: true }
              example: { entries: [{ id: '11', name: a.txt }], limit: 1000, next_marker: JV9IRGZmieiBasejOG9yDCRNgd2ymoZIbjsxbJMjIs3kioVii }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/File' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/File' } } } } }
  /files/{file_id}:
    parameters: [{ name: file_id, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: a file, content: { application/json: { schema: { $ref: '#/components/schemas/File' } } } } }
  /2010-04-01/Accounts/{AccountSid}/Messages.json:
    parameters: [{ name: AccountSid, in: path, required: true, schema: { type: string } }]
    get:
      parameters:
        - { name: PageSize, in: query, schema: { type: integer, minimum: 1 } }
        - { name: Page, in: query, schema: { type: integer, minimum: 0 } }
        - { name: PageToken, in: query, schema: { type: string } }
      responses:
        '200':
          description: messages
          content:
            application/json:
              schema:
                type: object
                properties:
                  messages: { type: array, items: { $ref: '#/components/schemas/Message' } }
                  next_page_uri: { type: string, nullable: true }
                  page: { type: integer }
              example: { messages: [{ sid: SM1, body: hello }], next_page_uri: '/2010-04-01/Accounts/AC1/Messages.json?PageSize=50&Page=1&PageToken=PASM1', page: 0 }
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { Body: { type: string } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Message' } } } } }
  /2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json:
    parameters: [{ name: AccountSid, in: path, required: true, schema: { type: string } }, { name: Sid, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: a message, content: { application/json: { schema: { $ref: '#/components/schemas/Message' } } } } }
  /v1/customers:
    get:
      parameters: [{ name: starting_after, in: query, schema: { type: string } }, { name: limit, in: query, schema: { type: integer, default: 10 } }]
      responses:
        '200':
          description: customers
          content:
            application/json:
              schema:
                type: object
                required: [object, data, has_more, url]
                properties:
                  object: { type: string, enum: [list] }
                  data: { type: array, items: { $ref: '#/components/schemas/Customer' } }
                  has_more: { type: boolean }
                  url: { type: string }
              example: { object: list, data: [{ id: cus_1, email: a@example.com }, { id: cus_2, email: b@example.com }], has_more: false, url: /v1/customers }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } }
      responses: { '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } } }
  /v1/customers/{customer}:
    parameters: [{ name: customer, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: a customer, content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } } }
components:
  schemas:
    Task: { type: object, properties: { gid: { type: string }, name: { type: string } } }
    File: { type: object, properties: { id: { type: string }, name: { type: string } } }
    Message: { type: object, properties: { sid: { type: string }, body: { type: string }, Body: { type: string } } }
    Customer: { type: object, properties: { id: { type: string }, email: { type: string } } }
`;

interface Shape {
  name: string;
  /** The list's first page, with a page size of 2. */
  first: string;
  /** The items of a page. */
  items: (body: any) => any[];
  /** The URL of the next page as the client builds it from the answer, null when the answer says there is none. */
  next: (body: any, url: URL, stub: string) => string | null;
  create: (stub: string, i: number) => Promise<unknown>;
  /** Pages a client follows without state (Stripe's cursor is an item id: any one asks for the last page). */
  statelessPages: number;
}

const post = (url: string, body: object) => request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const withParam = (url: URL, name: string, value: string) => {
  const next = new URL(url);
  next.searchParams.set(name, value);
  return next.toString();
};

const SHAPES: Shape[] = [
  {
    name: 'Asana: offset, next_page {offset, path, uri}',
    first: '/tasks?limit=2',
    items: (body) => body.data,
    next: (body) => body.next_page?.uri ?? null,
    create: (stub, i) => post(`${stub}/tasks`, { data: { name: `task ${i}` } }),
    statelessPages: 3,
  },
  {
    name: 'Box: marker, next_marker',
    first: '/files?usemarker=true&limit=2',
    items: (body) => body.entries,
    next: (body, url) => (body.next_marker ? withParam(url, 'marker', body.next_marker) : null),
    create: (stub, i) => post(`${stub}/files`, { name: `file ${i}` }),
    statelessPages: 3,
  },
  {
    name: 'Twilio: PageToken, a relative next_page_uri',
    first: '/2010-04-01/Accounts/AC1/Messages.json?PageSize=2',
    items: (body) => body.messages,
    next: (body, _url, stub) => (body.next_page_uri ? stub + body.next_page_uri : null),
    create: (stub, i) => post(`${stub}/2010-04-01/Accounts/AC1/Messages.json`, { Body: `message ${i}` }),
    statelessPages: 3,
  },
  {
    name: 'Stripe: starting_after, has_more',
    first: '/v1/customers?limit=2',
    items: (body) => body.data,
    next: (body, url) => (body.has_more ? withParam(url, 'starting_after', body.data.at(-1).id) : null),
    create: (stub, i) => post(`${stub}/v1/customers`, { email: `c${i}@example.com` }),
    statelessPages: 2,
  },
];

/** Follows the next page from `first` until the answer names none (at most 10 pages); each page's items. */
async function follow(stub: string, shape: Shape): Promise<any[][]> {
  const pages: any[][] = [];
  let url: string | null = stub + shape.first;
  while (url !== null && pages.length < 10) {
    expect(url.startsWith(stub)).toBe(true);
    const answer = await request(url);
    expect(answer.status).toBe(200);
    pages.push(shape.items(answer.json));
    url = shape.next(answer.json, new URL(url), stub);
  }
  return pages;
}

describe('a list paged by cursor, stateless', () => {
  let stub: DocumentStub;
  beforeAll(async () => { stub = await startStubOn(DOCUMENT); });
  afterAll(async () => { await stub?.close(); });

  it.each(SHAPES)('$name: the next page is on the stub, and the pages end', async (shape) => {
    const pages = await follow(stub.url, shape);
    expect(pages.length).toBe(shape.statelessPages);
  });
});

describe('a list paged by cursor, stateful', () => {
  let stub: DocumentStub;
  beforeAll(async () => { stub = await startStubOn(DOCUMENT, { stateful: true }); });
  afterAll(async () => { await stub?.close(); });

  it.each(SHAPES)('$name: the pages hold the store\'s items two by two, each once, and end after the last', async (shape) => {
    for (let i = 0; i < 5; i++) await shape.create(stub.url, i);
    const whole = shape.items((await request(stub.url + shape.first.replace(/[?&]limit=2|PageSize=2/, ''))).json);
    expect(whole.length).toBeGreaterThanOrEqual(5);
    const pages = await follow(stub.url, shape);
    expect(pages.map((page) => page.length)).toEqual(Array.from({ length: Math.ceil(whole.length / 2) }, (_, i) => Math.min(2, whole.length - 2 * i)));
    expect(pages.flat()).toEqual(whole);
  });
});
