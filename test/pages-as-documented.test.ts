// Pages that end where the client expects: a next-page URI whose schema says
// `format: uri` while the document's examples give a path relative to the API's host (Twilio's
// `next_page_uri`) stays relative, on the stub's mount path, and the answer is not reported broken
// for it; each page is a different slice; in stateful mode a list's `total`, page count and
// `X-Total-Count` are the store's, not the example's.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStubApp, type StubApp } from '../src/index.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { post, request } from './helpers/http.js';
import { documentHead } from './helpers/company-shapes.js';

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const CALL = "{ type: object, properties: { sid: { type: string, pattern: '^CA[0-9a-f]{32}$' }, account_sid: { type: string }, to: { type: string } } }";
const CALLS = `
${documentHead('Calls')}
  /Accounts/{AccountSid}/Calls.json:
    parameters: [{ name: AccountSid, in: path, required: true, schema: { type: string } }]
    get:
      parameters:
        - { name: PageToken, in: query, schema: { type: string } }
        - { name: PageSize, in: query, schema: { type: integer, default: 2 } }
      responses:
        '200':
          description: a page of calls
          content:
            application/json:
              schema:
                type: object
                properties:
                  calls: { type: array, items: ${CALL} }
                  next_page_uri: { type: string, format: uri, nullable: true }
                  uri: { type: string, format: uri }
              examples:
                first:
                  value:
                    calls: [{ sid: CAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, account_sid: ${ACCOUNT}, to: '+15550100' }]
                    next_page_uri: /Accounts/${ACCOUNT}/Calls.json?PageToken=PAbbbb
                    uri: /Accounts/${ACCOUNT}/Calls.json
    post:
      requestBody: { content: { application/x-www-form-urlencoded: { schema: { type: object, properties: { To: { type: string } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: ${CALL} } } } }
  /Accounts/{AccountSid}/Calls/{Sid}.json:
    parameters: [{ name: AccountSid, in: path, required: true, schema: { type: string } }, { name: Sid, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: a call, content: { application/json: { schema: ${CALL} } } } }
`;

const PLANT = '{ type: object, properties: { id: { type: integer }, name: { type: string } } }';
const COUNTED = `
${documentHead('Counted')}
  /plants:
    get:
      parameters:
        - { name: page, in: query, schema: { type: integer, minimum: 1 } }
        - { name: per_page, in: query, schema: { type: integer, default: 2 } }
      responses:
        '200':
          description: a page of plants
          headers: { X-Total-Count: { schema: { type: integer }, example: 120 } }
          content:
            application/json:
              schema: { type: object, properties: { plants: { type: array, items: ${PLANT} }, total: { type: integer }, page: { type: integer }, per_page: { type: integer }, num_pages: { type: integer } } }
              example: { plants: [], total: 120, page: 1, per_page: 2, num_pages: 60 }
    post:
      requestBody: { content: { application/json: { schema: ${PLANT} } } }
      responses: { '201': { description: created, content: { application/json: { schema: ${PLANT} } } } }
  /plants/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      responses: { '200': { description: a plant, content: { application/json: { schema: ${PLANT} } } } }
  /shops:
    get:
      parameters: [{ name: limit, in: query, schema: { type: integer } }]
      responses:
        '200':
          description: shops
          content:
            application/json:
              schema: { type: object, properties: { data: { type: array, items: ${PLANT} }, meta: { type: object, properties: { total_count: { type: integer } } } } }
              example: { data: [], meta: { total_count: 99 } }
    post:
      requestBody: { content: { application/json: { schema: ${PLANT} } } }
      responses: { '201': { description: created, content: { application/json: { schema: ${PLANT} } } } }
  /shops/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      responses: { '200': { description: a shop, content: { application/json: { schema: ${PLANT} } } } }
`;

/** Follows `next_page_uri` (prefixed with the origin, as the official clients do) until it is null: each page's status, link and sids. */
async function followPages(origin: string, first: string): Promise<Array<{ status: number; next: unknown; sids: string[] }>> {
  const pages: Array<{ status: number; next: unknown; sids: string[] }> = [];
  for (let path: unknown = first; typeof path === 'string' && pages.length < 10;) {
    const page = await request(origin + path, { headers: { authorization: 'Basic YTpi' } });
    path = page.json?.next_page_uri;
    pages.push({ status: page.status, next: path, sids: (page.json?.calls ?? []).map((call: { sid: string }) => call.sid) });
  }
  return pages;
}

