// The stub serves any OpenAPI 3.0/3.1 document, not just the plant store. Two documents of our own
// (test/specs/library-3.0.yaml and library-3.1.yaml) are served over real HTTP, and every answer is
// checked against what *that* document says: its routes, parameters, security, body schemas
// (allOf, nullable, boolean exclusiveMinimum, 3.1 type arrays), examples and its own error shape.
// (Broken variants of them: broken-documents-refuse-to-start.test.ts.)
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AjvDraft04Module from 'ajv-draft-04';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv, Options as AjvOptions } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { startStub, type RunningStub } from '../src/index.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';

// CommonJS default export, seen through NodeNext's ESM interop (as in src/spec/schema-compiler.ts).
const AjvDraft04 = AjvDraft04Module as unknown as { default: new (options: AjvOptions) => Ajv };

const SPEC_30 = 'test/specs/library-3.0.yaml';
const SPEC_31 = 'test/specs/library-3.1.yaml';
const TRACE_ID = /^trace-[0-9a-f]{8}$/;

let emptyFixtures: string;
const stubs: Record<'3.0' | '3.1', RunningStub> = {} as Record<'3.0' | '3.1', RunningStub>;
/** Validators for the documents' component schemas, compiled by an Ajv of the test's own. */
const schemas: Record<'3.0' | '3.1', (name: string, value: unknown) => string[]> = {} as never;

