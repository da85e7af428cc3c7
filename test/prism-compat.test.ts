// --compat prism, over HTTP: each of Prism's conventions the mode takes on, as a table of cases,
// with the stub's own answer to the same request beside it where the two differ (the default is
// unchanged). Then Prism's command line: `plant-store-stub mock FILE -p … -h … -d --errors`, and
// that line bound beyond loopback without an admin token (the admin API is then off).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';
import { runCli, startCli, type StartedCli } from './helpers/cli.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { createFetchHandler } from '../src/fetch.js';

const SPEC = `
openapi: 3.0.3
info: { title: Prism ways, version: 1.0.0 }
components:
  securitySchemes:
    basic: { type: http, scheme: basic }
    oauth: { type: oauth2, flows: { implicit: { authorizationUrl: /auth, scopes: {} } } }
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        age: { type: integer }
        kind: { type: string, enum: [cat, dog] }
paths:
  /pets:
    get:
      parameters:
        - { name: old, in: query, deprecated: true, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
    post:
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string, maxLength: 5 }, age: { type: integer, minimum: 0, exclusiveMinimum: true } } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { type: object, properties: { name: { type: string } } }, example: { name: Rex } } } }
  /signup:
    post:
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [user] } } } }
      responses:
        '201': { description: created }
        '422': { description: invalid, content: { application/json: { examples: { first: { value: { problem: first } }, second: { value: { problem: second } } } } } }
  /secure:
    get:
      security: [{ basic: [], oauth: [] }]
      responses: { '200': { description: ok, content: { application/json: { example: in } } } }
  /notes:
    get:
      responses:
        '200':
          description: ok
          content:
            text/plain: { example: a note }
            application/json: { example: { note: a note } }
  /pet.xml:
    get:
      responses:
        '200': { description: ok, content: { application/xml: { schema: { $ref: '#/components/schemas/Pet' }, example: { name: Tom } } } }
  /broken:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object }, example: 123 } } }
  /text:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: object, properties: { a: { type: string, example: x } } } } } }
  /many:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, minItems: 3000, items: { type: string } } } } }
  /codes:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object, required: [code], properties: { code: { type: string, pattern: '^[0-9]+$' } } } } } }
  /code-lists:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, minItems: 200, items: { type: string, pattern: '^[0-9]+$' } } } } }
`;

type Mode = 'stub' | 'stub --errors' | 'prism' | 'prism --errors' | 'prism -d';

interface Case {
  name: string;
  mode: Mode;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  contentType?: string;
  /** The whole body, as JSON. */
  json?: unknown;
  /** The whole body, as text. */
  text?: string;
  /** A header that must be there, and what its JSON value must contain. */
  violations?: Array<Record<string, unknown>>;
}

const PROBLEM = 'application/problem+json';
const INVALID_DETAIL = 'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.';
const UNAUTHORIZED_DETAIL = 'Your request does not fullfil the security requirements and no HTTP unauthorized response was found in the spec, so Prism is generating this error for you.';