async function listen(app: express.Express): Promise<{ server: Server; origin: string }> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('next-page URIs in the form the document\'s examples use', () => {
  let stub: DocumentStub;
  let stateful: DocumentStub;
  let mounted: { server: Server; origin: string; app: StubApp };
  beforeAll(async () => {
    // `errors`: an answer the stub finds broken would be a 500.
    stub = await startStubOn(CALLS, { errors: true });
    stateful = await startStubOn(CALLS, { stateful: true, errors: true });
    const app = await createStubApp({ spec: stub.file, fixtures: `${stub.file}.none`, watch: false, errors: true });
    const outer = express();
    outer.use('/api', app);
    mounted = { ...(await listen(outer)), app };
  });
  afterAll(async () => {
    mounted?.server.close();
    await mounted?.app.stub.close();
    await stub?.close();
    await stateful?.close();
  });

  it.each([
    ['served at the root', () => ({ origin: stub.url, mount: '' })],
    ['mounted at /api in an app', () => ({ origin: mounted.origin, mount: '/api' })],
  ])('%s: each next_page_uri is a path on the stub, each page other calls, and the last has none', async (_name, where) => {
    const { origin, mount } = where();
    const pages = await followPages(origin, `${mount}/Accounts/${ACCOUNT}/Calls.json`);
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200]);
    expect(pages.map((page) => page.next)).toEqual([
      expect.stringMatching(new RegExp(`^${mount}/Accounts/${ACCOUNT}/Calls\\.json\\?PageToken=[\\w-]+$`)),
      expect.stringMatching(new RegExp(`^${mount}/Accounts/${ACCOUNT}/Calls\\.json\\?PageToken=[\\w-]+$`)),
      null,
    ]);
    const sids = pages.flatMap((page) => page.sids);
    expect(new Set(sids).size).toBe(sids.length);
    expect(sids.every((sid) => /^CA[0-9a-f]{32}$/.test(sid))).toBe(true);
  });

  it('says at /__admin/warnings that the uri property is read as a URI reference', async () => {
    const { json } = await request(`${stub.url}/__admin/warnings`);
    expect(json.warnings.filter((warning: { kind: string }) => warning.kind === 'relative uri examples').map((warning: { pointer: string }) => warning.pointer).sort()).toEqual([
      '/paths/~1Accounts~1{AccountSid}~1Calls.json/get/responses/200/content/application~1json/schema/properties/next_page_uri/format',
      '/paths/~1Accounts~1{AccountSid}~1Calls.json/get/responses/200/content/application~1json/schema/properties/uri/format',
    ]);
  });

  it('stateful: the pages of the stored calls, two by two, each a relative link to the next', async () => {
    const created: string[] = [];
    for (const to of ['+15550101', '+15550102', '+15550103']) {
      const made = await post(`${stateful.url}/Accounts/${ACCOUNT}/Calls.json`, `To=${encodeURIComponent(to)}`, { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic YTpi' });
      expect(made.status).toBe(201);
      created.push(made.json.sid);
    }
    const pages = await followPages(stateful.url, `/Accounts/${ACCOUNT}/Calls.json`);
    expect(pages).toEqual([
      { status: 200, next: expect.stringMatching(/^\/Accounts\/AC\w+\/Calls\.json\?PageToken=/), sids: expect.any(Array) },
      { status: 200, next: null, sids: expect.any(Array) },
    ]);
    expect(pages.flatMap((page) => page.sids).filter((sid) => created.includes(sid))).toEqual(created);
  });
});

describe('a stateful list\'s figures from the store', () => {
  let stub: DocumentStub;
  beforeAll(async () => {
    stub = await startStubOn(COUNTED, { stateful: true, errors: true });
    for (const name of ['Fern', 'Ivy', 'Moss', 'Sage', 'Yew']) {
      expect((await post(`${stub.url}/plants`, { name }, { 'content-type': 'application/json' })).status).toBe(201);
    }
    for (const name of ['North', 'South', 'West']) {
      expect((await post(`${stub.url}/shops`, { name }, { 'content-type': 'application/json' })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await stub?.close();
  });

  it.each([
    ['page 1 of 3', '/plants?page=1', '5', { plants: ['Fern', 'Ivy'], total: 5, page: 1, per_page: 2, num_pages: 3 }],
    ['page 3 of 3, the last one short', '/plants?page=3', '5', { plants: ['Yew'], total: 5, page: 3, per_page: 2, num_pages: 3 }],
    ['three a page', '/plants?page=2&per_page=3', '5', { plants: ['Sage', 'Yew'], total: 5, page: 2, per_page: 3, num_pages: 2 }],
    ['a total inside meta, under a limit', '/shops?limit=2', null, { data: ['North', 'South'], meta: { total_count: 3 } }],
  ])('%s: the body and X-Total-Count count the store', async (_name, path, totalHeader, expected) => {
    const { status, headers, json } = await request(stub.url + path);
    const list = Object.keys(expected)[0];
    expect([status, headers.get('x-total-count'), { ...json, [list]: json[list].map((item: { name: string }) => item.name) }]).toEqual([200, totalHeader, expected]);
  });
});
