// A schema that comes back to itself without going into the value (`A: {$ref: A}`, A to B to A,
// `A: {allOf: [A, …]}`) describes no value that can be checked. It is a flaw of the document, so
// the stub still starts: the operations that use it answer, the schema is listed at GET
// /__admin/warnings as not enforced, and every other operation is served as usual: neither a
// stack overflow at start (measuring each schema's smallest value) nor a 500 for each request
// whose validator would call itself for ever.
import { afterEach, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const json = (schema: string) => `{ content: { application/json: { schema: ${schema} } } }`;
const document = (schemas: string, answer: string) => `
openapi: 3.0.3
info: { title: Refs that come back, version: '1' }
paths:
  /loop:
    post:
      requestBody: ${json("{ $ref: '#/components/schemas/A' }")}
      responses:
        '200': { description: ok, ${json(answer).slice(2, -2)} }
  /plain:
    get:
      responses:
        '200': { description: ok, ${json("{ type: object, required: [n], properties: { n: { type: integer, minimum: 1, maximum: 9 } } }").slice(2, -2)} }
components:
  schemas:
${schemas}
`;

const cases = [
  { name: 'a schema that is a $ref to itself', schemas: "    A: { $ref: '#/components/schemas/A' }", answer: "{ $ref: '#/components/schemas/A' }" },
  { name: 'two schemas whose $refs point at each other', schemas: "    A: { $ref: '#/components/schemas/B' }\n    B: { $ref: '#/components/schemas/A' }", answer: "{ $ref: '#/components/schemas/B' }" },
  { name: 'a schema that is allOf itself and more', schemas: "    A: { allOf: [{ $ref: '#/components/schemas/A' }, { type: object, properties: { x: { type: string } } }] }", answer: "{ $ref: '#/components/schemas/A' }" },
  { name: 'a property whose schema is such a loop', schemas: "    A: { $ref: '#/components/schemas/A' }", answer: "{ type: object, required: [n], properties: { n: { type: integer, minimum: 1, maximum: 9 }, loop: { $ref: '#/components/schemas/A' } } }" },
];

let stub: DocumentStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe.each(cases)('$name', ({ schemas, answer }) => {
  it.each([{ mode: 'default', options: {} }, { mode: 'stateful', options: { stateful: true } }, { mode: 'compat prism', options: { compat: 'prism' as const } }])('starts and answers ($mode)', async ({ options }) => {
    stub = await startStubOn(document(schemas, answer), options);
    const looped = await request(`${stub.url}/loop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"any":"thing"}' });
    expect(looped.status).toBe(200);
    // Prism's conventions answer a schema they cannot generate with an empty body, as Prism does.
    if (looped.text !== '') expect(looped.headers.get('content-type')).toMatch(/^application\/json/);
    else expect(options).toEqual({ compat: 'prism' });
    expect(looped.text).not.toMatch(/stack|Error/);
    const plain = await request(`${stub.url}/plain`);
    expect(plain.status).toBe(200);
    expect(plain.json.n).toBeGreaterThanOrEqual(1);
    expect(plain.json.n).toBeLessThanOrEqual(9);
    const warnings = (await request(`${stub.url}/__admin/warnings`)).json.warnings as Array<{ pointer: string; reason: string }>;
    expect(warnings.map((warning) => warning.pointer)).toContain('/paths/~1loop/post/requestBody/content/application~1json/schema');
    expect(warnings.every((warning) => / is not enforced$/.test(warning.reason))).toBe(true);
  });

  it('is refused by --strict, naming where', async () => {
    await expect(startStubOn(document(schemas, answer), { strict: true })).rejects.toThrow(/spec\.yaml: \/paths\/~1loop\/post\/.*--strict refuses documents with warnings/);
  });
});
