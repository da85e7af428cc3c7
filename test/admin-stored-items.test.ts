// Stateful mode's stored items, seen and fixed through the admin API (what the admin page's
// stored-items panel calls): each resource has a name in GET /__admin/resources; its items come a
// page at a time, newest first, with their count and the store's bytes against --max-state; an
// item put there is checked against the item's schema before it is stored, and the API answers it
// at once; an item can be deleted, and a resource put back to its first data. The same in a
// single process and with a Redis store shared by two instances; guarded by the admin token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';
import type { StubOptions } from '../src/index.js';

const DOCUMENT = `
${documentHead('Stored items')}
  /plants:
    get:
      responses:
        '200':
          description: plants
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Plant' } }
              example: [{ id: 1, name: Monstera }, { id: 2, name: Fern }]
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } } }
  /plants/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: a plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '404': { description: none }
  /shops/{shop}/plants:
    ${pathParameters('shop')}
    get:
      responses:
        '200': { description: plants, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/ShopPlant' } } } } }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/ShopPlant' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/ShopPlant' } } } } }
  /shops/{shop}/plants/{plant}:
    ${pathParameters('shop', 'plant')}
    get:
      responses:
        '200': { description: a plant, content: { application/json: { schema: { $ref: '#/components/schemas/ShopPlant' } } } }
components:
  schemas:
    Plant:
      type: object
      required: [name]
      properties: { id: { type: integer, minimum: 1 }, name: { type: string, minLength: 1 } }
    ShopPlant:
      type: object
      properties: { plant: { type: string }, shop: { type: string } }
`;

const json = { 'content-type': 'application/json' };

function runCases(mode: string, start: () => Promise<{ stub: DocumentStub; other?: DocumentStub }>) {
  describe(`stored items through the admin API (${mode})`, () => {
    let stub: DocumentStub;
    let other: DocumentStub | undefined;
    beforeAll(async () => {
      ({ stub, other } = await start());
    }, 20_000);
    afterAll(async () => {
      await stub?.close();
      await other?.close();
    });
    const admin = (path: string) => `${stub.url}/__admin${path}`;

    it('names each resource by its collection path\'s last segment, made unique', async () => {
      const answer = await request(admin('/resources'));
      expect(answer.json.resources.map((r: any) => [r.name, r.collection])).toEqual([['plants', '/plants'], ['shops-plants', '/shops/{shop}/plants']]);
    });

    it('pages the items newest first, with the count and the store\'s bytes', async () => {
      await request(`${stub.url}/plants`, { method: 'POST', headers: json, body: JSON.stringify({ id: 3, name: 'Calathea' }) });
      const first = await request(admin('/resources/plants/items?limit=2'));
      expect([first.status, first.json.items, first.json.total, first.json.offset, first.json.limit]).toEqual([200, [{ id: 3, name: 'Calathea' }, { id: 2, name: 'Fern' }], 3, 0, 2]);
      expect(first.json.bytes).toBeGreaterThan(60);
      expect(first.json.maxBytes).toBe(32 * 1024 * 1024);
      const second = await request(admin('/resources/plants/items?offset=2&limit=2'));
      expect(second.json.items).toEqual([{ id: 1, name: 'Monstera' }]);
    });

    it.each([
      { name: 'a new item is stored and answered by the API', id: '7', body: '{"id": 7, "name": "Pilea"}', status: 200, violations: undefined, read: [200, { id: 7, name: 'Pilea' }] },
      { name: 'an item changed in place is answered changed', id: '2', body: '{"id": 2, "name": "Maidenhair fern"}', status: 200, violations: undefined, read: [200, { id: 2, name: 'Maidenhair fern' }] },
      { name: 'an item its schema refuses is not stored', id: '8', body: '{"id": 8, "name": ""}', status: 422, violations: ['/name: must NOT have fewer than 1 characters'], read: [404] },
      { name: 'an item whose id is not the path\'s is not stored', id: '9', body: '{"id": 10, "name": "Fern"}', status: 422, violations: ['/id: is 10, but the path names the item 9'], read: [404] },
      { name: 'an item without its identity is not stored', id: '11', body: '{"name": "Fern"}', status: 422, violations: ['/id: is required (the item\'s identity)'], read: [404] },
      { name: 'text that is not JSON is not stored', id: '12', body: '{"id": 12,', status: 422, violations: [expect.stringMatching(/^\/: /)], read: [404] },
    ])('PUT: $name', async ({ id, body, status, violations, read }) => {
      const put = await request(admin(`/resources/plants/items/${id}`), { method: 'PUT', headers: json, body });
      expect([put.status, put.json.violations]).toEqual([status, violations]);
      const answer = await request(`${(other ?? stub).url}/plants/${id}`);
      expect([answer.status, ...(answer.status === 200 ? [answer.json] : [])]).toEqual(read);
    });

    it('DELETE takes an item away (404 the second time), and reset puts the first data back', async () => {
      expect((await request(admin('/resources/plants/items/1'), { method: 'DELETE' })).status).toBe(204);
      expect((await request(`${stub.url}/plants/1`)).status).toBe(404);
      const again = await request(admin('/resources/plants/items/1'), { method: 'DELETE' });
      expect([again.status, again.json.detail]).toEqual([404, '/plants holds no item 1']);
      expect((await request(admin('/resources/plants/reset'), { method: 'POST' })).status).toBe(204);
      const listed = await request(`${stub.url}/plants`);
      expect(listed.json).toEqual([{ id: 1, name: 'Monstera' }, { id: 2, name: 'Fern' }]);
    });

    it.each([
      ['/resources/trees/items', 404, 'no stored resource is named "trees"; GET /__admin/resources names them'],
      ['/resources/plants/items?limit=0', 400, 'limit must be a whole number from 1 to 100, got 0'],
      ['/resources/plants/items?offset=-1', 400, 'offset must be a whole number, got -1'],
    ])('GET %s is refused: %i', async (path, status, detail) => {
      const answer = await request(admin(path));
      expect([answer.status, answer.headers.get('content-type'), answer.json.detail]).toEqual([status, 'application/problem+json', detail]);
    });
  });
}

