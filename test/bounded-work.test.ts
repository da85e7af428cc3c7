// No request or document makes the server do unbounded work: checks whose cost could grow faster
// than their input are linear (uniqueItems), and so on. These tests state the behaviour over real
// HTTP; how long the work takes is measured by `npm run soak`, never asserted here.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { post } from './helpers/http.js';

const UNIQUE_DOCUMENT = `
openapi: 3.1.0
info: { title: Unique items, version: '1' }
paths:
  /batches:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: array, uniqueItems: true, items: { type: [object, array, number, string, 'null'] } }
      responses:
        '204': { description: stored }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-bounded-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function stubFor(name: string, document: string): Promise<RunningStub> {
  const spec = join(dir, name);
  await writeFile(spec, document);
  return startStub({ spec, fixtures: join(dir, 'no-fixtures'), port: 0, watch: false, log: () => {} });
}

/**
 * About 900 KiB of distinct small objects (36,000). Ajv's pairwise check took 13 s for 224 KiB
 * and would take minutes for this; one pass takes a fraction of a second.
 */
function manyObjects(duplicateAtEnd: boolean): string {
  const items = Array.from({ length: 36_000 }, (_, i) => ({ id: i, name: `n${i}` }));
  if (duplicateAtEnd) items.push({ name: 'n0', id: 0 });
  return JSON.stringify(items);
}

describe('uniqueItems is checked by canonical JSON, in one pass', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await stubFor('unique.yaml', UNIQUE_DOCUMENT);
  });
  afterAll(() => stub.close());

  const cases = [
    { name: 'distinct objects pass', body: '[{"a":1},{"a":2},{"b":1}]', status: 204, message: undefined },
    { name: 'objects equal up to key order are duplicates', body: '[{"a":1,"b":[2]},{"b":[2],"a":1}]', status: 400, message: '/: must NOT have duplicate items (items ## 1 and 0 are identical)' },
    { name: 'deeply equal nested values are duplicates', body: '[7,{"a":[1,{"x":null}]},{"a":[1,{"x":null}]}]', status: 400, message: '/: must NOT have duplicate items (items ## 2 and 1 are identical)' },
    { name: '1 and 1.0 are the same number', body: '[1,1.0]', status: 400, message: '/: must NOT have duplicate items (items ## 1 and 0 are identical)' },
    { name: 'arrays differing only in order are distinct', body: '[[1,2],[2,1]]', status: 204, message: undefined },
    { name: 'a string and a number of the same text are distinct', body: '["1",1,null,"null"]', status: 204, message: undefined },
    { name: 'a 900 KiB body of distinct objects passes', body: manyObjects(false), status: 204, message: undefined },
    { name: 'a 900 KiB body with one duplicate at its end is refused, naming both items', body: manyObjects(true), status: 400, message: '/: must NOT have duplicate items (items ## 36000 and 0 are identical)' },
  ];

  it.each(cases)('$name', async ({ body, status, message }) => {
    // Not a timing assertion: the pairwise check would not answer the large bodies at all within
    // the test's time.
    const answer = await post(`${stub.url}/batches`, body, { 'content-type': 'application/json' });
    expect(answer.status).toBe(status);
    if (message === undefined) {
      expect(answer.text).toBe('');
    } else {
      expect(answer.headers.get('content-type')).toMatch(/json/);
      expect(answer.json.detail ?? answer.json.message).toBe(message);
    }
  });
});
