// Corners of real documents (found by the corpus run, test/corpus.test.ts) written small: each
// table sends requests that the document calls valid, and some it does not, to a listening stub,
// and asserts the status and the answer. The 3.0 document is also served relabelled 3.1, since
// the two are validated by different JSON Schema dialects.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Corners, version: '1' }
paths:
  /pets:
    patch:
      requestBody:
        content:
          application/json:
            schema:
              oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
              discriminator: { propertyName: pet_type }
      responses: { '204': { description: updated } }
  /pets/embedded:
    patch:
      requestBody:
        content: { application/json: { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] } } }
      responses: { '204': { description: updated } }
  /pets/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: a pet
          content:
            application/json:
              schema:
                oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
                discriminator: { propertyName: pet_type }
  /events:
    post:
      requestBody:
        content:
          application/json:
            schema:
              oneOf: [{ $ref: '#/components/schemas/Approved' }, { $ref: '#/components/schemas/Denied' }]
              discriminator:
                propertyName: event_type
                mapping: { approved: '#/components/schemas/Approved', denied: Denied }
      responses: { '204': { description: received } }
  /refs/{ref}:
    get:
      parameters: [{ name: ref, in: path, required: true, schema: { type: string, pattern: '^heads/' } }]
      responses: { '200': { description: the ref, content: { application/json: { schema: { type: object }, example: { found: true } } } } }
  /reports:
    get:
      parameters:
        - { name: Accept, in: header, required: true, schema: { type: string, enum: [application/json, application/yaml] } }
        - { name: Authorization, in: header, required: true, schema: { type: string, pattern: '^Token ' } }
      responses: { '200': { description: a report, content: { application/json: { schema: { type: object }, example: { ok: true } } } } }
  /profile:
    get:
      responses: { '200': { description: a profile, content: { application/json: { schema: { $ref: '#/components/schemas/Profile' } } } } }
  /feed:
    get:
      responses:
        '200':
          description: three events
          content:
            application/json:
              schema:
                type: array
                minItems: 3
                maxItems: 3
                items:
                  type: object
                  required: [payload]
                  properties:
                    payload: { oneOf: [{ $ref: '#/components/schemas/PublicEvent' }, { $ref: '#/components/schemas/WatchEvent' }, { $ref: '#/components/schemas/PushEvent' }] }
  /embed:
    get:
      responses: { '200': { description: an embed, content: { application/json: { schema: { $ref: '#/components/schemas/Embed' } } } } }
components:
  schemas:
    Profile:
      type: object
      required: [name, status, since, visits, stop]
      properties:
        name: { type: string, default: null }
        status: { type: string, enum: [active, away], example: Choose... }
        since: { type: string, format: date-time, example: '2022-01-01' }
        visits: { type: integer, example: 7 }
        stop: { default: null, oneOf: [{ type: string }, { type: array, items: { type: string } }] }
    PublicEvent: { type: object }
    WatchEvent: { type: object, required: [action], properties: { action: { type: string } } }
    PushEvent: { type: object, required: [ref, head], properties: { ref: { type: string }, head: { type: string } } }
    Embed:
      type: object
      required: [type, url, id]
      properties:
        type: { type: string, maxLength: 152133 }
        url: { type: string, format: uri }
        id: { type: string, pattern: '^(0|[1-9][0-9]*)$' }
    Pet:
      type: object
      required: [pet_type]
      properties: { pet_type: { type: string } }
      discriminator: { propertyName: pet_type }
    Cat:
      allOf: [{ $ref: '#/components/schemas/Pet' }, { type: object, properties: { hunts: { type: boolean } } }]
    Dog:
      allOf: [{ $ref: '#/components/schemas/Pet' }, { type: object, properties: { bark: { type: boolean } } }]
    Event:
      type: object
      required: [event_type]
      properties: { event_type: { type: string, enum: [approved, denied] }, id: { type: string } }
    Approved: { allOf: [{ $ref: '#/components/schemas/Event' }] }
    Denied: { allOf: [{ $ref: '#/components/schemas/Event' }] }