runCases('one process', async () => ({ stub: await startStubOn(DOCUMENT, { stateful: true }) }));

let redis: RunningRedis | undefined;
if (haveRedis) {
  runCases('two instances on one Redis', async () => {
    redis = await startRedis();
    const options: StubOptions = { stateful: true, stateStore: redis.url };
    const stub = await startStubOn(DOCUMENT, options);
    return { stub, other: await startStubOn(DOCUMENT, options) };
  });
  afterAll(async () => {
    await redis?.stop();
  });
} else {
  console.log('Redis tests skipped: no /usr/bin/redis-server (install it with: apt-get install redis-server)');
}

describe('the stored items and the admin token', () => {
  it.each([
    ['GET', '/resources/plants/items'], ['PUT', '/resources/plants/items/5'], ['DELETE', '/resources/plants/items/1'], ['POST', '/resources/plants/reset'],
  ])('%s %s needs it', async (method, path) => {
    const stub = await startStubOn(DOCUMENT, { stateful: true, adminToken: 'secret' });
    try {
      const refused = await request(`${stub.url}/__admin${path}`, { method, headers: json, body: method === 'PUT' ? '{"id": 5, "name": "Fern"}' : undefined });
      expect(refused.status).toBe(401);
      const allowed = await request(`${stub.url}/__admin${path}`, { method, headers: { ...json, authorization: 'Bearer secret' }, body: method === 'PUT' ? '{"id": 5, "name": "Fern"}' : undefined });
      expect(allowed.status).toBeLessThan(300);
    } finally {
      await stub.close();
    }
  });

  it('answers 404 saying stateful mode is off when it is', async () => {
    const stub = await startStubOn(DOCUMENT);
    try {
      const answer = await request(`${stub.url}/__admin/resources/plants/items`);
      expect([answer.status, answer.json.detail]).toEqual([404, 'stateful mode is off; start the stub with --stateful (stateful: true) to keep resources']);
    } finally {
      await stub.close();
    }
  });
});
