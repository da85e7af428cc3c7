// Stateful mode, stage 5's first half (ask the state): what a request needs from the store, decided from its
// route once it is authenticated, valid and asks for nothing else. A read asks for one item, a
// list for one page and its count, a create for a count and a new id: the store answers only that
// (store, cluster primary or Redis alike), so what a request costs does not grow with what the
// store holds. answer-from-state.ts answers from the facts the store gives back.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { Resource, ResourceAction, Resources } from '../openapi/compile-resources.js';
import type { CursorPaging } from '../openapi/compile-paging.js';
import { identityOf, isExactObject, parseExactJson } from '../common/exact-json.js';
import type { ExactJson } from '../common/plain-http.js';
import type { PageStart, PlacedState, StateQuestion, StoredItem, StoredState } from './engine-types.js';
import { pageAsked } from './links-on-stub.js';
import { cursorOffset, pageSizeAsked } from './cursor-pages.js';

/** The part of a list a request asks for, and how its answer counts pages. */
export interface ListWindow {
  start: PageStart;
  /** Items at most; null for every item from `start` on. */
  limit: number | null;
  /** A cursor-paged list's paging (its next-page fields are built from the page). */
  cursor: CursorPaging | null;
  /** A page-numbered list (`?page=2&per_page=30`): the page asked, counted from 1. */
  page: number | null;
  /** Items per page for the figures (`per_page`, `limit`); null where the list is answered whole. */
  perPage: number | null;
}

/** The question a resource's request asks the store; null where the answer cannot come from the state (a create whose body is no object). */
export function stateQuestion(operation: CompiledOperation, action: ResourceAction, pathParams: Record<string, string>, query: URLSearchParams, body: ExactJson | null): StateQuestion | null {
  const { resource } = action;
  const name = resource.name;
  switch (action.kind) {
    case 'list': {
      const { start, limit } = listWindow(operation, action, query);
      return { resource: name, page: { scope: scopeOfPath(resource, pathParams), start, limit } };
    }
    case 'create': {
      const item = createdBody(body, resource.bodyEnvelope);
      if (!item) return null;
      const id = identityOf(item[resource.idField]);
      if (id !== null) return { resource: name, count: true, taken: [id] };
      // Counted ids come from the store (one above the largest it has held); drawn ones are checked once drawn.
      return counted(resource) ? { resource: name, count: true, newNumber: true } : { resource: name, count: true };
    }
    case 'replace':
      // A resource the document creates by PUT: a PUT to a new id makes it, within the cap.
      return { resource: name, item: pathParams[resource.idParam], ...(resource.operations.create === undefined ? { count: true } : {}) };
    default:
      return { resource: name, item: pathParams[resource.idParam] };
  }
}

/** Which page of the list the request asks for: its page number, its cursor, or its `limit`. */
export function listWindow(operation: CompiledOperation, action: ResourceAction, query: URLSearchParams): ListWindow {
  const paging = action.paging;
  if (paging) {
    // A paged list (`?page=2&per_page=30`) answers that page, and its links end at the last one.
    const size = query.get(paging.size) !== null ? pageAsked(query, paging.size) : paging.defaultSize;
    const page = pageAsked(query, paging.page);
    return { start: { offset: (page - 1) * size }, limit: size, cursor: null, page, perPage: size };
  }
  const cursor = operation.cursorPaging;
  if (cursor?.param) {
    const asked = query.get(cursor.param);
    const size = pageSizeAsked(cursor, query);
    // Stripe's `starting_after` names the last item seen; the stub's own cursors stand for an offset.
    const start: PageStart = cursor.kind === 'after' ? (asked === null ? { offset: 0 } : { after: asked }) : { offset: cursorOffset(cursor, asked) };
    return { start, limit: size, cursor, page: null, perPage: size };
  }
  const asked = action.limitParam ? query.get('limit') : null;
  const limit = asked !== null && /^\d{1,15}$/.test(asked) ? Number(asked) : null;
  return { start: { offset: 0 }, limit, cursor: null, page: null, perPage: limit };
}

/** Whether new ids of the resource are counted (one above the largest), not drawn like its schema's. */
export function counted(resource: Resource): boolean {
  return resource.idKind === 'integer' || resource.idKind === 'string';
}

/**
 * The parent an item is listed under: its values of the properties the parent's path parameters
 * name (`account_sid` of `/Accounts/{AccountSid}/Messages.json`), '' for a top-level resource. An
 * item that is no object is under no parent a path can name.
 */
export function scopeOfItem(resource: Resource, item: unknown): string {
  if (resource.scope.length === 0) return '';
  if (!isExactObject(item)) return '\u0000';
  return JSON.stringify(resource.scope.map(({ field }) => String(item[field])));
}

/** The parent a request's path names, as scopeOfItem writes it. */
export function scopeOfPath(resource: Resource, pathParams: Record<string, string>): string {
  return resource.scope.length === 0 ? '' : JSON.stringify(resource.scope.map(({ param }) => String(pathParams[param])));
}

/** A whole state with each item's scope, for a store filled at once (a state document, the seed); nested resources' items are parsed for it. */
export function placedState(resources: Resources, state: StoredState): PlacedState {
  const placed = new Map<string, Map<string, StoredItem>>();
  for (const [name, items] of state) {
    const resource = resources.byName.get(name);
    const scoped = resource !== undefined && resource.scope.length > 0;
    const kept = new Map<string, StoredItem>();
    for (const [id, text] of items) kept.set(id, { text, scope: scoped ? scopeOfItem(resource, parsedItem(text)) : '' });
    placed.set(name, kept);
  }
  return placed;
}

export function parsedItem(text: string): unknown {
  const parsed = parseExactJson(text);
  return parsed.exact ?? parsed.value;
}

/** The created item a request's body holds (its envelope taken off), as a copy; null when it is no object. */
export function createdBody(body: ExactJson | null, envelope: string | null): Record<string, unknown> | null {
  const value = body?.exact ?? body?.value;
  const item = envelope !== null && isExactObject(value) ? value[envelope] : value;
  return isExactObject(item) ? { ...item } : null;
}
