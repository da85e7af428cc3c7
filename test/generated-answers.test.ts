// Answers built from a schema: the document's own values (`example`, 3.1 `examples`, `default`,
// `enum`) first and only the rest generated; the same request gets the same bytes across
// restarts without a seed, another --seed another data set; generated data that breaks its own
// schema is generated again, and a schema nothing satisfies becomes a document warning.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

const TODO_PROPERTIES = `
                  title: { type: string, examples: [Work, Rest] }
                  note: { type: string, example: call back }
                  priority: { type: number, default: 0 }
                  status: { type: string, enum: [open, done] }
                  closedAt: { type: string, nullable: true, default: null }
                  owner: { type: object, example: { name: Ann } }
                  free: { type: string, minLength: 3, maxLength: 3, pattern: '^[a-z]+$' }`;

const DOCUMENT_30 = `
openapi: 3.0.3
info: { title: Values, version: '1' }
paths:
  /todo:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [title, note, priority, status, closedAt, owner, free]
                properties:${TODO_PROPERTIES}
  /links:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [home, kind, shape]
                properties:
                  home: { type: string, format: url }
                  kind:
                    type: integer
                    enum: [2, 3]
                    allOf: [{ $ref: '#/components/schemas/Kinds' }]
                  shape:
                    oneOf:
                      - { type: object, additionalProperties: false, properties: { radius: { type: integer } } }
                      - { type: object, additionalProperties: false, properties: { side: { type: integer } } }
  /impossible:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: string, minLength: 5, maxLength: 2 }
components:
  schemas:
    Kinds:
      oneOf: [{ const: 1 }, { const: 2 }, { const: 3 }]
`;

const DOCUMENT_31 = `
openapi: 3.1.0
info: { title: Values, version: '1' }
paths:
  /todo:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  title: { type: string, examples: [Work, Rest] }
                  pet: { $ref: '#/components/schemas/Pet', examples: [{ name: Rex }] }
                  plain: { $ref: '#/components/schemas/Pet' }
components:
  schemas:
    Pet: { type: object, required: [name], properties: { name: { type: string, example: Felix } } }
`;

/** Properties that say nothing but their type, and names that say what they hold. */
const NAMED_DOCUMENT = `
openapi: 3.0.3
info: { title: Names, version: '1' }
paths:
  /issues:
    get:
      responses:
        '200':
          description: issues
          content:
            application/json:
              schema:
                type: array
                minItems: 5
                maxItems: 5
                items:
                  type: object
                  required: [id, count, balance, html_url, author_email, created_at, due_date, login, first_name, note, code, below, anything]
                  properties:
                    id: { type: integer }
                    count: { type: integer, maximum: 50 }
                    balance: { type: number }
                    below: { type: integer, maximum: -5 }
                    html_url: { type: string }
                    author_email: { type: string }
                    created_at: { type: string }
                    due_date: { type: string }
                    login: { type: string }
                    first_name: { type: string }
                    note: { type: string }
                    code: { type: string, pattern: '^[A-Z]{3}$' }
                    anything: { description: no type at all }
`;