`;

let dir: string;
const stubs: Record<'3.0' | '3.1', RunningStub> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-corners-'));
  await writeFile(join(dir, 'corners-3.0.yaml'), DOCUMENT);
  await writeFile(join(dir, 'corners-3.1.yaml'), DOCUMENT.replace('openapi: 3.0.3', 'openapi: 3.1.0'));
  const options = { fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {} };
  [stubs['3.0'], stubs['3.1']] = await Promise.all([
    startStub({ ...options, spec: join(dir, 'corners-3.0.yaml') }),
    startStub({ ...options, spec: join(dir, 'corners-3.1.yaml') }),
  ]);
});

afterAll(async () => {
  await Promise.all(Object.values(stubs).map((stub) => stub.close()));
  await rm(dir, { recursive: true, force: true });
});

interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  /** Text the answer must hold (a refusal's violations). */
  message?: string;
}

function send(version: '3.0' | '3.1', { method, path, body, headers: extra = {} }: Case) {
  const headers: Record<string, string> = body === undefined ? extra : { 'content-type': 'application/json', ...extra };
  return request(`${stubs[version].url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe.each(['3.0', '3.1'] as const)('a discriminated oneOf (OpenAPI %s)', (version) => {
  const cases: Case[] = [
    { name: 'accepts a Cat named by its schema name (implicit mapping)', method: 'PATCH', path: '/pets', body: { pet_type: 'Cat', hunts: true }, status: 204 },
    { name: 'accepts a Dog named by its schema name', method: 'PATCH', path: '/pets', body: { pet_type: 'Dog', bark: false }, status: 204 },
    { name: 'refuses a tag that names no branch', method: 'PATCH', path: '/pets', body: { pet_type: 'Lizard' }, status: 400, message: '/pet_type' },
    { name: 'refuses a tagged branch that breaks its own schema', method: 'PATCH', path: '/pets', body: { pet_type: 'Dog', bark: 'loud' }, status: 400, message: '/bark: must be a boolean' },
    { name: 'accepts a branch told apart by a discriminator its schemas inherit (allOf)', method: 'PATCH', path: '/pets/embedded', body: { pet_type: 'Dog' }, status: 204 },
    { name: 'accepts a tag given by mapping to a $ref', method: 'POST', path: '/events', body: { event_type: 'approved', id: 'e1' }, status: 204 },
    { name: 'accepts a tag given by mapping to a schema name', method: 'POST', path: '/events', body: { event_type: 'denied' }, status: 204 },
  ];

  it.each(cases)('$name', async (c) => {
    const response = await send(version, c);
    expect(response.status, response.text).toBe(c.status);
    if (c.status === 204) expect(response.text).toBe('');
    if (c.message) expect(response.text).toContain(c.message);
  });

  it('answers with generated data tagged for one branch, which the self-check finds valid', async () => {
    const response = await send(version, { name: 'generated', method: 'GET', path: '/pets/3', status: 200 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(['Cat', 'Dog']).toContain(response.json.pet_type);
    const [entry] = stubs[version].requests({ method: 'GET' }).slice(-1);
    expect(entry.status).toBe(200);
    expect(entry.selfCheck).toBeUndefined(); // the journal lists self-check failures only
  });
});

describe.each(['3.0', '3.1'] as const)('path and header parameters (OpenAPI %s)', (version) => {
  const cases: Case[] = [
    { name: 'takes a path value holding a slash sent as %2F as one value', method: 'GET', path: '/refs/heads%2Fmain', status: 200 },
    { name: 'validates that value decoded', method: 'GET', path: '/refs/tags%2Fv1', status: 400, message: '/path/ref: must match pattern' },
    { name: 'does not take an unencoded slash as part of the value', method: 'GET', path: '/refs/heads/main', status: 404 },
    { name: 'ignores documented Accept and Authorization header parameters (OpenAPI says they SHALL be)', method: 'GET', path: '/reports', headers: { accept: '*/*' }, status: 200 },
    { name: 'ignores them when they are not sent either', method: 'GET', path: '/reports', status: 200 },
  ];

  it.each(cases)('$name', async (c) => {
    const response = await send(version, c);
    expect(response.status, response.text).toBe(c.status);
    if (c.status === 200) expect(response.json).toEqual(c.path === '/reports' ? { ok: true } : { found: true });
    if (c.message) expect(response.text).toContain(c.message);
  });
});

describe.each(['3.0', '3.1'] as const)('generated answers (OpenAPI %s)', (version) => {
  async function generated(path: string) {
    const response = await send(version, { name: path, method: 'GET', path, status: 200 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    const [entry] = stubs[version].requests({ method: 'GET' }).slice(-1);
    expect(entry.selfCheck).toBeUndefined(); // the answer fits the document
    return response.json;
  }

  it("pass over the document's values that break their own schema, and keep those that fit", async () => {
    const profile = await generated('/profile');
    expect(typeof profile.name).toBe('string'); // not the `default: null` of a string
    expect(profile.status).toBe('active'); // the first enum value, not the example "Choose..."
    expect(profile.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/); // not the example "2022-01-01"
    expect(profile.visits).toBe(7);
    expect(profile.stop).not.toBeNull(); // its `default: null` fits neither oneOf branch
  });

  it('answer a oneOf whose one branch takes any object with the empty object, the only value matching one branch', async () => {
    expect(await generated('/feed')).toEqual([{ payload: {} }, { payload: {} }, { payload: {} }]);
  });

  it('keep small values whole when a huge string takes data past the size cap', async () => {
    const embed = await generated('/embed');
    expect(embed.url).toMatch(/^https?:\/\//);
    expect(embed.id).toMatch(/^(0|[1-9][0-9]*)$/);
    expect(JSON.stringify(embed).length).toBeLessThan(110_000);
  });
});
