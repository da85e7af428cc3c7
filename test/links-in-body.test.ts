// URL-valued fields of an answer that point at the API's own servers (`"url":
// "https://api.example.com/v1/repos/1"`) are answered on the stub's origin and mount path, so a
// client that follows them stays on the stub; other hosts, a value whose schema pins the real host,
// and what a client sent (an echo) are left as they are. Served at the root and mounted in Express.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStubApp, startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Links in bodies, version: '1' }
servers: [{ url: 'https://api.example.com/v1' }]
paths:
  /repos/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      responses:
        '200':
          description: a repository
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Repo' }
              example:
                id: 1
                url: https://api.example.com/v1/repos/1
                html_url: https://www.example.com/r/1
                avatar_url: https://cdn.example.net/a.png
                owner: { url: 'https://API.example.com/v1/users/7' }
                hooks: ['https://api.example.com/v1/repos/1/hooks/1']
                pinned: https://api.example.com/v1/pinned
  /repos:
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } } } }
  /v1/Messages.json:
    get:
      parameters: [{ name: PageToken, in: query, schema: { type: string } }, { name: PageSize, in: query, schema: { type: integer } }]
      responses:
        '200':
          description: messages, a page of them
          content:
            application/json:
              schema:
                type: object
                properties:
                  messages: { type: array, items: { type: object, properties: { sid: { type: string } } } }
                  next_page_uri: { type: string, nullable: true }
                  next_page_url: { type: string, nullable: true }
              example: { messages: [{ sid: SM1 }], next_page_uri: '/v1/Messages.json?PageToken=PA1', next_page_url: 'https://api.example.com/v1/Messages.json?PageToken=PA1' }
components:
  schemas:
    Repo:
      type: object
      properties:
        id: { type: integer }
        url: { type: string, format: uri }
        html_url: { type: string }
        avatar_url: { type: string }
        owner: { type: object, properties: { url: { type: string } } }
        hooks: { type: array, items: { type: string } }
        pinned: { type: string, pattern: '^https://api\\.example\\.com/' }
`;

/** [what, the field's value as the answer gives it, where the stub is (`base`: its origin and mount path)] */
const FIELDS: Array<[string, (body: any) => unknown, (base: string) => unknown]> = [
  ['a URL on the document\'s server moves to the stub', (body) => body.url, (base) => `${base}/v1/repos/1`],
  ['a nested one too, whatever the case of its host', (body) => body.owner.url, (base) => `${base}/v1/users/7`],
  ['one in an array too', (body) => body.hooks, (base) => [`${base}/v1/repos/1/hooks/1`]],
  ['another host of the same company stays', (body) => body.html_url, () => 'https://www.example.com/r/1'],
  ['a download host stays', (body) => body.avatar_url, () => 'https://cdn.example.net/a.png'],
  ['a value whose schema pins the real host stays (the answer stays valid)', (body) => body.pinned, () => 'https://api.example.com/v1/pinned'],
];

let dir: string;
let spec: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'links-in-body-'));
  spec = join(dir, 'spec.yaml');
  await writeFile(spec, DOCUMENT);
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe.each([
  { where: 'served at the root', mount: '' },
  { where: 'mounted in an Express app at /mock', mount: '/mock' },
])('URL-valued fields, $where', ({ mount }) => {
  let base: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    if (mount === '') {
      const stub: RunningStub = await startStub({ spec, fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {} });
      base = stub.url;
      close = () => stub.close();
      return;
    }
    const app = express();
    app.use(mount, await createStubApp({ spec, fixtures: join(dir, 'none'), watch: false }));
    const server: Server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${mount}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => { await close?.(); });

  it.each(FIELDS)('%s', async (_what, field, expected) => {
    const answer = await request(`${base}/repos/1`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(field(answer.json)).toEqual(expected(base));
  });

  it('an echo keeps the URLs the client sent', async () => {
    const sent = { id: 2, url: 'https://api.example.com/v1/repos/2' };
    const answer = await request(`${base}/repos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
    expect(answer.status).toBe(201);
    expect(answer.json.url).toBe(sent.url);
  });

  it('a cursor\'s next page links are on the stub, under its mount path, relative where the document\'s are', async () => {
    const answer = await request(`${base}/v1/Messages.json?PageSize=1`);
    expect(answer.status).toBe(200);
    const { next_page_uri: relative, next_page_url: absolute } = answer.json;
    const mount = new URL(base).pathname.replace(/\/$/, '');
    expect(relative).toMatch(new RegExp(`^${mount}/v1/Messages\\.json\\?PageSize=1&PageToken=[\\w-]+$`));
    expect(absolute).toBe(`${new URL(base).origin}${relative}`);
  });
});
