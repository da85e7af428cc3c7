// Stage 4b, stateful mode only: the stored resources answer a request that asked for nothing else
// (no scenario, Prefer, fault or sticky scenario). The engine only decides: it reads the state it
// is handed and returns the answer to build (a `state` choice) together with the change to make;
// the layer above applies the change to its store, so no I/O happens here.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { ResourceAction } from '../openapi/compile-resources.js';
import { documentedResponse } from '../openapi/documented-response.js';
import { identityOf, isExactObject, parseExactJson, stringifyExact } from '../common/exact-json.js';
import type { ExactJson } from '../common/plain-http.js';
import type { Choice, Refusal, StateChange, StoredState } from './engine-types.js';
import { stateRefusals } from './refusals.js';

const NO_ITEMS: ReadonlyMap<string, string> = new Map();

/** Items kept per resource, so a client looping over POST cannot grow the stub's memory without end. */
export const MAX_ITEMS_PER_RESOURCE = 10_000;

/** The answer from the state, or null when this request cannot be answered from it (it then answers as without stateful mode). */
export function answerFromState(
  operation: CompiledOperation,
  action: ResourceAction,
  state: StoredState,
  pathParams: Record<string, string>,
  query: URLSearchParams,
  body: ExactJson | null,
): Choice | Refusal | null {
  const plan = operation.success;
  if (!plan) return null;
  const { resource } = action;
  const items = state.get(resource.name) ?? NO_ITEMS;
  const respond = (value: unknown, change: StateChange | null): Choice => ({ kind: 'state', plan, status: plan.status, value, change });

  if (action.kind === 'list') {
    let listed = [...items.values()].map(parseItem);
    const limit = action.limitParam ? query.get('limit') : null;
    if (limit !== null && /^\d+$/.test(limit)) listed = listed.slice(0, Number(limit));
    return respond(action.listField === null ? listed : { [action.listField]: listed }, null);
  }

  if (action.kind === 'create') {
    const item = objectBody(body);
    if (!item) return null;
    let id = identityOf(item[resource.idField]);
    if (id === null) {
      const assigned = newIdentity(resource.idKind, items);
      item[resource.idField] = assigned;
      id = String(assigned);
    }
    if (items.has(id)) return duplicate(operation, resource.name, resource.idField, id);
    if (items.size >= MAX_ITEMS_PER_RESOURCE) return stateRefusals.full(resource.name, MAX_ITEMS_PER_RESOURCE);
    return respond(item, { action: 'create', resource: resource.name, id, item: stringifyExact(item, true) });
  }

  const id = pathParams[resource.idParam];
  const stored = items.get(id);
  if (stored === undefined) return notFound(operation, resource.name, resource.idParam, id);
  const current = parseItem(stored);
  switch (action.kind) {
    case 'read':
      return respond(current, null);
    case 'delete':
      return respond(current, { action: 'delete', resource: resource.name, id, item: null });
    case 'replace':
    case 'merge': {
      const sent = objectBody(body);
      if (!sent) return null;
      const updated = action.kind === 'merge' && isExactObject(current) ? { ...current, ...sent } : sent;
      // The path names the item; a body that says otherwise does not move it.
      updated[resource.idField] = isExactObject(current) && current[resource.idField] !== undefined ? current[resource.idField] : id;
      return respond(updated, { action: action.kind, resource: resource.name, id, item: stringifyExact(updated, true) });
    }
  }
}

function parseItem(text: string): unknown {
  const parsed = parseExactJson(text);
  return parsed.exact ?? parsed.value;
}

function objectBody(body: ExactJson | null): Record<string, unknown> | null {
  const value = body?.exact ?? body?.value;
  return isExactObject(value) ? { ...value } : null;
}

/** A schema-valid identity not yet taken: one above the largest integer identity, or a uuid. */
function newIdentity(kind: 'integer' | 'uuid' | 'string', items: ReadonlyMap<string, string>): number | string {
  if (kind === 'uuid') return crypto.randomUUID();
  let largest = 0;
  for (const id of items.keys()) if (/^\d{1,15}$/.test(id)) largest = Math.max(largest, Number(id));
  return kind === 'integer' ? largest + 1 : String(largest + 1);
}

/** A create whose identity is taken: the documented 409, else the documented 400, in the API's own error shape. */
function duplicate(operation: CompiledOperation, resource: string, idField: string, id: string): Refusal {
  if (operation.responses.has('409')) return stateRefusals.itemExists(resource, idField, id, 409, true);
  if (documentedResponse(operation.responses, 400)) return stateRefusals.itemExists(resource, idField, id, 400, true);
  return stateRefusals.itemExists(resource, idField, id, 409, false);
}

/** An identity the state does not hold: the documented 404, else problem+json. */
function notFound(operation: CompiledOperation, resource: string, idParam: string, id: string): Refusal {
  return stateRefusals.noItem(resource, idParam, id, documentedResponse(operation.responses, 404) !== null);
}
