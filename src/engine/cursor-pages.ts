// Stage 8 (adjust): a list paged by cursor tells the client where its next page starts, built for this
// request, and stops saying so at the last page, so a client that follows it ends. The operation
// documents the cursor parameter (Asana's `offset`, Box's `marker`, Twilio's `PageToken`, Stripe's
// `starting_after`; openapi/compile-paging.ts); the answer's next-page fields are set: a token
// (`next_marker`, `next_cursor`), a link (`next_page_uri`, `next`, `links.next`), Asana's
// `next_page: {offset, path, uri}`, a flag (`has_more`). Stateless: three pages; stateful: the
// pages the store fills (answer-from-state gives the next cursor). Each field is a patch on the
// answer's draft, kept only where the body still fits its schema (body-draft.ts).
import type { CursorPaging } from '../openapi/compile-paging.js';
import { HOLDERS, LINK_FIELDS, MORE_FIELDS, squashedName, TOKEN_FIELDS } from '../openapi/compile-paging.js';
import { findIdKey, ID_NAMES } from '../openapi/id-property.js';
import type { PlainRequest } from '../common/plain-http.js';
import { LEFT_OUT, type BodyDraft } from './body-draft.js';
import { pageAsked, STATELESS_PAGES } from './links-on-stub.js';
import { escapedPath } from '../common/uri-path.js';

type JsonObject = Record<string, unknown>;

/** Items per page where the request asks none and the document gives no default (stateless mode). */
const STATELESS_PAGE_SIZE = 10;

/** The item offset a cursor the stub made stands for; 0 for none (or one it did not make). */
export function cursorOffset(paging: CursorPaging, text: string | null): number {
  if (text === null) return 0;
  // A number: an offset, or the number a field that holds one answered (Box's integer `next_marker`).
  if (/^\d{1,9}$/.test(text)) return Number(text);
  if (paging.kind === 'offset') return 0;
  const match = /^o(\d{1,9})$/.exec(fromBase64url(text) ?? '');
  return match ? Number(match[1]) : 0;
}

// base64url with the web's btoa and atob, not Node's Buffer: the engine also runs in a page (MSW).
function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text a base64url token stands for; null when it is not one. */
function fromBase64url(token: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) return null;
  try {
    return atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}

/** The cursor that starts at item `offset` (an opaque text for a token, as real APIs make). */
export function cursorAt(paging: CursorPaging, offset: number): string {
  return paging.kind === 'offset' ? String(offset) : base64url(`o${offset}`);
}

/** The page size a request asks for (its size parameter), else the documented default; null for neither. */
export function pageSizeAsked(paging: CursorPaging, query: URLSearchParams): number | null {
  const asked = paging.size === null ? null : query.get(paging.size);
  return asked !== null && /^[1-9]\d{0,3}$/.test(asked) ? Number(asked) : paging.defaultSize;
}

/**
 * The page of a list a request asks for, counted from 1: where the list is paged by cursor, the
 * page its cursor starts (any `after` cursor names a later page), else `?page=`. The items of
 * later pages get ids of their own (agree-with-request.ts), so a client paging through an example
 * sees no item twice.
 */
export function pageOfRequest(paging: CursorPaging | null, query: URLSearchParams): number {
  const asked = paging?.param ? query.get(paging.param) : null;
  if (paging === null || asked === null) return pageAsked(query);
  if (paging.kind === 'after') return 2;
  const size = pageSizeAsked(paging, query) ?? STATELESS_PAGE_SIZE;
  return Math.floor(cursorOffset(paging, asked) / size) + 1;
}

/**
 * Proposes this page's next-page fields on `draft` (body-draft.ts: each value kept only where the
 * body still fits). `stubBase`: the stub's origin and mount path (`http://127.0.0.1:4010/mock`),
 * null when the request named no host (links are then left as they are).
 */
export function cursorPages(draft: BodyDraft, paging: CursorPaging, request: PlainRequest, query: URLSearchParams, stubBase: string | null): void {
  const answer = draft.built;
  if (request.method !== 'GET' || answer.status < 200 || answer.status > 299 || !answer.plan?.json || answer.choiceKind === 'scenario') return;
  const body = draft.body;
  if (!isPlainObject(body) || (answer.bodyViolations !== null && answer.bodyViolations.length > 0)) return;
  const next = answer.next !== undefined ? answer.next : statelessNext(paging, query, body);
  const pathAndQuery = next === null || paging.param === null ? null : `${escapedPath(request.path)}?${withCursor(query, paging.param, next)}`;
  const link = pathAndQuery === null || stubBase === null ? null : stubBase + pathAndQuery;
  const mount = stubBase === null ? '' : new URL(stubBase).pathname.replace(/\/$/, '');
  const made: Made = { next, more: next !== null, pathAndQuery, link, relativeLink: pathAndQuery === null ? null : mount + pathAndQuery, numeric: paging.kind === 'offset', offset: next === null || paging.kind === 'after' ? null : cursorOffset(paging, next) };
  const holders = new Map<string | null, JsonObject>([[null, body], ...nestedHolders(body)]);
  // The fields the answer holds, then those its schema declares that it left out.
  const fields = [...holders].flatMap(([holder, object]) => Object.keys(object).map((key) => ({ holder, key })));
  for (const field of paging.fields) if (holders.has(field.holder) && !Object.hasOwn(holders.get(field.holder)!, field.key)) fields.push(field);
  for (const { holder, key } of fields) {
    const object = holders.get(holder)!;
    draft.propose(holder === null ? [] : [holder], key, nextValues(squashedName(key), object[key], made));
  }
  // A documented `Link` header (RFC 8288) says the same: `next` while there is a next page.
  if (answer.plan.headers.some((header) => header.name === 'link')) draft.setHeader('link', link === null ? undefined : `<${link}>; rel="next"`);
}

