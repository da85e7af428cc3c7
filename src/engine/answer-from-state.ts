// Stage 4b, stateful mode only: the stored resources answer a request that asked for nothing else
// (no scenario, Prefer, fault or sticky scenario). The engine only decides: it reads the state it
// is handed and returns the answer to build (a `state` choice) together with the change to make;
// the layer above applies the change to its store, so no I/O happens here.
import { respelled } from './spellings.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { Resource, ResourceAction } from '../openapi/compile-resources.js';
import { defaultExampleName } from './example-or-generated.js';
import { redrawId, uuidFrom } from '../generate/id-values.js';
import { fnv1a } from '../generate/seeded-random.js';
import { documentedResponse } from '../openapi/documented-response.js';
import { exactIntegerValue, identityOf, isExactObject, parseExactJson, stringifyExact } from '../common/exact-json.js';
import type { ExactJson } from '../common/plain-http.js';
import type { BuiltResponse, Choice, Refusal, StateChange, StoredState, StoreFigures } from './engine-types.js';
import { stateRefusals } from './refusals.js';
import { pageAsked } from './links-on-stub.js';
import { setOwn } from '../common/json-value.js';
import type { CursorPaging } from '../openapi/compile-paging.js';
import { cursorAt, cursorOffset, pageSizeAsked } from './cursor-pages.js';

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
  const identity = { field: resource.idField, envelope: action.envelope };
  const placing = placingFields(resource);
  const respond = (value: unknown, change: StateChange | null, isItem = true): Extract<Choice, { kind: 'state' }> => ({ kind: 'state', plan, status: plan.status, value, change, identity: isItem ? identity : null, placing });

  // A nested collection's items are its parent's alone (`/Accounts/{AccountSid}/Messages.json`).
  const inScope = (item: unknown) => resource.scope.every(({ param, field }) => isExactObject(item) && String(item[field]) === pathParams[param]);
  if (action.kind === 'list') {
    // Only the items answered are parsed: one page of a full store costs one page (a nested
    // collection's are all parsed, to know which are its parent's).
    const scoped = resource.scope.length === 0 ? null : [...items.values()].map(parseItem).filter(inScope);
    const count = scoped?.length ?? items.size;
    const limit = action.limitParam ? query.get('limit') : null;
    const paging = action.paging;
    // A paged list (`?page=2&per_page=30`) answers that page, and its links end at the last one.
    const size = paging ? (query.get(paging.size) !== null ? pageAsked(query, paging.size) : paging.defaultSize) : 0;
    const skip = paging ? (pageAsked(query, paging.page) - 1) * size : 0;
    const take = paging ? skip + size : limit !== null && /^\d+$/.test(limit) ? Number(limit) : Infinity;
    const cursor = paging ? null : operation.cursorPaging;
    // The answer's `total`, `num_pages`, `X-Total-Count`… are the store's.
    const figures = (perPage: number | null, page: number | null): StoreFigures => ({ declared: action.figures ?? [], total: count, page, size: perPage, pages: perPage ? Math.max(1, Math.ceil(count / perPage)) : 1 });
    if (cursor?.param) {
      const perPage = pageSizeAsked(cursor, query);
      return cursorPage(cursor, cursor.param, resource, items, scoped, query, (listed, next) => ({ ...respond(action.listField === null ? listed : { [action.listField]: listed }, null, false), next, figures: figures(perPage, null) }));
    }
    const listed = (scoped ?? first(items.values(), take).map(parseItem)).slice(skip, take);
    const answer = respond(action.listField === null ? listed : { [action.listField]: listed }, null, false);
    if (!paging) return { ...answer, figures: figures(Number.isFinite(take) ? take : null, null) };
    const made = figures(size, pageAsked(query, paging.page));
    return { ...answer, pages: made.pages, figures: made };
  }
  // An item is stored bare and answered in the document's envelope (`{"data": {...}}`).
  const answered = (item: unknown) => (action.envelope === null ? item : { [action.envelope]: item });

  if (action.kind === 'create') {
    const item = objectBody(body, resource.bodyEnvelope);
    if (!item) return null;
    let id = identityOf(item[resource.idField]);
    if (id === null) {
      const assigned = newIdentity(resource, items);
      item[resource.idField] = assigned;
      id = String(assigned);
    }
    // An id no path can name (empty, blanks) would be listed and never read, updated or deleted.
    if (id.trim() === '') return stateRefusals.unnameable(resource.idField, id, resource.itemPath, documentedResponse(operation.responses, 400) !== null);
    if (items.has(id)) return duplicate(operation, resource.name, resource.idField, id);
    if (items.size >= MAX_ITEMS_PER_RESOURCE) return stateRefusals.full(resource.name, MAX_ITEMS_PER_RESOURCE);
    addServerFields(operation, resource, action.envelope, item, id);
    placeInScope(resource, item, pathParams);
    return respond(answered(item), { action: 'create', resource: resource.name, id, item: stringifyExact(item, true) });
  }

  const id = pathParams[resource.idParam];
  const stored = items.get(id);
  // A resource the document creates by PUT (no POST on the collection): a PUT to a new id makes it.
  if (stored === undefined && action.kind === 'replace' && resource.operations.create === undefined) return putCreate(resource, items, id, pathParams, body, respond, answered);
  if (stored === undefined) return notFound(operation, resource.name, resource.idParam, id);
  const current = parseItem(stored);
  if (!inScope(current)) return notFound(operation, resource.name, resource.idParam, id);
  switch (action.kind) {
    case 'read':
      return respond(answered(current), null);
    case 'delete':
      return respond(answered(current), { action: 'delete', resource: resource.name, id, item: null });
    case 'replace':
    case 'merge': {
      const sent = objectBody(body, resource.bodyEnvelope);
      if (!sent) return null;
      // What only the server sets survives a replace: the client never sends it.
      const kept = isExactObject(current) ? Object.fromEntries(resource.serverFields.filter((key) => key in current).map((key) => [key, current[key]])) : {};
      const updated = action.kind === 'merge' && isExactObject(current) ? { ...current, ...respelled(sent, current) } : { ...kept, ...sent };
      // The path names the item; a body that says otherwise does not move it.
      updated[resource.idField] = isExactObject(current) && current[resource.idField] !== undefined ? current[resource.idField] : id;
      return respond(answered(updated), { action: action.kind, resource: resource.name, id, item: stringifyExact(updated, true) });
    }
  }
}

