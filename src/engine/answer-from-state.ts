// Stage 5 (ask the state), stateful mode only: the stored resources answer a request that asked for nothing else
// (no scenario, Prefer, fault or sticky scenario). The engine only decides: it reads what the store
// said to the question state-question.ts asked (one item, one page, a count, a new id) and returns
// the answer to build (a `state` choice) together with the change to make; the layer above asks
// the store and applies the change, so no I/O happens here.
import { respelled } from './spellings.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { Resource, ResourceAction } from '../openapi/compile-resources.js';
import { defaultExampleName } from './example-or-generated.js';
import { documentedResponse } from '../openapi/documented-response.js';
import { exactIntegerValue, identityOf, isExactObject, stringifyExact } from '../common/exact-json.js';
import type { ExactJson } from '../common/plain-http.js';
import type { BuiltResponse, Choice, Refusal, StateChange, StateFacts, StateQuestion, StoredPage, StoreFigures } from './engine-types.js';
import { stateRefusals } from './refusals.js';
import { setOwn } from '../common/json-value.js';
import type { CursorPaging } from '../openapi/compile-paging.js';
import { cursorAt } from './cursor-pages.js';
import { createdBody, listWindow, parsedItem, scopeOfItem, scopeOfPath } from './state-question.js';
import { newIdentity, type AskAgain } from './new-identity.js';

/** Items kept per resource, so a client looping over POST cannot grow the stub's memory without end (--max-state caps their bytes). */
export const MAX_ITEMS_PER_RESOURCE = 100_000;

/**
 * The answer from what the store said (`facts`, the answer to `asked`, made by stateQuestion), or
 * null when this request cannot be answered from the state (it then answers as without stateful
 * mode), or AskAgain when a drawn id has yet to be checked.
 */
export function answerFromState(
  operation: CompiledOperation,
  action: ResourceAction,
  asked: StateQuestion,
  facts: StateFacts,
  pathParams: Record<string, string>,
  query: URLSearchParams,
  body: ExactJson | null,
): Choice | Refusal | AskAgain | null {
  const plan = operation.success;
  if (!plan) return null;
  const { resource } = action;
  const identity = { field: resource.idField, envelope: action.envelope };
  const placing = placingFields(resource);
  const respond: Respond = (value, change, isItem = true) => ({ kind: 'state', plan, status: plan.status, value, change, identity: isItem ? identity : null, placing });
  if (action.kind === 'list') return listAnswer(operation, action, facts, query, respond);
  // An item is stored bare and answered in the document's envelope (`{"data": {...}}`).
  const answered = (item: unknown) => (action.envelope === null ? item : { [action.envelope]: item });
  if (action.kind === 'create') return createAnswer(operation, action, asked, facts, pathParams, body, respond, answered);
  return itemAnswer(operation, action, facts, pathParams, body, respond, answered);
}

type StateChoice = Extract<Choice, { kind: 'state' }>;

/** A `state` choice of this value and change; `isItem` false for a list (it has no one id to keep). */
type Respond = (value: unknown, change: StateChange | null, isItem?: boolean) => StateChoice;

/** A page of the list (or the list whole), with the store's figures for its `total`, `num_pages`, `X-Total-Count`… */
function listAnswer(operation: CompiledOperation, action: ResourceAction, facts: StateFacts, query: URLSearchParams, respond: Respond): StateChoice {
  const window = listWindow(operation, action, query);
  const page = facts.page ?? { total: 0, start: 0, ids: [], items: [] };
  const count = page.total;
  // Only the items answered were read, and only they are parsed.
  const listed = page.items.map(parsedItem);
  const figures = (perPage: number | null, number: number | null): StoreFigures => ({ declared: action.figures ?? [], total: count, page: number, size: perPage, pages: perPage ? Math.max(1, Math.ceil(count / perPage)) : 1 });
  const answer = respond(action.listField === null ? listed : { [action.listField]: listed }, null, false);
  if (window.cursor) return { ...answer, next: nextCursor(window.cursor, window.limit, page), figures: figures(window.perPage, null) };
  if (window.page === null) return { ...answer, figures: figures(window.perPage, null) };
  const made = figures(window.perPage, window.page);
  return { ...answer, pages: made.pages, figures: made };
}