const CASES: Case[] = [
  // A request that breaks the contract, and no documented 422 or 400
  {
    name: 'an invalid body is 422 UNPROCESSABLE_ENTITY with Prism\'s validation items (keyword, location, message)',
    mode: 'prism', method: 'POST', path: '/pets', body: { name: 'Rexford', age: 0 }, status: 422, contentType: PROBLEM,
    json: {
      type: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY', title: 'Invalid request', status: 422, detail: INVALID_DETAIL,
      validation: [
        { location: ['body', 'name'], severity: 'Error', code: 'maxLength', message: 'Request body property name must NOT have more than 5 characters' },
        { location: ['body', 'age'], severity: 'Error', code: 'exclusiveMinimum', message: 'Request body property age must be > 0' },
      ],
    },
    violations: [{ location: ['request', 'body', 'name'], code: 'maxLength' }, { location: ['request', 'body', 'age'], code: 'exclusiveMinimum' }],
  },
  {
    name: 'the same body is the stub\'s own 400 without --compat',
    mode: 'stub', method: 'POST', path: '/pets', body: { name: 'Rexford', age: 0 }, status: 400, contentType: PROBLEM,
  },
  {
    name: 'a missing required property is located at its object, worded as Ajv words it',
    mode: 'prism', method: 'POST', path: '/pets', body: {}, status: 422, contentType: PROBLEM,
    json: {
      type: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY', title: 'Invalid request', status: 422, detail: INVALID_DETAIL,
      validation: [{ location: ['body'], severity: 'Error', code: 'required', message: "Request body must have required property 'name'" }],
    },
    violations: [{ location: ['request', 'body'], code: 'required' }],
  },
  // ...and with a documented 422: its first example, what was wrong in sl-violations
  {
    name: 'an invalid request answers the documented 422 with its first example, and lists what was wrong in sl-violations',
    mode: 'prism', method: 'POST', path: '/signup', body: {}, status: 422, contentType: 'application/json', json: { problem: 'first' },
    violations: [{ location: ['request', 'body'], severity: 'Error', code: 'required' }],
  },
  // Security
  {
    name: 'a request without credentials is 401 UNAUTHORIZED, challenged for every scheme it lacks',
    mode: 'prism', path: '/secure', status: 401, contentType: PROBLEM,
    json: {
      type: 'https://stoplight.io/prism/errors#UNAUTHORIZED', title: 'Invalid security scheme used', status: 401, detail: UNAUTHORIZED_DETAIL,
      headers: { 'WWW-Authenticate': 'Basic realm="*",OAuth2' },
    },
  },
  // Selection the operation does not document
  {
    name: 'a requested status the operation does not document is 404 NOT_FOUND',
    mode: 'prism', path: '/pets?__code=418', status: 404, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#NOT_FOUND', title: 'The server cannot find the requested content', status: 404, detail: 'Requested status code 418 is not defined in the document.' },
  },
  { name: 'which the stub answers 422 by default', mode: 'stub', path: '/pets?__code=418', status: 422, contentType: PROBLEM },
  {
    name: 'a requested example the operation does not document is 404 NOT_FOUND',
    mode: 'prism', path: '/pets', headers: { prefer: 'example=nope' }, status: 404, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#NOT_FOUND', title: 'The server cannot find the requested content', status: 404, detail: 'Response for contentType: application/json and exampleKey: nope does not exist.' },
  },
  {
    name: 'an Accept the response cannot meet is 406 NOT_ACCEPTABLE',
    mode: 'prism', path: '/pets', headers: { accept: 'image/png' }, status: 406, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#NOT_ACCEPTABLE', title: 'The server cannot produce a representation for your accept header', status: 406, detail: 'Unable to find content for image/png' },
  },
  {
    name: 'a path the document lacks is 404 NO_PATH_MATCHED_ERROR',
    mode: 'prism', path: '/nowhere', status: 404, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR', title: 'Route not resolved, no path matched', status: 404, detail: "The route /nowhere hasn't been found in the specification file" },
  },
  // Answers
  { name: 'a valid request body is not echoed: the documented example answers', mode: 'prism', method: 'POST', path: '/pets', body: { name: 'Tom', age: 3 }, status: 201, json: { name: 'Rex' } },
  { name: 'which the stub echoes where the schemas share fields', mode: 'stub', method: 'POST', path: '/pets', body: { name: 'Tom', age: 3 }, status: 201, json: { name: 'Tom' } },
  // Static data
  {
    name: 'data without an example is Prism\'s plain sample: "string", 0, the first enum value',
    mode: 'prism', path: '/pets', status: 200, contentType: 'application/json', json: { name: 'string', age: 0, kind: 'cat' },
  },
  { name: 'Prefer: dynamic=true generates it from the schema instead', mode: 'prism', path: '/pets', headers: { prefer: 'dynamic=true' }, status: 200, contentType: 'application/json' },
  { name: 'with -d every answer is generated, and __dynamic=false asks for the plain sample', mode: 'prism -d', path: '/pets?__dynamic=false', status: 200, json: { name: 'string', age: 0, kind: 'cat' } },
  {
    name: 'a schema whose sample is too large to build is 500 SCHEMA_TOO_COMPLEX',
    mode: 'prism', path: '/many', status: 500, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#SCHEMA_TOO_COMPLEX', title: 'Schema too complex', status: 500, detail: 'Unable to generate body for response. The schema is too complex to generate.' },
  },
  // Media types
  { name: 'without Accept, the first documented media type answers', mode: 'prism', path: '/notes', status: 200, contentType: 'text/plain', text: 'a note' },
  { name: 'so does Accept: */*', mode: 'prism', path: '/notes', headers: { accept: '*/*' }, status: 200, contentType: 'text/plain', text: 'a note' },
  { name: 'where the stub prefers the JSON one', mode: 'stub', path: '/notes', status: 200, contentType: 'application/json', json: { note: 'a note' } },
  { name: 'an XML body\'s root is named xml', mode: 'prism', path: '/pet.xml', status: 200, contentType: 'application/xml', text: '<xml><name>Tom</name></xml>' },
  { name: 'which the stub names after the schema', mode: 'stub', path: '/pet.xml', status: 200, contentType: 'application/xml', text: '<Pet><name>Tom</name></Pet>' },
  {
    name: 'a text/plain answer whose value is an object is 500 NO_COMPLEX_OBJECT_TEXT',
    mode: 'prism', path: '/text', status: 500, contentType: PROBLEM,
    json: { type: 'https://stoplight.io/prism/errors#NO_COMPLEX_OBJECT_TEXT', title: 'Cannot serialise complex objects as text', status: 500, detail: 'Cannot serialise complex objects as text' },
  },
  // HEAD
  { name: 'HEAD is 405 where the document lists only GET', mode: 'prism', method: 'HEAD', path: '/pets', status: 405 },
  { name: 'where the stub answers HEAD wherever GET is', mode: 'stub', method: 'HEAD', path: '/pets', status: 200 },
  // Answers that break their own schema
  {
    name: 'an example that breaks its schema is served, its violations in sl-violations',
    mode: 'prism', path: '/broken', status: 200, contentType: 'application/json', text: '123',
    violations: [{ location: ['response', 'body'], severity: 'Error', code: 'type' }],
  },
  {
    name: 'with --errors it is 500 VIOLATIONS instead',
    mode: 'prism --errors', path: '/broken', status: 500, contentType: PROBLEM,
    json: {
      type: 'https://stoplight.io/prism/errors#VIOLATIONS', title: 'Request/Response not valid', status: 500,
      detail: 'Your request/response is not valid and the --errors flag is set, so Prism is generating this error for you.',
      validation: [{ location: ['response', 'body'], severity: 'Error', code: 'type', message: 'Response body must be object' }],
    },
    violations: [{ location: ['response', 'body'], code: 'type' }],
  },
  {
    name: 'which is the stub\'s own 500 problem+json without --compat (the broken example asked for by name), naming the violations',
    mode: 'stub --errors', path: '/broken', headers: { prefer: 'example=default' }, status: 500, contentType: PROBLEM,
    json: {
      type: 'about:blank', title: 'Internal Server Error', status: 500,
      detail: "the answer breaks the document's schema, so it was not sent (--errors): /: must be an object", violations: ['/: must be an object'],
    },
  },
  {
    name: 'a plain sample that breaks its schema (a pattern) is sent as made, its violations in sl-violations, as Prism does',
    mode: 'prism', path: '/codes', status: 200, json: { code: 'string' },
    violations: [{ location: ['response', 'body', 'code'], severity: 'Error', code: 'pattern' }],
  },
  {
    name: 'the same request again gets the same answer',
    mode: 'prism', path: '/codes', status: 200, json: { code: 'string' },
    violations: [{ location: ['response', 'body', 'code'], severity: 'Error', code: 'pattern' }],
  },
  {
    name: 'where the stub generates data that fits the pattern',
    mode: 'stub', path: '/codes', status: 200, json: { code: expect.stringMatching(/^[0-9]+$/) },
  },
  {
    name: 'a deprecated parameter is a warning in sl-violations, the answer unchanged',
    mode: 'prism', path: '/pets?old=1', status: 200, json: { name: 'string', age: 0, kind: 'cat' },
    violations: [{ location: ['request', 'query', 'old'], severity: 'Warning', code: 'deprecated', message: 'Query param old is deprecated' }],
  },
];

