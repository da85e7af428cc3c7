// --record against a busy real API: every distinct request is a scenario, so a long session would
// grow memory and one operation's file without end. Each file keeps at most 200 scenarios and
// 8 MiB; past either, a new distinct request is not recorded and a warning says so once; a repeat
// of a recorded request still updates its scenario; answers keep flowing while files are written.
// --record-redact leaves named body fields (a password) out of the files, and the recorded
// exchange still replays for any value of them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn } from './helpers/document-stub.js';
import { MAX_FILE_BYTES, MAX_SCENARIOS_PER_FILE } from '../src/proxy/record-fixtures.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Busy, version: '1' }
paths:
  /small/{id}:
    get:
      operationId: getSmall
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: one, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, note: { type: string } } } } } } }
  /login:
    post:
      operationId: logIn
      requestBody: { content: { application/json: { schema: { type: object, properties: { user: { type: string }, password: { type: string }, device: { type: object, properties: { pin: { type: string }, name: { type: string } } } } } } } }
      responses: { '200': { description: a session, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, note: { type: string } } } } } } }
  /large/{id}:
    get:
      operationId: getLarge
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: one, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, note: { type: string } } } } } } }
`;

let upstream: Server;
let dir: string;

beforeAll(async () => {
  // Small answers for /small, 50 KB ones for /large; `note` tells a repeat from the first answer.
  let answers = 0;
  upstream = createServer((req, res) => {
    const id = Number(req.url!.split('/').pop()) || 7;
    const note = req.url!.startsWith('/large') ? 'x'.repeat(50 * 1024) : `answer ${++answers}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, note }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'stub-record-bounds-'));
});
afterAll(async () => {
  upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--record keeps each operation\'s file bounded', () => {
  it(`stops at ${MAX_SCENARIOS_PER_FILE} scenarios and at ${MAX_FILE_BYTES / 1024 / 1024} MiB, says so once each, and still updates a recorded request`, async () => {
    const warnings: string[] = [];
    const { port } = upstream.address() as AddressInfo;
    const stub = await startStubOn(DOCUMENT, { proxy: `http://127.0.0.1:${port}`, record: join(dir, 'recorded'), warn: (line) => warnings.push(line), log: () => {} });
    try {
      const get = (path: string) => fetch(`${stub.url}${path}`).then(async (answer) => [answer.status, (await answer.json()).id]);
      for (let id = 1; id <= MAX_SCENARIOS_PER_FILE + 30; id++) expect(await get(`/small/${id}`)).toEqual([200, id]);
      // A repeat of the first request: recorded already, so its scenario takes the newer answer.
      expect(await get('/small/1')).toEqual([200, 1]);
      for (let id = 1; id <= 200; id++) expect(await get(`/large/${id}`)).toEqual([200, id]);
    } finally {
      await stub.close();
    }
    const small = await readFile(join(dir, 'recorded', 'get-small.yaml'), 'utf8');
    expect(small.match(/^ {2}get-small-\d+:$/gm)).toHaveLength(MAX_SCENARIOS_PER_FILE);
    expect(small).toContain(`note: answer ${MAX_SCENARIOS_PER_FILE + 31}`);
    expect(small).not.toContain(`get-small-${MAX_SCENARIOS_PER_FILE + 1}:`);
    expect((await stat(join(dir, 'recorded', 'get-large.yaml'))).size).toBeLessThanOrEqual(MAX_FILE_BYTES * 1.05);
    expect(warnings.filter((line) => line.includes('--record'))).toEqual([
      `warning: --record: an answer of GET /small/{id} was not recorded: its file holds ${MAX_SCENARIOS_PER_FILE} scenarios, the most --record keeps per operation; answers to requests already recorded still update theirs`,
      `warning: --record: an answer of GET /large/{id} was not recorded: its file would pass ${MAX_FILE_BYTES / 1024 / 1024} MiB, the most --record keeps per operation; answers to requests already recorded still update theirs`,
    ]);
  }, 60_000);
});

describe('--record-redact', () => {
  it('leaves the named body fields out of the recorded match, at any depth, and the recording replays for any value of them', async () => {
    const { port } = upstream.address() as AddressInfo;
    const recorded = join(dir, 'redacted');
    const body = JSON.stringify({ user: 'ada', password: 'hunter2', device: { pin: '1234', name: 'phone' } });
    const proxy = await startStubOn(DOCUMENT, { proxy: `http://127.0.0.1:${port}`, record: recorded, recordRedact: ['password', 'pin'], log: () => {} });
    const live = await fetch(`${proxy.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((answer) => answer.json());
    await proxy.close();
    const text = await readFile(join(recorded, 'log-in.yaml'), 'utf8');
    expect(text).not.toMatch(/hunter2|1234/);
    expect(text).toContain('body:\n        user: ada\n        device:\n          name: phone\n');
    const replay = await startStubOn(DOCUMENT, { fixtures: recorded, log: () => {} });
    try {
      const other = JSON.stringify({ user: 'ada', password: 'another', device: { pin: '0000', name: 'phone' } });
      const answer = await fetch(`${replay.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: other });
      expect([answer.status, answer.headers.get('x-mock-scenario'), await answer.json()]).toEqual([200, 'log-in', live]);
    } finally {
      await replay.close();
    }
  });
});