/** The item the request sends, with its id (the client's, or a new one drawn) and what only the server sets. */
function createAnswer(
  operation: CompiledOperation, action: ResourceAction, asked: StateQuestion, facts: StateFacts, pathParams: Record<string, string>,
  body: ExactJson | null, respond: Respond, answered: (item: unknown) => unknown,
): Choice | Refusal | AskAgain | null {
  const { resource } = action;
  const count = facts.count ?? 0;
  const item = sentItem(body, resource);
  if (!item) return null;
  let id = identityOf(item[resource.idField]);
  if (id === null) {
    const assigned = newIdentity(resource, count, asked.taken ?? [], facts.taken ?? [], facts.newNumber);
    if (typeof assigned === 'object' && assigned !== null) return assigned;
    item[resource.idField] = assigned;
    id = String(assigned);
  } else {
    // An id no path can name (empty, blanks) would be listed and never read, updated or deleted.
    if (id.trim() === '') return stateRefusals.unnameable(resource.idField, id, resource.itemPath, documentedResponse(operation.responses, 400) !== null);
    if (facts.taken?.includes(id)) return duplicate(operation, resource.name, resource.idField, id);
  }
  if (count >= MAX_ITEMS_PER_RESOURCE) return stateRefusals.full(resource.name, MAX_ITEMS_PER_RESOURCE);
  addServerFields(operation, resource, action.envelope, item, id);
  placeInScope(resource, item, pathParams);
  return respond(answered(item), { action: 'create', resource: resource.name, id, item: stringifyExact(item, true), ...placed(resource, item) });
}

/** The item the path names: read, deleted, replaced or merged (a PUT to a new id creates it where the document creates by PUT). */
function itemAnswer(
  operation: CompiledOperation, action: ResourceAction, facts: StateFacts, pathParams: Record<string, string>,
  body: ExactJson | null, respond: Respond, answered: (item: unknown) => unknown,
): Choice | Refusal | null {
  const { resource } = action;
  const id = pathParams[resource.idParam];
  const stored = facts.item ?? undefined;
  if (stored === undefined && action.kind === 'replace' && resource.operations.create === undefined) return putCreate(resource, facts.count ?? 0, id, pathParams, body, respond, answered);
  if (stored === undefined) return notFound(operation, resource.name, resource.idParam, id);
  const current = parsedItem(stored);
  // A nested collection's items are its parent's alone (`/Accounts/{AccountSid}/Messages.json`).
  if (scopeOfItem(resource, current) !== scopeOfPath(resource, pathParams)) return notFound(operation, resource.name, resource.idParam, id);
  switch (action.kind) {
    case 'read':
      return respond(answered(current), null);
    case 'delete':
      return respond(answered(current), { action: 'delete', resource: resource.name, id, item: null });
    case 'replace':
    case 'merge': {
      const sent = sentItem(body, resource);
      if (!sent) return null;
      // What only the server sets survives a replace: the client never sends it.
      const kept = isExactObject(current) ? Object.fromEntries(resource.serverFields.filter((key) => key in current).map((key) => [key, current[key]])) : {};
      const updated = action.kind === 'merge' && isExactObject(current) ? { ...current, ...respelled(sent, current) } : { ...kept, ...sent };
      // The path names the item; a body that says otherwise does not move it.
      updated[resource.idField] = isExactObject(current) && current[resource.idField] !== undefined ? current[resource.idField] : id;
      return respond(answered(updated), { action: action.kind, resource: resource.name, id, item: stringifyExact(updated, true), ...placed(resource, updated) });
    }
  }
  return null;
}

/**
 * A cursor-paged list's next cursor (`?PageToken=…&PageSize=2`, `?starting_after=cus_2`): the one
 * after the page's last item, null on the last page.
 */
function nextCursor(cursor: CursorPaging, limit: number | null, page: StoredPage): string | null {
  const end = limit === null ? page.total : Math.min(page.total, page.start + limit);
  if (end >= page.total || end <= page.start) return null;
  return cursor.kind === 'after' ? page.ids[page.ids.length - 1] ?? null : cursorAt(cursor, end);
}

/** A nested collection's item's parent, for the store to list it under (a top-level item's needs no word). */
function placed(resource: Resource, item: unknown): { scope?: string } {
  return resource.scope.length === 0 ? {} : { scope: scopeOfItem(resource, item) };
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
  resource: Resource, count: number, id: string, pathParams: Record<string, string>, body: ExactJson | null,
  respond: (value: unknown, change: StateChange | null) => Choice, answered: (item: unknown) => unknown,
): Choice | Refusal | null {
  const item = sentItem(body, resource);
  if (!item) return null;
  if (count >= MAX_ITEMS_PER_RESOURCE) return stateRefusals.full(resource.name, MAX_ITEMS_PER_RESOURCE);
  item[resource.idField] = pathValue(id, resource.idKind === 'integer');
  placeInScope(resource, item, pathParams);
  return respond(answered(item), { action: 'create', resource: resource.name, id, item: stringifyExact(item, true), ...placed(resource, item) });
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
  const stored = parsedItem(change.item);
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

/** The item a client sent, without what an `x-stub-server-set` hint says only the server sets. */
function sentItem(body: ExactJson | null, { bodyEnvelope, serverSet }: Resource): Record<string, unknown> | null {
  const item = createdBody(body, bodyEnvelope);
  if (item !== null) for (const key of serverSet) delete item[key];
  return item;
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
