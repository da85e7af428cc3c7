// The engine on its own: plain requests through handleRequest, no sockets, no Express. Each row
// says what the pipeline answers and what it tells recording (operation, documented response,
// where the answer came from).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load-document.js';
import { compileSpec } from '../../src/openapi/compile-operations.js';
import { loadFixtures } from '../../src/scenarios/fixture-folder.js';
import { loadGeneratorLibraries } from '../../src/generate/generator-libraries.js';
import { handleRequest, type EngineState } from '../../src/engine/pipeline.js';
import type { PlainRequest } from '../../src/common/plain-http.js';

const ROOT = join(import.meta.dirname, '..', '..');
let state: EngineState;

beforeAll(async () => {
  await loadGeneratorLibraries();
  const compiled = compileSpec(await loadDocument(join(ROOT, 'openapi.yaml')), { tokens: [], seed: 1 });
  const { scenarios } = await loadFixtures(join(ROOT, 'fixtures'), compiled, true);
  state = { compiled, scenarios, sticky: null, defaultDelayMs: 0, resources: null };
});

const AUTH = { authorization: 'Bearer t', 'content-type': 'application/json' };

function plainRequest(overrides: Partial<PlainRequest> & { json?: string }): PlainRequest {
  const { json, ...rest } = overrides;
  return { method: 'POST', path: '/plants', rawQuery: '', headers: AUTH, body: Buffer.from(json ?? ''), ...rest };
}

interface Row {
  name: string;
  request: Partial<PlainRequest> & { json?: string };
  status: number;
  body: unknown;
  scenario: string | null;
  operation: string | null;
  documented: string | null;
  ownAnswer: boolean;
}

const ROWS: Row[] = [
  { name: 'a valid plant is echoed as the documented 200', request: { json: '{"id":1,"name":"Fern","tag":"x"}' },
    status: 200, body: { name: 'Fern', tag: 'x' }, scenario: 'echo', operation: 'POST /plants', documented: '200', ownAnswer: false },
  { name: 'a scenario serves its fixture as the documented 400', request: { json: '{"id":1,"name":"Fern"}', headers: { ...AUTH, 'x-mock-scenario': 'duplicate-id' } },
    status: 400, body: { error: 1001, message: 'A plant with this id already exists' }, scenario: 'duplicate-id', operation: 'POST /plants', documented: '400', ownAnswer: false },
  { name: 'a missing token is the 401 in the API shape, no scenario', request: { json: '{"id":1,"name":"Fern"}', headers: { 'content-type': 'application/json' } },
    status: 401, body: { error: 401, message: 'the Authorization header is missing; send "Authorization: Bearer <credentials>"' }, scenario: null, operation: 'POST /plants', documented: null, ownAnswer: false },
  { name: 'an invalid body is the documented 400 listing every violation', request: { json: '{"tag":5}' },
    status: 400, body: { error: 400, message: '/name: is required; /tag: must be a string; /id: is required' }, scenario: null, operation: 'POST /plants', documented: '400', ownAnswer: false },
  { name: 'a body over the limit is 413 in the operation’s error shape', request: { json: '', bodyLimitExceeded: 10 },
    status: 413, body: { error: 413, message: 'the request body is larger than 10 bytes' }, scenario: null, operation: 'POST /plants', documented: null, ownAnswer: false },
  { name: 'an unknown path is the stub’s own 404', request: { path: '/trees' },
    status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no operation of the spec matches POST /trees' }, scenario: null, operation: null, documented: null, ownAnswer: true },
  { name: 'an unknown scenario is the stub’s own 422', request: { json: '{"id":1,"name":"Fern"}', headers: { ...AUTH, 'x-mock-scenario': 'nope' } },
    status: 422, body: expect.objectContaining({ status: 422, knownScenarios: ['duplicate-id', 'unknown-tag', 'name-too-long', 'slow-create'] }), scenario: null, operation: 'POST /plants', documented: null, ownAnswer: true },
];

describe('handleRequest, without sockets', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const response = handleRequest(state, plainRequest(row.request));
    expect(response.status).toBe(row.status);
    expect(JSON.parse(response.body)).toEqual(row.body);
    expect(response.scenario).toBe(row.scenario);
    expect(response.headers['x-mock-scenario']).toBe(row.scenario ?? undefined);
    expect(response.operation?.key ?? null).toBe(row.operation);
    expect(response.documented?.key ?? null).toBe(row.documented);
    expect(response.ownAnswer).toBe(row.ownAnswer);
    expect(response.selfCheck).toEqual([]);
  });
});
