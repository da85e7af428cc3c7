// Several documents on one port: each under its mount path (its first server's path, or one given
// as `/orders=orders.yaml`), each with its own validation, error shape, security, fixtures and
// stateful resources, one journal and one coverage report naming the document, and a 404 that
// names where each document lives. A 3.0 document beside a 3.1 one keeps its `nullable`.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createFetchHandler } from '../src/fetch.js';
import { load } from 'js-yaml';
import { post, request } from './helpers/http.js';
import { pollUntil } from './helpers/poll.js';

const USERS = `
openapi: 3.0.3
info: { title: Users, version: '1' }
servers: [{ url: 'https://api.example.com/users' }]
security: [{ key: [] }]
paths:
  /people:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Person' } } } } }
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Person' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Person' } } } }
        '400': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /people/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Person' } } } }
        '404': { description: none, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Users-Key }
  schemas:
    Person:
      type: object
      required: [name]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string, maxLength: 20 }
        nickname: { type: string, nullable: true }
    Error:
      type: object
      required: [code, message]
      properties: { code: { type: string }, message: { type: string } }
`;

const orders = (extraPath = '') => `
openapi: 3.1.0
info: { title: Orders, version: '1' }
paths:
  /items:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Item' } } } } }
    post:
      security: [{ bearer: [] }]
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
        '422': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /items/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
        '404': { description: none }
${extraPath}
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    Item:
      type: object
      required: [sku]
      properties:
        id: { type: integer, readOnly: true }
        sku: { type: string, pattern: '^[A-Z]{3}-[0-9]+$' }
        note: { type: [string, 'null'] }
    Error:
      type: object
      required: [errors]
      properties: { errors: { type: array, items: { type: string } } }
`;

const PAYMENTS = `
openapi: 3.1.0
info: { title: Payments, version: '1' }
servers: [{ url: '/pay/v1' }]
paths:
  /charges:
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Charge' } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Charge' } } } }
        '400': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Charge:
      type: object
      required: [amount]
      properties: { amount: { type: integer, minimum: 1 } }
    Error:
      type: object
      required: [reason]
      properties: { reason: { type: string } }
`;

const ORDER_FIXTURE = `
operation: POST /items
scenarios:
  out-of-stock:
    status: 422
    body: { errors: [the item is out of stock] }
`;

/** The sku pattern removed from the orders document only: `/orders=` aims the overlay at it. */
const ORDERS_OVERLAY = `
overlay: 1.0.0
info: { title: looser skus, version: '1' }
actions:
  - target: $.components.schemas.Item.properties.sku
    remove: true
  - target: $.components.schemas.Item.properties
    update: { sku: { type: string, minLength: 2 } }
`;