/** Stateless: the cursor of the page after the one asked for, null after the last (the third). */
function statelessNext(paging: CursorPaging, query: URLSearchParams, body: JsonObject): string | null {
  if (paging.param === null) return null;
  const asked = query.get(paging.param);
  // An `after` cursor is an item's id, which says nothing of the page: any one asks for the last.
  if (paging.kind === 'after') return asked === null ? lastItemId(body) : null;
  const size = pageSizeAsked(paging, query) ?? STATELESS_PAGE_SIZE;
  const offset = cursorOffset(paging, asked) + size;
  return offset < STATELESS_PAGES * size ? cursorAt(paging, offset) : null;
}

/** The id of the last item of the body's list (the first array of objects, at the top or one level down). */
export function lastItemId(body: JsonObject): string | null {
  for (const value of [...Object.values(body), ...Object.values(body).filter(isPlainObject).flatMap((inner) => Object.values(inner))]) {
    if (!Array.isArray(value) || value.length === 0 || !isPlainObject(value[value.length - 1])) continue;
    const last = value[value.length - 1] as JsonObject;
    const key = findIdKey(Object.keys(last), ID_NAMES);
    const id = key === null ? undefined : last[key];
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return null;
}

function withCursor(query: URLSearchParams, param: string, cursor: string): string {
  const params = new URLSearchParams(query);
  params.set(param, cursor);
  return params.toString();
}

/** The body's objects that hold next-page fields (`meta`, `links`, `paging`, …). */
function nestedHolders(body: JsonObject): Array<[string, JsonObject]> {
  return Object.entries(body).filter((entry): entry is [string, JsonObject] => HOLDERS.has(squashedName(entry[0])) && isPlainObject(entry[1]));
}

/** What this page's next-page fields say. */
interface Made {
  next: string | null;
  more: boolean;
  /** The next page's path and query, and as a link on the stub (absolute; relative under the mount path). */
  pathAndQuery: string | null;
  link: string | null;
  relativeLink: string | null;
  /** Whether the cursor is a number of items (`offset`). */
  numeric: boolean;
  /** The next page's first item as a number, for a field that holds a number; null for an `after` cursor (an id). */
  offset: number | null;
}

/** The values to try, in order, for the next-page field `name` now holding `value` (undefined: absent); none when it is no such field. */
function nextValues(name: string, value: unknown, made: Made): unknown[] {
  const { next } = made;
  const absent = value === undefined;
  if (MORE_FIELDS.has(name) && (absent || typeof value === 'boolean')) return [made.more];
  if (TOKEN_FIELDS.has(name) && (value === null || typeof value !== 'object')) {
    // At the end: null, an empty text, else the field left out (Box's integer `next_marker`).
    if (next === null) return absent ? [] : [null, '', LEFT_OUT];
    const offset = made.offset === null ? [] : [made.offset];
    return made.numeric || typeof value === 'number' ? [...offset, next] : [next, ...offset];
  }
  if (!LINK_FIELDS.has(name)) return [];
  // Asana's `next_page: {offset, path, uri}`, a HAL-like `{href}`, or the link itself. At the end,
  // null where it fits, also where the answer left the field out (a list from the state): a client
  // reads the end there.
  if (next === null) return absent ? [null] : [null, LEFT_OUT];
  if (isPlainObject(value) && 'offset' in value) return [{ ...value, offset: next, path: made.pathAndQuery, uri: made.link ?? value.uri }];
  if (isPlainObject(value) && typeof value.href === 'string') return made.link === null ? [] : [{ ...value, href: made.link }];
  if (value !== null && !absent && typeof value !== 'string') return [];
  // A relative link (Twilio's `/2010-04-01/…?PageToken=…`, a `…_uri` that holds no absolute URL)
  // stays relative, under the mount path.
  const relative = typeof value === 'string' && value.startsWith('/') ? true : name.endsWith('uri') && !(typeof value === 'string' && /^https?:/i.test(value));
  // A schema that asks for `format: uri` takes only the absolute one, unless the document's own
  // examples are relative (Twilio's: openapi/relative-uris.ts reads it as `uri-reference`).
  const absolute = made.link === null ? [] : [made.link];
  const links = relative ? [made.relativeLink, ...absolute] : absolute;
  // Where Asana's `next_page` has no value to go by, its object first.
  return name === 'nextpage' && typeof value !== 'string' ? [{ offset: next, path: made.pathAndQuery, uri: made.link }, ...links] : links;
}

/** A plain JSON object: not an array, and not a class instance such as an exact number's holder. */
function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
