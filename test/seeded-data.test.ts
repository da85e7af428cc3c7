// Generated data is a function of the seed and the request: the same request gets the same bytes
// (across restarts too), another seed other data, and every answer fits its schema.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { ajv, closeAfterAll, start, tempDir } from './helpers/plant-store-suite.js';

closeAfterAll();

const THINGS_SPEC = `openapi: 3.1.0
info:
  title: Things
  version: 1.0.0
paths:
  /things/{id}:
    get:
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: integer
            minimum: 1
        - name: view
          in: query
          schema:
            type: string
      responses:
        '200':
          description: one thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
components:
  schemas:
    Thing:
      type: object
      required: [uuid, createdAt, email, count, status]
      properties:
        uuid:
          type: string
          format: uuid
        createdAt:
          type: string
          format: date-time
        email:
          type: string
          format: email
        count:
          type: integer
          minimum: 10
          maximum: 20
        status:
          type: string
          enum: [available, pending, sold]
`;

describe('seeded generated data', () => {
  const paths = [...Array.from({ length: 8 }, (_, i) => `/things/${i + 1}`), '/things/1?view=full', '/things/2?view=short'];
  let dir: string;
  let thing: ReturnType<typeof ajv.compile>;

  beforeAll(async () => {
    dir = await tempDir();
    await writeFile(join(dir, 'things.yaml'), THINGS_SPEC);
    thing = ajv.compile((parseYaml(THINGS_SPEC) as { components: { schemas: { Thing: object } } }).components.schemas.Thing);
  });

  async function fetchAll(stub: RunningStub, order: string[]): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    for (const path of order) {
      const response = await request(`${stub.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-mock-scenario')).toBe('generated');
      bodies.set(path, response.text);
    }
    return bodies;
  }

  it('the same seed gives the same bytes per request, whatever the order; another seed gives others', async () => {
    const fixtures = join(dir, 'no-fixtures');
    const [a, b, c] = await Promise.all([
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 42 }),
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 42 }),
      start({ spec: join(dir, 'things.yaml'), fixtures, seed: 43 }),
    ]);
    const forward = await fetchAll(a, paths);
    // Instance b sees the requests reversed, interleaved with repeats.
    const shuffled = [...paths].reverse().flatMap((path, i) => (i % 3 === 0 ? [path, paths[i]] : [path]));
    const backward = await fetchAll(b, shuffled);
    const again = await fetchAll(a, [...paths].reverse());
    const otherSeed = await fetchAll(c, paths);

    for (const path of paths) {
      expect(backward.get(path), path).toBe(forward.get(path));
      expect(again.get(path), path).toBe(forward.get(path));
      expect(otherSeed.get(path), path).not.toBe(forward.get(path));
      const value = JSON.parse(forward.get(path)!);
      expect(thing(value), `${path}: ${JSON.stringify(thing.errors)}`).toBe(true);
    }
    // Different requests get different data, not one canned object.
    expect(new Set(forward.values()).size).toBe(paths.length);
  });

  it('a path parameter that breaks its schema is refused before generation', async () => {
    const stub = await start({ spec: join(dir, 'things.yaml'), fixtures: join(dir, 'no-fixtures'), seed: 42 });
    const response = await request(`${stub.url}/things/0`);
    expect(response.status).toBe(400);
  });
});