let dir: string;
let stub: RunningStub;
const USER = { 'x-users-key': 'k', 'content-type': 'application/json' };
const ORDER = { authorization: 'Bearer t', 'content-type': 'application/json' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'several-documents-'));
  await mkdir(join(dir, 'order-fixtures'));
  await Promise.all([
    writeFile(join(dir, 'users.yaml'), USERS),
    writeFile(join(dir, 'orders.yaml'), orders()),
    writeFile(join(dir, 'payments.yaml'), PAYMENTS),
    writeFile(join(dir, 'order-fixtures', 'items.yaml'), ORDER_FIXTURE),
    writeFile(join(dir, 'orders-overlay.yaml'), ORDERS_OVERLAY),
  ]);
  stub = await startStub({
    spec: [join(dir, 'users.yaml'), `/orders=${join(dir, 'orders.yaml')}`, join(dir, 'payments.yaml')],
    fixtures: [join(dir, 'none'), `/orders=${join(dir, 'order-fixtures')}`],
    overlays: [`/orders=${join(dir, 'orders-overlay.yaml')}`],
    port: 0, log: () => {}, watch: true, stateful: true,
  });
});
afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('three documents on one port', () => {
  it.each([
    ['users, mounted at its server path: its own error shape', 'POST', '/users/people', USER, { name: 'x'.repeat(21) }, 400, { code: expect.any(String), message: '/name: must NOT have more than 20 characters' }],
    ['users, a 3.0 nullable beside 3.1 documents still takes null', 'POST', '/users/people', USER, { name: 'Ada', nickname: null }, 201, { name: 'Ada', nickname: null }],
    ['users, its own security scheme', 'GET', '/users/people', {}, undefined, 401, { detail: expect.stringContaining('X-Users-Key') }],
    ['orders, mounted where given: its own error shape', 'POST', '/orders/items', ORDER, { sku: 'A' }, 422, { errors: expect.any(Array) }],
    ['orders, its own security scheme', 'POST', '/orders/items', { 'content-type': 'application/json' }, { sku: 'ABC-1' }, 401, { detail: expect.stringContaining('Bearer') }],
    ['payments, at its relative server path, with a third Error shape', 'POST', '/pay/v1/charges', { 'content-type': 'application/json' }, { amount: 0 }, 400, { reason: expect.any(String) }],
    ['payments served', 'POST', '/pay/v1/charges', { 'content-type': 'application/json' }, { amount: 5 }, 200, { amount: 5 }],
    ['a path under no mount: a 404 naming every document', 'GET', '/people', {}, undefined, 404, { detail: 'no operation of the spec matches GET /people; the documents served: users at /users, orders at /orders, payments at /pay/v1' }],
  ])('%s', async (_name, method, path, headers, body, status, shape) => {
    const response = await request(`${stub.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject(shape);
  });

  it('the overlay aimed at /orders changed the orders document only', async () => {
    const loosened = await post(`${stub.url}/orders/items`, { sku: 'lower-case' }, ORDER);
    expect(loosened.status).toBe(201);
    expect(loosened.json).toMatchObject({ sku: 'lower-case' });
  });

  it('the fixtures folder named for /orders scripts its operations as the orders document writes them', async () => {
    const scripted = await post(`${stub.url}/orders/items`, { sku: 'ABC-1' }, { ...ORDER, 'x-mock-scenario': 'out-of-stock' });
    expect(scripted.status).toBe(422);
    expect(scripted.json).toEqual({ errors: ['the item is out of stock'] });
    expect(scripted.headers.get('x-mock-scenario')).toBe('out-of-stock');
  });

  it('keeps each document’s stored items apart', async () => {
    await stub.reset();
    const person = await post(`${stub.url}/users/people`, { name: 'Grace' }, USER);
    const item = await post(`${stub.url}/orders/items`, { sku: 'XYZ-9' }, ORDER);
    expect([person.status, item.status]).toEqual([201, 201]);
    const people = await request(`${stub.url}/users/people`, { headers: USER });
    const items = await request(`${stub.url}/orders/items`);
    expect(people.json.map((p: { name: string }) => p.name)).toContain('Grace');
    expect(JSON.stringify(people.json)).not.toContain('XYZ-9');
    expect(items.json.map((i: { sku: string }) => i.sku)).toContain('XYZ-9');
    expect(JSON.stringify(items.json)).not.toContain('Grace');
    const read = await request(`${stub.url}/orders/items/${item.json.id}`);
    expect(read.json).toEqual(item.json);
  });

  it('names the document in the journal, the coverage report and the metrics', async () => {
    await stub.reset();
    await request(`${stub.url}/users/people/1`, { headers: USER });
    await post(`${stub.url}/pay/v1/charges`, { amount: 3 }, { 'content-type': 'application/json' });
    expect(stub.requests().map((entry) => [entry.path, entry.document])).toEqual([['/users/people/1', 'users'], ['/pay/v1/charges', 'payments']]);
    const coverage = stub.coverage();
    expect(coverage.documents?.map((part) => part.document)).toEqual(['users', 'orders', 'payments']);
    expect(coverage.documents?.find((part) => part.document === 'payments')).toMatchObject({ exercised: 1, total: 2 });
    expect(coverage.operations.find((op) => op.operation === 'GET /users/people/{id}')).toMatchObject({ document: 'users' });
    const metrics = await request(`${stub.url}/__admin/metrics`);
    expect(metrics.text).toMatch(/stub_requests_total\{[^}]*operation="POST \/pay\/v1\/charges"[^}]*document="payments"[^}]*\} 1/);
  });

  it('reloads an edited document while the others keep serving', async () => {
    const before = (await request(`${stub.url}/__admin/metrics`)).text.match(/stub_reloads_total\{outcome="ok"\} (\d+)/)?.[1] ?? '0';
    await writeFile(join(dir, 'orders.yaml'), orders(`  /status:\n    get:\n      responses: { '200': { description: ok, content: { application/json: { schema: { const: open } } } } }`));
    const added = await pollUntil(() => request(`${stub.url}/orders/status`), (response) => response.status === 200, 10_000);
    expect(added.json).toBe('open');
    const users = await request(`${stub.url}/users/people/2`, { headers: USER });
    expect(users.status).toBe(200);
    const after = (await request(`${stub.url}/__admin/metrics`)).text.match(/stub_reloads_total\{outcome="ok"\} (\d+)/)?.[1];
    expect(Number(after)).toBeGreaterThan(Number(before));
  }, 20_000);
});

describe('what stops a start of several documents', () => {
  let bare: string;
  beforeAll(async () => {
    bare = await mkdtemp(join(tmpdir(), 'several-documents-refused-'));
    const health = (title: string) => `openapi: 3.1.0\ninfo: { title: ${title}, version: '1' }\npaths:\n  /health:\n    get:\n      responses: { '200': { description: ok } }\n`;
    await writeFile(join(bare, 'a.yaml'), health('A'));
    await writeFile(join(bare, 'b.yaml'), health('B'));
  });
  afterAll(() => rm(bare, { recursive: true, force: true }));

  it.each([
    ['two documents answering one path', () => ({ spec: [join(bare, 'a.yaml'), join(bare, 'b.yaml')] }), /b\.yaml: \/paths\/~1health: b: GET \/health and a: GET \/health answer the same path; mount one apart/],
    ['fixtures named for a mount path no document has', () => ({ spec: [join(bare, 'a.yaml'), `/b=${join(bare, 'b.yaml')}`], fixtures: `/c=${bare}` }), /no document is mounted at \/c; mounted: a at \/, b at \/b/],
    ['an overlay named for a mount path no --spec gave', () => ({ spec: [join(bare, 'a.yaml'), `/b=${join(bare, 'b.yaml')}`], overlays: [`/c=${join(bare, 'a.yaml')}`] }), /no document is mounted at \/c by --spec/],
    ['--proxy, which forwards to one API', () => ({ spec: [join(bare, 'a.yaml'), `/b=${join(bare, 'b.yaml')}`], proxy: 'http://127.0.0.1:9' }), /proxy: forwards to one real API, and several documents are served/],
    ['a mount path for a single document', () => ({ spec: `/b=${join(bare, 'b.yaml')}` }), /names a mount path, which only several documents take/],
  ])('%s', async (_name, options, message) => {
    await expect(startStub({ ...options(), port: 0, log: () => {}, watch: false })).rejects.toThrow(message);
  });

  it('serves the same two documents once one is mounted apart', async () => {
    const apart = await startStub({ spec: [join(bare, 'a.yaml'), `/b=${join(bare, 'b.yaml')}`], port: 0, log: () => {}, watch: false });
    try {
      const [a, b] = await Promise.all([request(`${apart.url}/health`), request(`${apart.url}/b/health`)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(apart.requests().map((entry) => entry.document).sort()).toEqual(['a', 'b']);
    } finally {
      await apart.close();
    }
  });
});

describe('the fetch handler with several documents', () => {
  it('serves each under its mount path, with its own checks, fixtures and name', async () => {
    const handle = await createFetchHandler({
      documents: [{ document: USERS }, { document: orders(), mount: '/orders', fixtures: [load(ORDER_FIXTURE) as object] }],
      baseUrl: 'http://api.test', log: () => {},
    });
    const send = (method: string, path: string, headers: Record<string, string>, body?: object) =>
      handle(new Request(`http://api.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const cases: Array<[string, string, Record<string, string>, object | undefined, number, unknown]> = [
      ['POST', '/users/people', USER, { name: 'x'.repeat(21) }, 400, { code: expect.any(String), message: '/name: must NOT have more than 20 characters' }],
      ['POST', '/orders/items', ORDER, { sku: 'A' }, 422, { errors: expect.any(Array) }],
      ['GET', '/people', {}, undefined, 404, { detail: 'no operation of the spec matches GET /people; the documents served: users at /users, orders at /orders' }],
    ];
    for (const [method, path, headers, body, status, shape] of cases) {
      const answer = (await send(method, path, headers, body))!;
      expect([path, answer.status]).toEqual([path, status]);
      expect(await answer.json()).toMatchObject(shape as object);
    }
    const scripted = (await send('POST', '/orders/items', { ...ORDER, 'x-mock-scenario': 'out-of-stock' }, { sku: 'ABC-1' }))!;
    expect(scripted.status).toBe(422);
    expect(await scripted.json()).toEqual({ errors: ['the item is out of stock'] });
    expect(handle.requests().map((entry) => entry.document)).toEqual(['users', 'orders', undefined, 'orders']);
  });

  it('refuses `document` and `documents` together, naming both', async () => {
    await expect(createFetchHandler({ document: USERS, documents: [{ document: orders() }] })).rejects.toThrow('documents: is given with `document`');
  });
});

