// The steering headers read as a client writes them: a blank X-Mock-Scenario is a mistake to
// report (422), quoted Prefer values keep their commas and escaped quotes, and a long Prefer
// without preferences costs nothing and asks for nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createPlant, PROBLEM_TYPE } from './helpers/plant.js';

describe('steering headers on POST /plants', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: () => {} });
  });
  afterAll(() => stub.close());

  it.each([
    ['a blank X-Mock-Scenario is a 422, not a silent default', { 'x-mock-scenario': '  ' }, 422, PROBLEM_TYPE, { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'X-Mock-Scenario is empty; name a scenario (GET /__admin/scenarios lists them)' }],
    ['a quoted Prefer value keeps its comma', { prefer: 'example="a,b"' }, 422, PROBLEM_TYPE, expect.objectContaining({ detail: expect.stringMatching(/^unknown example "a,b" for POST \/plants/) })],
    ['a 12 KB Prefer without `=` (near the header limit) holds no preference: the default answer', { prefer: 'x'.repeat(12 * 1024) }, 200, 'application/json', { name: 'Fern' }],
    ['a 12 KB Prefer of separators holds no preference either', { prefer: ', ;'.repeat(4 * 1024) }, 200, 'application/json', { name: 'Fern' }],
    ['a preference without a value beside one with a value: the one with a value counts', { prefer: 'respond-async, code=400' }, 400, 'application/json', { error: 1001, message: 'A plant with this id already exists' }],
    ['a quoted value with an escaped quote keeps it', { prefer: 'example="a\\"b"' }, 422, PROBLEM_TYPE, expect.objectContaining({ detail: expect.stringMatching(/^unknown example "a"b" for POST \/plants/) })],
  ])('%s', async (_name, headers, status, contentType, body) => {
    const response = await createPlant(stub.url, '{"id":1,"name":"Fern"}', headers);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.json).toEqual(body);
  });
});
