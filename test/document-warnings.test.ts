// A document's flaws are warnings, not a refusal: the stub starts, prints one line per kind with a
// count, lists each (file, pointer, reason) at GET /__admin/warnings, and never serves what breaks
// the document unless asked for by name. --strict (strict: true) refuses instead.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

// The odd corners of real documents, each once: `nullable` beside allOf (GitHub, Box), `id` keys
// inside example values (they are data), a pattern JavaScript's `u` flag refuses (DigitalOcean),
// a catastrophic pattern, a lookahead RE2 cannot run, an empty enum (Discord), and an example
// that breaks its own schema (Twilio, GitHub).
const DOCUMENT = `
openapi: 3.0.3
info: { title: Odd corners, version: '1' }
paths:
  /repos:
    get:
      parameters:
        - { name: label, in: query, schema: { type: string, pattern: '^[a-zA-Z0-9_\\-\\:]+$' } }
        - { name: word, in: query, schema: { type: string, pattern: '^(a+)+$' } }
        - { name: code, in: query, schema: { type: string, pattern: '^(?!admin).*$' } }
        - { name: mode, in: query, schema: { type: string, enum: [] } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Repo' }
              examples:
                broken: { value: { name: 7, owner: null } }
                fine: { value: { id: v2.0, name: hello, owner: null } }
                alsoFine: { value: { id: v2.0, name: world, owner: { id: v2.0, login: octocat } } }
    post:
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } } }
components:
  schemas:
    User:
      type: object
      required: [login]
      properties: { id: { type: string }, login: { type: string } }
    Repo:
      type: object
      required: [name]
      properties:
        id: { type: string }
        name: { type: string }
        owner: { nullable: true, allOf: [{ $ref: '#/components/schemas/User' }] }
`;

let dir: string;
let file: string;
let stub: RunningStub;
const log: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-warnings-'));
  file = join(dir, 'odd.yaml');
  await writeFile(file, DOCUMENT);
  stub = await startStub({ spec: file, fixtures: join(dir, 'none'), port: 0, watch: false, log: (line) => log.push(line) });
});
afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (query: string, headers: Record<string, string> = {}) => request(`${stub.url}/repos${query}`, { headers });

describe('a document with odd corners', () => {
  it('starts, printing one line per kind of problem with its count and what the stub does about it', () => {
    expect(log.filter((line) => line.startsWith('warning: ') && line.includes('in the document'))).toEqual([
      'warning: 1 × unsupported pattern in the document: it is not enforced (each listed at GET /__admin/warnings; --strict refuses them)',
      'warning: 1 × empty enum in the document: it is ignored (each listed at GET /__admin/warnings; --strict refuses them)',
      'warning: 1 × nullable without type in the document: `nullable: true` without `type` is read as "this schema, or null" (each listed at GET /__admin/warnings; --strict refuses them)',
      'warning: 1 × response example that breaks its schema in the document: served only when asked for by name (each listed at GET /__admin/warnings; --strict refuses them)',
    ]);
  });

  it('lists each problem with its file, JSON pointer and reason at GET /__admin/warnings', async () => {
    const { status, json } = await request(`${stub.url}/__admin/warnings`);
    expect(status).toBe(200);
    expect(json).toEqual({ warnings: expect.arrayContaining([
      { file, pointer: '/paths/~1repos/get/parameters/2/schema/pattern', kind: 'unsupported pattern', reason: expect.stringContaining('"^(?!admin).*$"') },
      { file, pointer: '/paths/~1repos/get/parameters/3/schema/enum', kind: 'empty enum', reason: expect.stringContaining('ignored') },
      { file, pointer: '/components/schemas/Repo/properties/owner/nullable', kind: 'nullable without type', reason: expect.stringContaining('or null') },
      { file, pointer: '/paths/~1repos/get/responses/200/content/application~1json/examples/broken/value', kind: 'response example that breaks its schema', reason: expect.stringContaining('/name: must be a string') },
    ]) });
    expect((json as { warnings: unknown[] }).warnings).toHaveLength(4);
  });

  it.each([
    { name: 'a pattern with `\\:` (invalid under the u flag) matches', query: '?label=team:web', status: 200 },
    { name: 'a pattern with `\\:` still refuses what it excludes', query: '?label=team%20web', status: 400 },
    { name: 'a catastrophic pattern answers a crafted 40-character value at once', query: `?word=${'a'.repeat(40)}!`, status: 400 },
    { name: 'a catastrophic pattern accepts what it matches', query: `?word=${'a'.repeat(40)}`, status: 200 },
    { name: 'a pattern RE2 cannot run is not enforced', query: '?code=admin', status: 200 },
    { name: 'two patterns in one operation are each checked with their own expression (refused)', query: '?label=team:web&word=a-b', status: 400 },
    { name: 'two patterns in one operation are each checked with their own expression (accepted)', query: '?label=team:web&word=aaa', status: 200 },
    { name: 'an empty enum is ignored, not a refusal of every value', query: '?mode=anything', status: 200 },
  ])('$name', async ({ query, status }) => {
    expect((await get(query)).status).toBe(status);
  });

  it('serves the first valid example by default, skipping the one that breaks its schema', async () => {
    const answer = await get('');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('example:fine');
    expect(answer.json).toEqual({ id: 'v2.0', name: 'hello', owner: null });
  });

  it('serves the broken example when a client asks for it by name', async () => {
    const answer = await get('', { prefer: 'example=broken' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ name: 7, owner: null });
  });

  it.each([
    { name: 'accepts null where `nullable` sits beside allOf', body: { name: 'r', owner: null }, status: 200 },
    { name: 'accepts the referenced object there', body: { name: 'r', owner: { login: 'octocat' } }, status: 200 },
    { name: 'still validates the referenced object', body: { name: 'r', owner: { id: 1 } }, status: 400 },
  ])('a request body: $name', async ({ body, status }) => {
    const answer = await request(`${stub.url}/repos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBe(status);
  });

  it('with strict: true, refuses to start, naming the file and the first problem’s pointer', async () => {
    await expect(startStub({ spec: file, fixtures: join(dir, 'none'), port: 0, watch: false, strict: true, log: () => {} })).rejects.toThrow(
      `${file}: /paths/~1repos/get/parameters/2/schema/pattern: the pattern "^(?!admin).*$" needs backtracking (lookaround or backreferences) or is not valid; it is not enforced (and 3 more warnings); --strict refuses documents with warnings`,
    );
  });
});