describe('documents whose shape mounting must keep', () => {
  let folder: string;
  let shapes: RunningStub;
  const SHOP = `
openapi: 3.1.0
info: { title: Shop, version: '1' }
security: [{ key: [] }]
paths:
  /ping: { $ref: '#/components/pathItems/Ping' }
  /pets:
    post:
      security: []
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses: { '201': { description: made } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Key }
  pathItems:
    Ping:
      get:
        responses: { '200': { description: ok, content: { application/json: { schema: { const: pong } } } } }
  schemas:
    Pet: { type: object, required: [kind], properties: { kind: { type: string } } }
    Cat: { type: object }
`;
  const ZOO = `
openapi: 3.0.3
info: { title: Zoo, version: '1' }
paths:
  /animals:
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses:
        '201': { description: made }
        default:
          description: an error
          content: { application/json: { schema: { type: object, properties: { code: { type: integer, minimum: 0, exclusiveMinimum: true }, hint: { type: string, nullable: true } } } } }
  /owners:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                owner: { nullable: true, allOf: [{ $ref: '#/components/schemas/Owner' }] }
      responses: { '204': { description: stored } }
components:
  schemas:
    Owner: { type: object, required: [name], properties: { name: { type: string } } }
    Pet:
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
      discriminator: { propertyName: kind, mapping: { cat: '#/components/schemas/Cat', dog: Dog } }
    Cat: { type: object, required: [kind, lives], properties: { kind: { type: string }, lives: { type: integer } } }
    Dog: { type: object, required: [kind, barks], properties: { kind: { type: string }, barks: { type: boolean } } }
`;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'several-documents-shapes-'));
    await writeFile(join(folder, 'shop.yaml'), SHOP);
    await writeFile(join(folder, 'zoo.yaml'), ZOO);
    shapes = await startStub({ spec: [`/shop=${join(folder, 'shop.yaml')}`, `/zoo=${join(folder, 'zoo.yaml')}`], port: 0, log: () => {}, watch: false });
  });
  afterAll(async () => {
    await shapes?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it.each([
    ['a path item written as a $ref keeps its document’s security', 'GET', '/shop/ping', {}, undefined, 401],
    ['… and answers once the key is sent', 'GET', '/shop/ping', { 'x-key': 'k' }, undefined, 200],
    ['a discriminator’s schemas renamed (Pet and Cat are Shop’s too) still tell a cat', 'POST', '/zoo/animals', {}, { kind: 'cat', lives: 3 }, 201],
    ['… and a dog, mapped by a bare name', 'POST', '/zoo/animals', {}, { kind: 'dog', barks: true }, 201],
    ['… and refuse what is neither', 'POST', '/zoo/animals', {}, { kind: 'cat', barks: true }, 400],
    ['a 3.0 `nullable` beside allOf still takes null beside a 3.1 document', 'POST', '/zoo/owners', {}, { owner: null }, 204],
  ])('%s', async (_name, method, path, headers, body, status) => {
    const response = await request(`${shapes.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(response.status).toBe(status);
  });

  it('names the document of an operation reached through a $ref, and compiles a 3.0 default response the 3.1 way', async () => {
    shapes.reset();
    await request(`${shapes.url}/shop/ping`, { headers: { 'x-key': 'k' } });
    expect(shapes.requests().map((entry) => entry.document)).toEqual(['shop']);
    const warnings = await request(`${shapes.url}/__admin/warnings`);
    expect(JSON.stringify(warnings.json)).not.toMatch(/exclusiveMinimum|cannot compile/);
  });

  it.each([
    ['one mount path for two documents', () => [`/a=${join(folder, 'shop.yaml')}`, `/a=${join(folder, 'zoo.yaml')}`], /zoo\.yaml: is mounted at \/a, as .*shop\.yaml is/],
    ['a mount path under the admin API', () => [`/__admin=${join(folder, 'shop.yaml')}`, join(folder, 'zoo.yaml')], /mount path \/__admin is the admin API's/],
  ])('refuses %s', async (_name, spec, message) => {
    await expect(startStub({ spec: spec(), port: 0, log: () => {}, watch: false })).rejects.toThrow(message);
  });

  it('the fetch handler refuses a document name that is not a non-empty string', async () => {
    await expect(createFetchHandler({ documents: [{ document: SHOP, name: '' }, { document: ZOO }] })).rejects.toThrow('documents[0].name: must be a non-empty string, got ""');
  });
});
