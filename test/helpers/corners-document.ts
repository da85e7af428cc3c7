// A document of corners found by the corpus run (test/corpus.test.ts) in real documents, written
// small, served as 3.0 and relabelled 3.1 (the two are validated by different JSON Schema
// dialects): the stubs, a table case and how it is sent. Call startCornerStubs() in a test file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startStub, type RunningStub } from '../../src/index.js';
import { request } from './http.js';

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
export const stubs: Record<'3.0' | '3.1', RunningStub> = {} as never;

/** Starts the two stubs before the calling file's tests, and closes them after. */
export function startCornerStubs(): void {
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
}

export interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  /** Text the answer must hold (a refusal's violations). */
  message?: string;
}

export function send(version: '3.0' | '3.1', { method, path, body, headers: extra = {} }: Case) {
  const headers: Record<string, string> = body === undefined ? extra : { 'content-type': 'application/json', ...extra };
  return request(`${stubs[version].url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