/**
 * A list paged by cursor (`?PageToken=…&PageSize=2`, `?starting_after=cus_2`): the page the cursor
 * starts, its size asked or documented (all items when neither), and the next page's cursor, null
 * on the last. Only the items answered are parsed where the collection is not nested.
 */
function cursorPage(
  cursor: CursorPaging, param: string, resource: Resource, items: ReadonlyMap<string, string>, scoped: unknown[] | null, query: URLSearchParams,
  answer: (listed: unknown[], next: string | null) => Choice,
): Choice {
  const ids = scoped ? scoped.map((item) => (isExactObject(item) ? identityOf(item[resource.idField]) : null)) : [...items.keys()];
  const asked = query.get(param);
  // Stripe's `starting_after` names the last item seen; an id the store no longer holds ends the list.
  const at = cursor.kind === 'after' && asked !== null ? ids.indexOf(asked) : -1;
  const skip = cursor.kind !== 'after' ? cursorOffset(cursor, asked) : asked === null ? 0 : at === -1 ? ids.length : at + 1;
  const size = pageSizeAsked(cursor, query);
  const end = size === null ? ids.length : Math.min(ids.length, skip + size);
  const listed = scoped ? scoped.slice(skip, end) : first(items.values(), end).slice(skip).map(parseItem);
  const next = end >= ids.length || end <= skip ? null : cursor.kind === 'after' ? ids[end - 1] : cursorAt(cursor, end);
  return answer(listed, next);
}

const PLACING = new WeakMap<Resource, ReadonlySet<string>>();

/** The properties that say which item it is and under which parent: made once per compiled resource, not per request. */
function placingFields(resource: Resource): ReadonlySet<string> {
  let fields = PLACING.get(resource);
  if (!fields) PLACING.set(resource, (fields = new Set([resource.idField, ...resource.scope.map(({ field }) => field)])));
  return fields;
}

/** A nested collection's item carries its parent's path values in the properties they name. */
function placeInScope(resource: Resource, item: Record<string, unknown>, pathParams: Record<string, string>): void {
  for (const { param, field, integer } of resource.scope) item[field] = pathValue(pathParams[param], integer);
}

/** A path's text as the property holds it: a number where the property is an integer and the text one, every digit kept (int64 ids). */
function pathValue(text: string, integer: boolean): unknown {
  return integer && /^-?(0|[1-9]\d{0,399})$/.test(text) ? exactIntegerValue(text) : text;
}

/** The item a PUT to a new id creates, its id the path's (a number where the resource's ids are integers). */
function putCreate(
  resource: Resource, items: ReadonlyMap<string, string>, id: string, pathParams: Record<string, string>, body: ExactJson | null,
  respond: (value: unknown, change: StateChange | null) => Choice, answered: (item: unknown) => unknown,
): Choice | Refusal | null {
  const item = objectBody(body, resource.bodyEnvelope);
  if (!item) return null;
  if (items.size >= MAX_ITEMS_PER_RESOURCE) return stateRefusals.full(resource.name, MAX_ITEMS_PER_RESOURCE);
  item[resource.idField] = pathValue(id, resource.idKind === 'integer');
  placeInScope(resource, item, pathParams);
  return respond(answered(item), { action: 'create', resource: resource.name, id, item: stringifyExact(item, true) });
}

