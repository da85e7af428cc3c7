// A document with API keys (header or query), array parameters in each style, a non-ASCII example
// name and a body of a list: served by a stub started before the calling file's tests
// (call startKeysStub()).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startStub, type RunningStub } from '../../src/index.js';

export const SPEC = `
openapi: 3.1.0
info: { title: Keys, version: 1.0.0 }
security: [{ headerKey: [] }, { queryKey: [] }]
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, required: [n], properties: { n: { type: integer } } }
              examples:
                café: { value: { n: 1 } }
  /search/{ids}:
    get:
      security: []
      parameters:
        - { name: ids, in: path, required: true, schema: { type: array, items: { type: integer } } }
        - { name: only, in: query, explode: false, schema: { type: array, items: { type: integer, maximum: 9 } } }
        - { name: tag, in: query, schema: { type: array, items: { type: string, enum: [a, b] } } }
        - { name: sep, in: query, style: pipeDelimited, schema: { type: array, items: { type: integer } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { type: object }, example: { found: true } } } } }
  /lists:
    post:
      security: []
      requestBody: { required: true, content: { application/json: { schema: { type: array, items: { type: integer } } } } }
      responses: { '200': { description: ok } }
components:
  securitySchemes:
    headerKey: { type: apiKey, in: header, name: X-Api-Key }
    queryKey: { type: apiKey, in: query, name: key }
`;

export const keys: { dir: string; stub: RunningStub } = {} as never;

export function startKeysStub(): void {
  beforeAll(async () => {
    keys.dir = await mkdtemp(join(tmpdir(), 'stub-keys-'));
    await writeFile(join(keys.dir, 'spec.yaml'), SPEC);
    await mkdir(join(keys.dir, 'fixtures'));
    keys.stub = await startStub({ spec: join(keys.dir, 'spec.yaml'), fixtures: join(keys.dir, 'fixtures'), port: 0, watch: false });
  });
  afterAll(async () => {
    await keys.stub.close();
    await rm(keys.dir, { recursive: true, force: true });
  });
}
