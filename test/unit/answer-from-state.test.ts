// Stateful mode in the engine alone: plain requests and a store that answers its questions in, the
// answer and the change to apply out; no sockets. The engine never changes the store it asks.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/openapi/load-document.js';
import { compileSpec } from '../../src/openapi/compile-operations.js';
import { compileResources } from '../../src/openapi/compile-resources.js';
import { loadGeneratorLibraries } from '../../src/generate/generator-libraries.js';
import { handleRequest, type EngineState } from '../../src/engine/pipeline.js';
import { LocalStateStore } from '../../src/stub/local-state-store.js';
import { placedState } from '../../src/engine/state-question.js';
import type { PlainRequest } from '../../src/common/plain-http.js';

const SPEC = join(import.meta.dirname, '..', 'specs', 'plant-store-full.yaml');
const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };
let state: EngineState;

beforeAll(async () => {
  await loadGeneratorLibraries();
  const spec = await loadDocument(SPEC);
  const compiled = compileSpec(spec, { tokens: [], seed: 1 });
  state = { compiled, scenarios: new Map(), sticky: null, defaultDelayMs: 0, resources: compileResources(spec, compiled) };
});

function stored(): LocalStateStore {
  const store = new LocalStateStore();
  store.replace(placedState(state.resources!, new Map([['/plants', new Map([['1', '{"id":1,"name":"Fern"}'], ['2', '{"id":2,"name":"Ivy"}']])]])));
  return store;
}

function plain(method: string, path: string, body = '', rawQuery = ''): PlainRequest {
  return { method, path, rawQuery, headers: HEADERS, body: Buffer.from(body) };
}

describe('the resources inferred from the full Plant Store', () => {
  it('pair /plants with /plants/{id}, its id field being the parameter’s name', () => {
    const { actions, byName } = state.resources!;
    expect([...actions].map(([key, action]) => [key, action.kind])).toEqual([
      ['POST /plants', 'create'], ['GET /plants', 'list'], ['GET /plants/{id}', 'read'], ['DELETE /plants/{id}', 'delete'],
    ]);
    expect(byName.get('/plants')).toMatchObject({ name: '/plants', idParam: 'id', idField: 'id', idKind: 'integer' });
    expect(actions.get('GET /plants')).toMatchObject({ listField: null, limitParam: true });
  });
});

describe('handleRequest with a stored state', () => {
  it.each([
    ['a create answers the body and asks to store it', plain('POST', '/plants', '{"id":3,"name":"Sage"}'),
      200, { id: 3, name: 'Sage' }, 'state', { action: 'create', resource: '/plants', id: '3', item: '{"id":3,"name":"Sage"}' }],
    ['a taken id is the documented 400 and changes nothing', plain('POST', '/plants', '{"id":1,"name":"Fern"}'),
      400, { error: 400, message: '/plants: an item with id 1 already exists' }, null, null],
    ['a list answers the items in order, limit honoured', plain('GET', '/plants', '', 'limit=1'), 200, [{ id: 1, name: 'Fern' }], 'state', null],
    ['a read answers the item', plain('GET', '/plants/2'), 200, { id: 2, name: 'Ivy' }, 'state', null],
    ['an unknown id is the documented 404', plain('GET', '/plants/9'), 404, { error: 404, message: '/plants: no item with id 9' }, null, null],
    ['a delete asks to remove the item', plain('DELETE', '/plants/1'), 204, undefined, 'state', { action: 'delete', resource: '/plants', id: '1', item: null }],
    ['a Prefer header wins and changes nothing', { ...plain('POST', '/plants', '{"id":3,"name":"Sage"}'), headers: { ...HEADERS, prefer: 'code=400' } },
      400, expect.objectContaining({ error: expect.any(Number) }), 'generated', null],
  ])('%s', (_name, request, status, body, scenario, change) => {
    const before = stored();
    const response = handleRequest(state, request, before);
    expect(response.status).toBe(status);
    expect(response.body === '' ? undefined : JSON.parse(response.body)).toEqual(body);
    expect(response.scenario).toBe(scenario);
    expect(response.stateChange ?? null).toEqual(change);
    expect(response.selfCheck).toEqual([]);
    expect(before.dump()).toEqual(stored().dump());
  });

  it('without a stored state (stateful mode off) answers as before', () => {
    const response = handleRequest(state, plain('GET', '/plants/1'));
    expect([response.status, response.scenario, response.stateChange ?? null]).toEqual([200, 'generated', null]);
  });
});