const stubs = new Map<Mode, DocumentStub>();

beforeAll(async () => {
  stubs.set('stub', await startStubOn(SPEC));
  stubs.set('stub --errors', await startStubOn(SPEC, { errors: true }));
  stubs.set('prism', await startStubOn(SPEC, { compat: 'prism' }));
  stubs.set('prism --errors', await startStubOn(SPEC, { compat: 'prism', errors: true }));
  stubs.set('prism -d', await startStubOn(SPEC, { compat: 'prism', dynamic: true }));
});

afterAll(async () => {
  await Promise.all([...stubs.values()].map((stub) => stub.close()));
});

describe('--compat prism answers as Prism does', () => {
  it.each(CASES)('$mode: $name', async (c) => {
    const headers = { ...c.headers, ...(c.body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await request(stubs.get(c.mode)!.url + c.path, { method: c.method ?? 'GET', headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
    expect(response.status).toBe(c.status);
    if (c.contentType) expect(response.headers.get('content-type')).toBe(c.contentType);
    if (c.json !== undefined) expect(response.json).toEqual(c.json);
    if (c.text !== undefined) expect(response.text).toBe(c.text);
    if (c.violations) expect(JSON.parse(response.headers.get('sl-violations') ?? '[]')).toEqual(c.violations.map((item) => expect.objectContaining(item)));
    else expect(response.headers.get('sl-violations')).toBeNull();
  });

  // Node's HTTP clients (fetch, node:http) refuse an answer whose headers pass 16 KiB in all: a
  // Parse Error, no answer at all, for Discord's pinned messages before the cut.
  it('keeps sl-violations under 8 KiB, saying how many violations it leaves out (the journal holds them all)', async () => {
    const stub = stubs.get('prism')!;
    const response = await request(`${stub.url}/code-lists`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(Array.from({ length: 200 }, () => 'string'));
    const header = response.headers.get('sl-violations')!;
    expect(header.length).toBeLessThanOrEqual(8192);
    const items = JSON.parse(header) as Array<{ location: string[]; code: string; message: string }>;
    const listed = items.slice(0, -1);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.every((item) => item.code === 'pattern')).toBe(true);
    const [entry] = (await request(`${stub.url}/__admin/requests?path=/code-lists`)).json.requests;
    const left = entry.selfCheck.length - listed.length;
    expect(left).toBeGreaterThan(0);
    expect(items.at(-1)).toEqual({ location: ['response'], severity: 'Warning', code: 'truncated', message: `${left} more violations not listed here, to keep the header under 8 KiB (GET /__admin/requests lists them all)` });
  });

  it('generates with Prefer: dynamic=true rather than serving the plain sample', async () => {
    const response = await request(`${stubs.get('prism')!.url}/pets`, { headers: { prefer: 'dynamic=true' } });
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(response.json).not.toEqual({ name: 'string', age: 0, kind: 'cat' });
  });

  it('answers in Prism\'s ways in the fetch handler too', async () => {
    const handle = await createFetchHandler({ document: SPEC, compat: 'prism', log: () => {} });
    const answer = await handle(new Request('http://api.test/pets?__code=418'));
    expect(answer!.status).toBe(404);
    expect(await answer!.json()).toMatchObject({ type: 'https://stoplight.io/prism/errors#NOT_FOUND', detail: 'Requested status code 418 is not defined in the document.' });
    const sample = await handle(new Request('http://api.test/pets'));
    expect(await sample!.json()).toEqual({ name: 'string', age: 0, kind: 'cat' });
  });

  it('refuses a compat mode it does not have, naming the option', async () => {
    await expect(startStubOn(SPEC, { compat: 'wiremock' as 'prism' })).rejects.toThrow(/compat.*'prism' is the one compatibility mode, got 'wiremock'/);
  });
});

describe('Prism\'s command line: `mock FILE -p PORT -h HOST -d --errors`', () => {
  let dir: string;
  let cli: StartedCli;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prism-cli-'));
    await writeFile(join(dir, 'openapi.yaml'), SPEC);
    // The command line docs/compared-with-prism.md shows, on a free port, with this test's document.
    const [shown] = (await codeBlocks('compared-with-prism.md')).filter((block) => block.lang === 'sh');
    const args = shown.text.trim().split(/\s+/).slice(1).map((arg) => (arg === 'openapi.yaml' ? join(dir, 'openapi.yaml') : arg === '4010' ? '0' : arg));
    expect(args).toEqual(['mock', join(dir, 'openapi.yaml'), '-p', '0', '-h', '127.0.0.1', '-d', '--errors']);
    cli = await startCli([...args, '--no-watch', '--quiet', '--fixtures', join(dir, 'none')]);
  });

  afterAll(async () => {
    await cli?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the document on the port and host given, in Prism\'s ways', async () => {
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const notFound = await request(`${cli.url}/pets?__code=418`);
    expect(notFound.status).toBe(404);
    expect(notFound.json.type).toBe('https://stoplight.io/prism/errors#NOT_FOUND');
  });

  it('-d generates every answer, and --errors refuses an answer that breaks its schema', async () => {
    const generated = await request(`${cli.url}/pets`);
    expect(generated.headers.get('x-mock-scenario')).toBe('generated');
    expect(generated.json).not.toEqual({ name: 'string', age: 0, kind: 'cat' });
    const broken = await request(`${cli.url}/broken?__dynamic=false`);
    expect(broken.status).toBe(500);
    expect(broken.json.type).toBe('https://stoplight.io/prism/errors#VIOLATIONS');
  });
});

// Beyond loopback without an admin token, Prism's line starts with /__admin off. The host is
// `::ffff:127.0.0.1`: the loopback address written as IPv6, which the loopback rule does not count
// as loopback (as it does not count 0.0.0.0), so the test takes the non-loopback path while
// listening on this machine only.
describe('Prism\'s command line bound beyond loopback: the admin API off unless STUB_ADMIN_TOKEN is set', () => {
  const EXPOSED = '::ffff:127.0.0.1';
  const OFF_LINE = '  admin API off: bound beyond this machine without an admin token; set STUB_ADMIN_TOKEN (or --admin-token) to turn it on';
  let dir: string;
  const args = (more: string[]) => ['mock', join(dir, 'openapi.yaml'), '-p', '0', '-h', EXPOSED, '--no-watch', '--quiet', '--fixtures', join(dir, 'none'), ...more];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prism-exposed-'));
    await writeFile(join(dir, 'openapi.yaml'), SPEC);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const cases: { name: string; more: string[]; env: Record<string, string>; line: string | RegExp; admin: Record<string, string>; status: number; type: string | undefined }[] = [
    { name: 'without a token it starts, says the admin API is off and how to turn it on, and answers /__admin as an unknown path', more: [], env: {}, line: OFF_LINE, admin: {}, status: 404, type: 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR' },
    { name: 'with --workers 2 too, the start says the admin API is off and /__admin is an unknown path', more: ['--workers', '2'], env: {}, line: OFF_LINE, admin: {}, status: 404, type: 'https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR' },
    { name: 'with STUB_ADMIN_TOKEN the admin API is on and takes the token', more: [], env: { STUB_ADMIN_TOKEN: 'admin-secret' }, line: /^ {2}health: http:\/\/\[::ffff:127\.0\.0\.1\]:\d+\/__admin\/health {3}journal: /, admin: { authorization: 'Bearer admin-secret' }, status: 200, type: undefined },
    { name: 'with STUB_ADMIN_TOKEN the admin API refuses a request without the token', more: [], env: { STUB_ADMIN_TOKEN: 'admin-secret' }, line: /^ {2}health: /, admin: {}, status: 401, type: 'about:blank' },
  ];
  it.each(cases)('$name', async ({ more, env, line, admin, status, type }) => {
    const cli = await startCli(args(more), { env });
    try {
      const lines = cli.stdout().split('\n');
      expect(lines.filter((text) => /admin/.test(text))).toHaveLength(1);
      const said = lines.find((text) => /admin/.test(text));
      if (typeof line === 'string') expect(said).toBe(line);
      else expect(said).toMatch(line);
      const local = `http://127.0.0.1:${cli.port}`;
      const answer = await request(`${local}/__admin/requests`, { headers: admin });
      expect(answer.status).toBe(status);
      expect(answer.json.type).toBe(type);
      if (status === 404) expect(answer.json).toEqual({ ...(await request(`${local}/nowhere/requests`)).json, detail: expect.any(String) });
      const api = await request(`${local}/pets`);
      expect(api.status).toBe(200);
      expect(api.json).toEqual({ name: 'string', age: 0, kind: 'cat' });
    } finally {
      await cli.stop();
    }
  });

  it('the default mode still refuses that host without a token, naming the flag', async () => {
    const run = await runCli(['--spec', join(dir, 'openapi.yaml'), '--port', '0', '--host', EXPOSED, '--no-watch', '--quiet']);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toBe(`plant-store-stub: --host: binding to ${EXPOSED} exposes /__admin to the network; set an admin token (--admin-token) to protect it\n`);
    expect(run.stdout).toBe('');
  });
});