async function schemaChecker(file: string, version: '3.0' | '3.1') {
  const document = parseYaml(await readFile(file, 'utf8')) as object;
  const options: AjvOptions = { strict: false, allErrors: true, logger: false, validateFormats: false };
  const ajv = version === '3.1' ? new Ajv2020(options) : new AjvDraft04.default(options);
  const id = `urn:test:library-${version}`;
  ajv.addSchema(document, id);
  return (name: string, value: unknown) => {
    const validate = ajv.getSchema(`${id}#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name} in ${file}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

beforeAll(async () => {
  emptyFixtures = await mkdtemp(join(tmpdir(), 'stub-other-fixtures-'));
  stubs['3.0'] = await startStub({ spec: SPEC_30, fixtures: emptyFixtures, port: 0, watch: false, seed: 7 });
  stubs['3.1'] = await startStub({ spec: SPEC_31, fixtures: emptyFixtures, port: 0, watch: false, seed: 7 });
  schemas['3.0'] = await schemaChecker(SPEC_30, '3.0');
  schemas['3.1'] = await schemaChecker(SPEC_31, '3.1');
});

afterAll(async () => {
  await Promise.all(Object.values(stubs).map((stub) => stub.close()));
  await rm(emptyFixtures, { recursive: true, force: true });
});

interface Case {
  name: string;
  spec: '3.0' | '3.1';
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Objects are sent as JSON (with Content-Type: application/json unless headers say otherwise). */
  body?: unknown;
  status: number;
  /** Expected response headers; null means the header must be absent. */
  responseHeaders?: Record<string, string | null>;
  /** The exact JSON body (asymmetric matchers allowed for generated values); '' for no body. */
  json?: unknown;
  /** A component schema of the document the body must validate against (checked with Ajv here). */
  conformsTo?: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const KEY = { 'x-api-key': 'librarian-key' };
const PROBLEM = { 'content-type': 'application/problem+json' };

/** The 3.0 document's error shape: code carries the status, detail the text, traceId from the example. */
const libraryError = (code: number, detail: string, traceId: unknown) => ({ code, detail, traceId });

const NEW_BOOK = { title: 'Kindred', author: 'Octavia E. Butler', genre: 'fiction', copies: 2, price: 11.5 };

const cases: Case[] = [
  // Routes follow the document.
  {
    name: 'a known path of the 3.0 document answers with its documented example',
    spec: '3.0', method: 'GET', path: '/books', status: 200,
    responseHeaders: { ...JSON_TYPE, 'x-mock-scenario': 'example:default' },
    json: {
      items: [{ id: 7, title: 'The Left Hand of Darkness', subtitle: null, author: 'Ursula K. Le Guin', genre: 'fiction', copies: 3, price: 12.5 }],
      total: 1,
    },
    conformsTo: 'BookPage',
  },
  {
    name: 'a literal path beats the template beside it (/books/featured is not /books/{bookId})',
    spec: '3.0', method: 'GET', path: '/books/featured', status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:default' },
    json: { id: 42, title: 'Invisible Cities', subtitle: null, author: 'Italo Calvino', genre: 'fiction', copies: 1, price: 14 },
    conformsTo: 'Book',
  },
  {
    name: 'a templated path serves the first named example by default, with the id the path asked for',
    spec: '3.0', method: 'GET', path: '/books/5', status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:poem' },
    json: { id: 5, title: 'Leaves of Grass', subtitle: 'The Death-Bed Edition', author: 'Walt Whitman', genre: 'poetry', copies: 4, price: 7.5 },
    conformsTo: 'Book',
  },
  {
    name: 'Prefer: example=<name> serves that named example',
    spec: '3.0', method: 'GET', path: '/books/5', headers: { prefer: 'example=essay' }, status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:essay' },
    json: { id: 4, title: "A Room of One's Own", subtitle: null, author: 'Virginia Woolf', genre: 'history', copies: 1, price: 6 },
  },
  {
    name: 'the plant store path is unknown to this document: 404 problem+json',
    spec: '3.0', method: 'POST', path: '/plants', headers: { ...JSON_TYPE, authorization: 'Bearer t' }, body: { id: 1, name: 'Fern' }, status: 404,
    responseHeaders: PROBLEM,
    json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no operation of the spec matches POST /plants' },
  },
  {
    name: 'a method the path does not document is 405 with the path\'s Allow list',
    spec: '3.0', method: 'PUT', path: '/books', status: 405,
    responseHeaders: { ...PROBLEM, allow: 'GET, HEAD, POST' },
    json: { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'PUT is not allowed on /books; allowed: GET, HEAD, POST' },
  },
  {
    name: 'the Allow list of a templated path names its own methods',
    spec: '3.0', method: 'PATCH', path: '/books/9', status: 405,
    responseHeaders: { ...PROBLEM, allow: 'DELETE, GET, HEAD' },
    json: { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'PATCH is not allowed on /books/9; allowed: DELETE, GET, HEAD' },
  },
  {
    name: 'the Allow list of the literal sibling names only its methods',
    spec: '3.0', method: 'POST', path: '/books/featured', status: 405,
    responseHeaders: { allow: 'GET, HEAD' },
    json: { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'POST is not allowed on /books/featured; allowed: GET, HEAD' },
  },

  // Parameters: path, query, header; the error is the operation's documented shape (default / 4XX).
  {
    name: 'a path parameter below its minimum is 400 naming /path/bookId, in the document\'s error shape',
    spec: '3.0', method: 'GET', path: '/books/0', status: 400,
    responseHeaders: { ...JSON_TYPE, 'x-mock-scenario': null },
    json: libraryError(400, '/path/bookId: must be >= 1', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a path parameter that is not an integer is 400 naming /path/bookId',
    spec: '3.0', method: 'GET', path: '/books/abc', status: 400,
    responseHeaders: JSON_TYPE,
    json: libraryError(400, '/path/bookId: must be an integer', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a query parameter above its maximum is 400 naming /query/limit (4XX response shape)',
    spec: '3.0', method: 'GET', path: '/books?limit=500', status: 400,
    responseHeaders: JSON_TYPE,
    json: libraryError(400, '/query/limit: must be <= 100', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'every bad query parameter is named at once, an enum with its allowed values',
    spec: '3.0', method: 'GET', path: '/books?limit=0&genre=cooking', status: 400,
    json: libraryError(400, '/query/limit: must be >= 1; /query/genre: must be one of "fiction", "history", "science", "poetry"', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a header parameter of the wrong type is 400 naming /header/X-Client-Version',
    spec: '3.0', method: 'GET', path: '/books', headers: { 'x-client-version': 'abc' }, status: 400,
    json: libraryError(400, '/header/X-Client-Version: must be an integer', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a template sharing a segment with another under a different name binds its own parameter (isbn, not bookId)',
    spec: '3.0', method: 'GET', path: '/books/9780441478125/reviews', status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:default' },
    json: [{ stars: 5, text: 'Still the best book on the shelf.' }],
  },
  {
    name: 'that parameter is validated under its own name, /path/isbn',
    spec: '3.0', method: 'GET', path: '/books/123/reviews', status: 400,
    json: libraryError(400, '/path/isbn: must match pattern "^[0-9]{13}$"', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'valid optional query and header parameters are accepted',
    spec: '3.0', method: 'GET', path: '/books?limit=100&genre=poetry', headers: { 'x-client-version': '3' }, status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:default' },
    conformsTo: 'BookPage',
  },

  // Security: apiKey in a header on some operations, none on others.
  {
    name: 'an operation with apiKey security refuses a request without X-Api-Key: 401 in the documented 401 shape',
    spec: '3.0', method: 'POST', path: '/books', headers: JSON_TYPE, body: NEW_BOOK, status: 401,
    responseHeaders: { ...JSON_TYPE, 'www-authenticate': null },
    json: libraryError(401, 'the API key "X-Api-Key" (header) is missing', expect.stringMatching(TRACE_ID)),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a 401 without its own documented response takes the default response\'s shape and example',
    spec: '3.0', method: 'DELETE', path: '/books/5', status: 401,
    json: libraryError(401, 'the API key "X-Api-Key" (header) is missing', 'trace-0000beef'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'with the API key, a documented 204 answers with no body',
    spec: '3.0', method: 'DELETE', path: '/books/5', headers: KEY, status: 204,
    responseHeaders: { 'content-type': null },
    json: '',
  },

  // Request bodies: allOf, nullable, boolean exclusiveMinimum.
  {
    name: 'an empty object names the required fields of both allOf branches',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY }, body: {}, status: 400,
    responseHeaders: JSON_TYPE,
    json: libraryError(400, '/title: is required; /author: is required; /copies: is required; /price: is required', 'trace-00c0ffee'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a price of 0 breaks the 3.0 boolean exclusiveMinimum',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY }, body: { ...NEW_BOOK, price: 0 }, status: 400,
    json: libraryError(400, '/price: must be > 0', 'trace-00c0ffee'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'a nullable 3.0 field of the wrong type says it may be null',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY }, body: { ...NEW_BOOK, subtitle: 5 }, status: 400,
    json: libraryError(400, '/subtitle: must be a string or null', 'trace-00c0ffee'),
    conformsTo: 'LibraryError',
  },
  {
    name: 'null in a 3.0 nullable field is accepted and echoed, projected onto Book (id from the 201 example, unknown fields dropped)',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY }, body: { ...NEW_BOOK, subtitle: null, shelf: 'B2' }, status: 201,
    responseHeaders: { ...JSON_TYPE, 'x-mock-scenario': 'echo' },
    json: { id: 1001, title: 'Kindred', subtitle: null, author: 'Octavia E. Butler', genre: 'fiction', copies: 2, price: 11.5 },
    conformsTo: 'Book',
  },
  {
    name: 'Prefer: code=201 serves the documented 201 example',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY, prefer: 'code=201' }, body: NEW_BOOK, status: 201,
    responseHeaders: { 'x-mock-scenario': 'example:default' },
    json: { id: 1001, title: 'A Wizard of Earthsea', subtitle: null, author: 'Ursula K. Le Guin', genre: 'fiction', copies: 2, price: 9.99 },
    conformsTo: 'Book',
  },
  {
    name: 'Prefer: dynamic=true generates a Book from the schema',
    spec: '3.0', method: 'POST', path: '/books', headers: { ...JSON_TYPE, ...KEY, prefer: 'dynamic=true' }, body: NEW_BOOK, status: 201,
    responseHeaders: { ...JSON_TYPE, 'x-mock-scenario': 'generated' },
    conformsTo: 'Book',
  },
  {
    name: 'a scenario the fixtures do not define is refused by the stub as 422 problem+json',
    spec: '3.0', method: 'GET', path: '/books/featured', headers: { 'x-mock-scenario': 'duplicate-id' }, status: 422,
    responseHeaders: PROBLEM,
    json: {
      type: 'about:blank', title: 'Unprocessable Entity', status: 422,
      detail: 'unknown scenario "duplicate-id" for GET /books/featured; known scenarios: none', knownScenarios: [],
    },
  },

  // The 3.1 document: type arrays, named examples, $ref with siblings, no documented 400.
  {
    name: 'a 3.1 type array accepts null and the echo keeps it (id from the named example)',
    spec: '3.1', method: 'POST', path: '/authors', headers: JSON_TYPE, body: { name: 'Jane Austen', nickname: null }, status: 201,
    responseHeaders: { ...JSON_TYPE, 'x-mock-scenario': 'echo' },
    json: { id: 'twain', name: 'Jane Austen', nickname: null },
    conformsTo: 'Author',
  },
  {
    name: 'a 3.1 type array accepts a string, and a $ref with a sibling description still validates',
    spec: '3.1', method: 'POST', path: '/authors', headers: JSON_TYPE, body: { name: 'Samuel Clemens', nickname: 'Mark Twain', born: 1835, extra: true }, status: 201,
    responseHeaders: { 'x-mock-scenario': 'echo' },
    json: { id: 'twain', name: 'Samuel Clemens', nickname: 'Mark Twain', born: 1835 },
    conformsTo: 'Author',
  },
  {
    name: 'an operation documenting no 400 answers validation errors as problem+json with every violation',
    spec: '3.1', method: 'POST', path: '/authors', headers: JSON_TYPE, body: { name: '', nickname: 5, born: 'x' }, status: 400,
    responseHeaders: PROBLEM,
    json: {
      type: 'about:blank', title: 'Bad Request', status: 400,
      detail: '/name: must NOT have fewer than 1 characters; /nickname: must be a string or null; /born: must be an integer',
      violations: ['/name: must NOT have fewer than 1 characters', '/nickname: must be a string or null', '/born: must be an integer'],
    },
  },
  {
    name: 'a missing required field of a 3.1 body is problem+json naming it',
    spec: '3.1', method: 'POST', path: '/authors', headers: JSON_TYPE, body: { name: 'Jane Austen' }, status: 400,
    responseHeaders: PROBLEM,
    json: { type: 'about:blank', title: 'Bad Request', status: 400, detail: '/nickname: is required', violations: ['/nickname: is required'] },
  },
  {
    name: 'a path parameter breaking its pattern is problem+json naming /path/authorId',
    spec: '3.1', method: 'GET', path: '/authors/Eliot', status: 400,
    responseHeaders: PROBLEM,
    json: {
      type: 'about:blank', title: 'Bad Request', status: 400,
      detail: '/path/authorId: must match pattern "^[a-z]+$"', violations: ['/path/authorId: must match pattern "^[a-z]+$"'],
    },
  },
  {
    name: 'a 3.1 operation serves its first named example by default',
    spec: '3.1', method: 'GET', path: '/authors/austen', status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:plain' },
    json: { id: 'austen', name: 'Jane Austen', nickname: null, born: 1775 },
    conformsTo: 'Author',
  },
  {
    name: 'Prefer: example=<name> picks a named example of a 3.1 response',
    spec: '3.1', method: 'GET', path: '/authors/eliot', headers: { prefer: 'example=pen-name' }, status: 200,
    responseHeaders: { 'x-mock-scenario': 'example:pen-name' },
    json: { id: 'eliot', name: 'Mary Ann Evans', nickname: 'George Eliot', born: 1819 },
  },
  {
    name: 'Prefer: example=<name> finds examples of a response reached through $ref (with a sibling description)',
    spec: '3.1', method: 'POST', path: '/authors', headers: { ...JSON_TYPE, prefer: 'example=pen-name' }, body: { name: 'x', nickname: null }, status: 201,
    responseHeaders: { 'x-mock-scenario': 'example:pen-name' },
    json: { id: 'twain', name: 'Samuel Clemens', nickname: 'Mark Twain', born: 1835 },
  },
  {
    name: 'an unknown example name is 422 problem+json listing the examples the operation has',
    spec: '3.1', method: 'GET', path: '/authors/eliot', headers: { prefer: 'example=nope' }, status: 422,
    responseHeaders: PROBLEM,
    json: {
      type: 'about:blank', title: 'Unprocessable Entity', status: 422,
      detail: 'unknown example "nope" for GET /authors/{authorId}; known examples and scenarios: plain, pen-name', knownExamples: ['plain', 'pen-name'],
    },
  },
  {
    name: 'a path of the other document is unknown to this one',
    spec: '3.1', method: 'GET', path: '/books', status: 404,
    responseHeaders: PROBLEM,
    json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no operation of the spec matches GET /books' },
  },
];

describe('serving documents other than the plant store', () => {
  it.each(cases)('$spec: $name', async (c) => {
    const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const response = await request(`${stubs[c.spec].url}${c.path}`, { method: c.method, headers: c.headers, body });
    expect(response.status).toBe(c.status);
    for (const [name, value] of Object.entries(c.responseHeaders ?? {})) {
      expect(response.headers.get(name), `header ${name}`).toBe(value);
    }
    if (c.json === '') expect(response.text).toBe('');
    else if (c.json !== undefined) expect(response.json).toEqual(c.json);
    if (c.conformsTo) expect(schemas[c.spec](c.conformsTo, response.json)).toEqual([]);
  });

  it('no answer of the table broke its own document (the stub self-check stayed silent)', async () => {
    for (const version of ['3.0', '3.1'] as const) {
      const entries = stubs[version].requests();
      expect(entries.length).toBe(cases.filter((c) => c.spec === version).length);
      expect(entries.filter((entry) => (entry.selfCheck ?? []).length > 0)).toEqual([]);
    }
  });
});

describe('the CLI serving the 3.0 document with the plant store fixtures folder', () => {
  let cli: StartedCli;
  /** The whole lines the CLI has written to stdout so far. */
  const lines = () => cli.stdout().split('\n').slice(0, -1);

  beforeAll(async () => {
    cli = await startCli(['--spec', SPEC_30, '--port', '0', '--fixtures', 'fixtures']);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // What loading said (a progress line on a slow start, the fixtures warning) comes before it.
    expect(lines().filter((line) => !line.startsWith('reading and compiling ') && !line.startsWith('warning: '))[0], 'the first line after the load\'s').toBe(`Library API stub listening on ${cli.url}`);
  });

  afterAll(async () => {
    await cli?.stop('SIGTERM');
  });

  it('starts, warns that the plant fixtures name an operation this document lacks, and lists its operations', async () => {
    const deadline = Date.now() + 5_000;
    const warning = () => lines().find((line) => line.startsWith('warning: '));
    while (!warning() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(warning()).toBe('warning: fixtures/create-plant.yaml: the spec has no operation "POST /plants"; its scenarios are not served');
    // What loading said is printed before the listening line, every time.
    expect(lines().indexOf(warning()!)).toBeLessThan(lines().indexOf(`Library API stub listening on ${cli.url}`));
    expect(lines().filter((line) => /^\s+(GET|POST|DELETE) /.test(line)).map((line) => {
      const [method, url] = line.trim().split(/\s+/);
      return `${method} ${url.slice(cli.url.length)}`;
    })).toEqual([
      'GET /books', 'POST /books', 'GET /books/featured', 'GET /books/{bookId}', 'DELETE /books/{bookId}', 'GET /books/{isbn}/reviews',
    ]);
  });

  it.each([
    { name: 'the featured book is served from its example', method: 'GET', path: '/books/featured', status: 200, scenario: 'example:default', json: { id: 42, title: 'Invisible Cities', subtitle: null, author: 'Italo Calvino', genre: 'fiction', copies: 1, price: 14 } },
    { name: 'the plant store path is 404', method: 'POST', path: '/plants', status: 404, scenario: null, json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no operation of the spec matches POST /plants' } },
    { name: 'a bad query parameter is 400 in the document\'s error shape', method: 'GET', path: '/books?limit=500', status: 400, scenario: null, json: { code: 400, detail: '/query/limit: must be <= 100', traceId: 'trace-0000beef' } },
  ])('through the CLI: $name', async ({ method, path, status, scenario, json }) => {
    const response = await request(`${cli.url}${path}`, { method });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-mock-scenario')).toBe(scenario);
    expect(response.json).toEqual(json);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect((await cli.stop('SIGTERM')).code).toBe(0);
  });
});