let dir: string;
const stubs: RunningStub[] = [];
const start = async (file: string, seed?: number) => {
  const stub = await startStub({ spec: join(dir, file), fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {}, ...(seed === undefined ? {} : { seed }) });
  stubs.push(stub);
  return stub;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-values-'));
  await writeFile(join(dir, 'values-30.yaml'), DOCUMENT_30);
  await writeFile(join(dir, 'values-31.yaml'), DOCUMENT_31);
  await writeFile(join(dir, 'names.yaml'), NAMED_DOCUMENT);
});
afterAll(async () => {
  await Promise.all(stubs.map((stub) => stub.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('the document\'s own values come first', () => {
  it('example, the first of examples, default, the first enum value and a null default are used; the rest is generated', async () => {
    const stub = await start('values-30.yaml');
    const answer = await request(`${stub.url}/todo`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    expect(answer.json).toEqual({ title: 'Work', note: 'call back', priority: 0, status: 'open', closedAt: null, owner: { name: 'Ann' }, free: expect.stringMatching(/^[a-z]{3}$/) });
  });

  it('3.1: an examples list beside a $ref is that place\'s value; the referenced schema\'s example elsewhere', async () => {
    const stub = await start('values-31.yaml');
    const answer = await request(`${stub.url}/todo`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ title: 'Work', pet: { name: 'Rex' }, plain: { name: 'Felix' } });
  });

  it('Prefer: dynamic=true sets the document\'s values aside and generates everything', async () => {
    const stub = await start('values-30.yaml');
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((q) => request(`${stub.url}/todo?q=${q}`, { headers: { prefer: 'dynamic=true' } })));
    for (const answer of answers) expect(answer.status).toBe(200);
    // Four generated titles are not all the documented first example.
    expect(answers.map((answer) => answer.json.title).every((title) => title === 'Work')).toBe(false);
  });
});

describe('the same request gets the same bytes', () => {
  it('across restarts without a seed; another --seed gives another data set', async () => {
    const [first, second, seeded] = await Promise.all([start('values-30.yaml'), start('values-30.yaml'), start('values-30.yaml', 12345)]);
    const path = '/todo?page=2';
    const [a, b, c] = await Promise.all([request(`${first.url}${path}`), request(`${second.url}${path}`), request(`${seeded.url}${path}`)]);
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(c.json.free).not.toBe(a.json.free);
    const dynamic = await Promise.all([first, second].map((stub) => request(`${stub.url}${path}`, { headers: { prefer: 'dynamic=true' } })));
    expect(dynamic[1].text).toBe(dynamic[0].text);
  });
});

describe('generated data that breaks its own schema', () => {
  it.each(['/links?x=1', '/links?x=2', '/links?x=3', '/links?x=4', '/links?x=5', '/links?x=6'])('is generated again until it fits: format url, an enum narrowed by allOf of a oneOf of consts, a oneOf of two objects (%s)', async (path) => {
    const stub = stubs[0] ?? (await start('values-30.yaml'));
    const answer = await request(`${stub.url}${path}`, { headers: { prefer: 'dynamic=true' } });
    expect(answer.status).toBe(200);
    expect(answer.json.home).toMatch(/^https?:\/\/\S+$/);
    expect([2, 3]).toContain(answer.json.kind);
    expect(Object.keys(answer.json.shape)).toHaveLength(1);
    // The self-check found nothing wrong with what was sent.
    const [journal] = stub.requests({ path: '/links' }).filter((entry) => entry.query.x === path.slice('/links?x='.length));
    expect(journal?.selfCheck).toBeUndefined();
  });

  it('a schema nothing satisfies is still answered, and listed as a document warning naming its pointer', async () => {
    const stub = await start('values-30.yaml');
    const answer = await request(`${stub.url}/impossible`);
    expect(answer.status).toBe(200);
    const warnings = await request(`${stub.url}/__admin/warnings`);
    expect(warnings.json.warnings).toContainEqual(expect.objectContaining({
      pointer: '/paths/~1impossible/get/responses/200/content/application~1json/schema',
      kind: 'response schema no generated data satisfies',
    }));
  });

  it('--strict generates every response once at start and refuses a schema nothing satisfies, naming its pointer', async () => {
    await expect(startStub({ spec: join(dir, 'values-30.yaml'), fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {}, strict: true }))
      .rejects.toThrow(/values-30\.yaml: \/paths\/~1impossible\/get\/responses\/200\/content\/application~1json\/schema: data generated for this schema breaks it on every try/);
  });
});

describe('generated values look like what their names say', () => {
  it.each([1, 2, 3])('seed %i: numbers unbounded below are 0 or more, and strings named like URLs, addresses, times and people look like them', async (seed) => {
    const stub = await start('names.yaml', seed);
    const answer = await request(`${stub.url}/issues`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    expect(answer.json).toHaveLength(5);
    for (const { anything, ...issue } of answer.json) {
      expect(anything).not.toBeUndefined(); // required, of any type (null included)
      expect(issue).toEqual({
        id: expect.any(Number),
        count: expect.any(Number),
        balance: expect.any(Number),
        below: expect.any(Number),
        html_url: expect.stringMatching(/^https:\/\/[a-z.]+\/\S*$/),
        author_email: expect.stringMatching(/^[^@\s]+@[a-z.]+\.[a-z]+$/),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
        due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        login: expect.stringMatching(/^\S{2,}$/),
        first_name: expect.stringMatching(/^[A-Z][a-z'-]+/),
        note: expect.any(String),
        code: expect.stringMatching(/^[A-Z]{3}$/),
      });
      expect(Number.isInteger(issue.id) && issue.id >= 0).toBe(true);
      expect(issue.count >= 0 && issue.count <= 50).toBe(true);
      expect(issue.balance).toBeGreaterThanOrEqual(0);
      expect(issue.below).toBeLessThanOrEqual(-5);
    }
    // A schema without a type stays open to every type: the 0-and-up rule is for numbers only.
    expect(new Set(answer.json.map((issue: { anything: unknown }) => typeof issue.anything)).size).toBeGreaterThan(1);
  });
});