/**
 * The change to store once the answer is built: a created or updated item keeps what its answer
 * showed (fields the answer filled from the example or generated data, or showed in its own form),
 * so later reads answer what this answer did (the answer went out, whatever the self-check said).
 */
export function storedAsAnswered(choice: Extract<Choice, { kind: 'state' }>, answer: BuiltResponse): StateChange | null {
  const { change, identity } = choice;
  if (change === null || change.item === null || identity === null) return change;
  const whole = answer.body;
  const shown = identity.envelope !== null && isExactObject(whole) ? whole[identity.envelope] : whole;
  const stored = parseItem(change.item);
  if (!isExactObject(shown) || !isExactObject(stored)) return change;
  return { ...change, item: stringifyExact(overlaid(stored, shown), true) };
}

/**
 * `stored` with what `shown` answered laid over it, object by object and item by item, so a value
 * the answer's schema leaves out (`default_gateway` of a `vpcs` item) is still kept as sent.
 */
function overlaid(stored: unknown, shown: unknown): unknown {
  if (isExactObject(stored) && isExactObject(shown)) {
    // Stored in the answer's spelling: a field sent as `FriendlyName` and answered as `friendly_name` is kept once.
    const merged: Record<string, unknown> = respelled(stored, shown);
    for (const [key, value] of Object.entries(shown)) setOwn(merged, key, Object.hasOwn(merged, key) ? overlaid(merged[key], value) : value);
    return merged;
  }
  if (Array.isArray(stored) && Array.isArray(shown) && stored.length === shown.length) return shown.map((value, i) => overlaid(stored[i], value));
  return shown;
}

/**
 * The fields only the server sets (`created_at`, `size`), made once at create time from the
 * create answer's example, else data generated for this id, and stored with the item: what the
 * create answered is what later reads answer.
 */
function addServerFields(operation: CompiledOperation, resource: Resource, envelope: string | null, item: Record<string, unknown>, id: string): void {
  const plan = operation.success;
  if (resource.serverFields.length === 0 || !plan) return;
  const name = defaultExampleName(plan);
  const whole = name !== null ? plan.examples.get(name) : plan.schemaPointer ? operation.generate(plan.schemaPointer, `${resource.name} ${id}`, false) : null;
  const made = envelope !== null && isExactObject(whole) ? whole[envelope] : whole;
  if (!isExactObject(made)) return;
  for (const key of resource.serverFields) if (made[key] !== undefined && item[key] === undefined) item[key] = made[key];
}

function parseItem(text: string): unknown {
  const parsed = parseExactJson(text);
  return parsed.exact ?? parsed.value;
}

function objectBody(body: ExactJson | null, envelope: string | null): Record<string, unknown> | null {
  const value = body?.exact ?? body?.value;
  const item = envelope !== null && isExactObject(value) ? value[envelope] : value;
  return isExactObject(item) ? { ...item } : null;
}

/** The first `count` values, without walking the rest. */
function first(values: Iterable<string>, count: number): string[] {
  const taken: string[] = [];
  for (const value of values) {
    if (taken.length >= count) break;
    taken.push(value);
  }
  return taken;
}

/** A schema-valid identity not yet taken: one above the largest integer identity, a uuid, or one drawn like the schema's example. */
export function newIdentity(resource: Resource, items: ReadonlyMap<string, string>): number | string {
  // Drawn from the resource and the count of its items, never from the system's randomness: the
  // same requests give the same ids.
  const draw = (attempt: number) => `${resource.name}\u0000${items.size}\u0000${attempt}`;
  const drawn = (attempt: number) => {
    if (resource.idKind === 'uuid') return uuidFrom(draw(attempt));
    // The template redrawn within each character's class, else (where that breaks the pattern) one drawn afresh.
    const redrawn = resource.idKind === 'pattern' ? redrawId(resource.idTemplate!, fnv1a(draw(attempt))) : null;
    if (redrawn !== null && resource.idFits?.(redrawn) !== false) return redrawn;
    return resource.drawId?.(draw(attempt)) ?? null;
  };
  if (resource.idKind !== 'integer' && resource.idKind !== 'string') {
    for (let attempt = 0; attempt <= 100; attempt++) {
      const id = drawn(attempt);
      if (id !== null && !items.has(id)) return id;
    }
  }
  let largest = 0;
  for (const id of items.keys()) if (/^\d{1,15}$/.test(id)) largest = Math.max(largest, Number(id));
  // A counted text id is as long as its schema asks (`minLength: 6`: `000001`).
  return resource.idKind === 'integer' ? largest + 1 : String(largest + 1).padStart(resource.minLength, '0');
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
