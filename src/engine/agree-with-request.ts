// Stage 8 (adjust): a stateless answer that agrees with its request. An item read by id answers that id
// (`GET /tasks/7` -> `gid: "7"`), other path values land in the properties they name
// (`/Accounts/{AccountSid}/...` -> `account_sid`), an RPC-style operation's request fields land
// in the answer's properties of their name (`?channel=C1` -> `channel`), and the items of a list
// each get their own id, not the example's id repeated. Each change is a patch on the answer's
// draft, kept only where the body still fits the documented schema (checked once, body-draft.ts):
// where a value does not fit, the answer stays as the builder made it.
import { isObject } from '../common/json-value.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { isSuccessStatus } from '../openapi/success-rule.js';
import { fnv1a } from '../generate/seeded-random.js';
import { redrawId } from '../generate/id-values.js';
import { findIdKey, ID_NAMES, itemIdNames, normalizedName, resourceWord } from '../openapi/id-property.js';
import type { Choice } from './engine-types.js';
import type { BodyDraft, BodyPath } from './body-draft.js';

type JsonObject = Record<string, unknown>;

/** Property names that wrap the resource in an envelope (`{"data": {...}}`), looked for first. */
const ENVELOPE_NAMES = ['data', 'item', 'items', 'result', 'results', 'resource', 'record', 'records', 'entry', 'entries', 'value', 'values', 'payload', 'body'];

interface PathShape {
  /** Every path parameter, in path order. */
  params: string[];
  /** The parameter the path ends with (`/tasks/{task_gid}`, `/Messages/{Sid}.json`): the item's own id; null otherwise. */
  itemParam: string | null;
  /** `folder` for `/folders/{folder_id}`: for the `<resource>_id` name. */
  resource: string | null;
}

const shapes = new WeakMap<CompiledOperation, PathShape>();

/** What the request sent besides its path: its query, and its body as read (a form's as an object). */
export interface SentFields {
  query: URLSearchParams;
  body: unknown;
}

/**
 * Proposes the changes on `draft` (body-draft.ts: each kept only where the body still fits).
 * `page`: the page asked for (`?page=2`), 1 when none: the items of later pages get ids of their own.
 * `sent`: the fields an RPC-style operation (no path parameter) reflects.
 */
export function agreeWithRequest(draft: BodyDraft, operation: CompiledOperation, choice: Choice, pathParams: Record<string, string>, page = 1, sent?: SentFields): void {
  const answer = draft.built;
  // An example asked for by name is served as written; fixtures and the state are their own
  // answers. An echo whose numbers are kept exact (above 2^53) is left as it is: rare, and a copy
  // would have to carry its raw numbers.
  const adjustable = (choice.kind === 'example' && !choice.asked) || choice.kind === 'generated' || (choice.kind === 'echo' && !answer.exact);
  if (!adjustable || !answer.plan?.validateBody || !answer.plan.json || !isSuccessStatus(answer.status)) return;
  if (answer.body === null || typeof answer.body !== 'object') return;
  if (answer.bodyViolations !== null && answer.bodyViolations.length > 0) return;
  // Nothing to agree with (no path value, and no array or object that could be a list: POST
  // /plants's echo): the answer as it is, before the name scans, which are a measurable share of
  // a small answer's CPU (docs/benchmark.md).
  const shape = pathShape(operation);
  // An echo already answers what was sent.
  const fields = shape.params.length === 0 && answer.choiceKind !== 'echo' && sent ? sentFields(sent) : null;
  if (shape.params.length === 0 && fields === null && !holdsStructure(answer.body)) return;
  if (fields !== null) reflectFields(draft, fields);
  reflectPath(draft, shape, pathParams);
  distinctItems(draft, page);
}

function pathShape(operation: CompiledOperation): PathShape {
  let shape = shapes.get(operation);
  if (shape === undefined) {
    const params = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const last = /\/([^/{}]*)\/\{([^}]+)\}(?:\.[A-Za-z0-9]+)?$/.exec(operation.path);
    const resource = last && last[1] !== '' ? resourceWord(last[1]) : null;
    shape = { params, itemParam: last ? last[2] : null, resource };
    shapes.set(operation, shape);
  }
  return shape;
}

/** The path's values into the properties they name. */
function reflectPath(draft: BodyDraft, shape: PathShape, pathParams: Record<string, string>): void {
  const holders = resourceHolders(draft.body as JsonObject | unknown[]);
  for (const param of shape.params) {
    const value = pathParams[param];
    if (value === undefined) continue;
    const isItem = param === shape.itemParam;
    const names = isItem ? itemIdNames(param, shape.resource) : [normalizedName(param)];
    if (holders.list) {
      // A parent's value (`AccountSid`) goes on every item of a list; the list has no one item id.
      if (isItem) continue;
      for (const item of holders.objects) {
        const key = findIdKey(scalarKeys(item.object), names);
        if (key !== null) proposeText(draft, item, key, value);
      }
    } else {
      // The body itself first, else its envelope: a nested `owner.id` is never the item's id.
      for (const target of holders.objects) {
        const key = findIdKey(scalarKeys(target.object), names);
        if (key === null) continue;
        proposeText(draft, target, key, value);
        break;
      }
    }
  }
}

/**
 * The scalar fields a request sent, by normalized name (`channel_id`, `channelId` and `ChannelId`
 * are one): its query's, then its body's top-level ones, which win. Null when there are none.
 */
function sentFields({ query, body }: SentFields): Map<string, unknown> | null {
  const fields = new Map<string, unknown>();
  for (const [name, value] of query) if (!fields.has(normalizedName(name))) fields.set(normalizedName(name), value);
  if (isObject(body)) {
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields.set(normalizedName(name), value);
  }
  return fields.size === 0 ? null : fields;
}

/**
 * RPC-style operations (`chat.postMessage`, `conversations.members?channel=C1`): a field the
 * request sent lands in the answer's property of the same name, in the body or its envelope (not
 * in a list's items, which a filter does not name one by one), where it fits.
 */
function reflectFields(draft: BodyDraft, fields: Map<string, unknown>): void {
  const body = draft.body as JsonObject | unknown[];
  if (Array.isArray(body)) return;
  const holders = resourceHolders(body);
  for (const target of holders.list ? [{ path: [], object: body }] : holders.objects) {
    for (const key of scalarKeys(target.object)) {
      const value = fields.get(normalizedName(key));
      if (value !== undefined) proposeSent(draft, target, key, value);
    }
  }
}

/** A sent value for `target[key]` (text read in the property's own type). */
function proposeSent(draft: BodyDraft, target: Placed, key: string, sent: unknown): void {
  const before = target.object[key];
  if (typeof sent === 'string') {
    if (typeof before !== 'boolean') proposeText(draft, target, key, sent);
    else if (sent === 'true' || sent === 'false') proposeText(draft, target, key, sent, sent === 'true');
  } else if (before === null || typeof before === typeof sent) {
    proposeText(draft, target, key, String(sent), sent);
  }
}

/** A resource's object in the body, and where it is. */
interface Placed {
  path: BodyPath;
  object: JsonObject;
}

/** Where the answered resource's properties are: the body then its envelope, or a list's items. */
function resourceHolders(body: JsonObject | unknown[]): { list: boolean; objects: Placed[] } {
  const list = listOf(body);
  if (list !== null) return { list: true, objects: list.items.flatMap((item, i) => (isObject(item) ? [{ path: [...list.path, i], object: item }] : [])) };
  const top = body as JsonObject;
  const key = envelopeKey(top);
  const inner = key === null ? null : top[key];
  return { list: false, objects: isObject(inner) ? [{ path: [], object: top }, { path: [key!], object: inner }] : [{ path: [], object: top }] };
}

/** `target[key]` as the path value in the property's own type (or `exact`, a value sent as it is), when that changes it. */
function proposeText(draft: BodyDraft, target: Placed, key: string, text: string, exact?: unknown): void {
  const before = target.object[key];
  const value = exact !== undefined ? exact : typed(before, key, text);
  if (value !== undefined && value !== before) draft.propose(target.path, key, [value]);
}

function typed(before: unknown, key: string, text: string): unknown {
  if (typeof before === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  if (typeof before !== 'string' && before !== null) return undefined;
  // Git refs are read by their short name (`heads/main`) and answered in full (`refs/heads/main`).
  if (key === 'ref' && typeof before === 'string' && before.startsWith('refs/') && !text.startsWith('refs/')) return `refs/${text}`;
  return text;
}

/**
 * Gives each item of a list its own id where two share one, and every item of a page after the
 * first an id of its own (a client that pages through sees no item twice).
 */
function distinctItems(draft: BodyDraft, page: number): void {
  const list = listOf(draft.body as JsonObject | unknown[]);
  if (list === null || list.items.length < (page > 1 ? 1 : 2) || !list.items.every(isObject)) return;
  const items = list.items as JsonObject[];
  const key = findIdKey(scalarKeys(items[0]), ID_NAMES);
  if (key === null) return;
  // A second identity items are read by (GitHub's issue `number` beside its `id`) is kept distinct too.
  if (key !== 'number' && typeof items[0].number === 'number') distinctBy(draft, list.path, items, 'number', page);
  distinctBy(draft, list.path, items, key, page);
}

/** The items' new values of `key`, proposed together: kept only all at once. */
function distinctBy(draft: BodyDraft, path: BodyPath, items: JsonObject[], key: string, page: number): void {
  const seen = new Set<unknown>();
  const changes: Array<{ path: BodyPath; key: string; value: unknown }> = [];
  const offset = (page - 1) * items.length;
  items.forEach((item, index) => {
    let current = item[key];
    if (seen.has(current) || offset > 0) {
      const value = anotherId(current, offset + index, seen);
      if (value !== undefined) {
        current = value;
        changes.push({ path: [...path, index], key, value });
      }
    }
    seen.add(current);
  });
  draft.proposeTogether(changes);
}

/**
 * An id like `value` that none of the list holds yet: a number above the rest, else the string
 * with its last characters redrawn within their own class (digit, hex letter, letter), so that a
 * uuid stays a uuid and `SM` + 32 hex digits stays that. Derived from the value and the index alone.
 */
function anotherId(value: unknown, index: number, seen: Set<unknown>): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) {
    let next = value + index;
    while (seen.has(next)) next++;
    return next;
  }
  if (typeof value !== 'string' || value === '') return undefined;
  for (let salt = 0; salt < 8; salt++) {
    const candidate = redrawId(value, fnv1a(`${value}\u0000${index}\u0000${salt}`));
    if (!seen.has(candidate)) return candidate;
  }
  return undefined;
}

/** The list a body answers, and where: the body itself, or its envelope's array (`{"data": [...]}`, `{"messages": [...], "page": 0}`). */
function listOf(body: JsonObject | unknown[]): { path: BodyPath; items: unknown[] } | null {
  if (Array.isArray(body)) return { path: [], items: body };
  // A body with an id of its own is one resource, whatever arrays it holds (`labels`, `tags`).
  if (findIdKey(scalarKeys(body), ID_NAMES) !== null) return null;
  const key = envelopeKey(body);
  return key !== null && Array.isArray(body[key]) ? { path: [key], items: body[key] as unknown[] } : null;
}

/** The one property wrapping the resource: a known envelope name, else the only array property, else the body's only property. */
function envelopeKey(body: JsonObject): string | null {
  const wrapping = Object.keys(body).filter((key) => body[key] !== null && typeof body[key] === 'object');
  const named = wrapping.find((key) => ENVELOPE_NAMES.includes(key.toLowerCase()));
  if (named !== undefined) return named;
  const arrays = wrapping.filter((key) => Array.isArray(body[key]));
  if (arrays.length === 1) return arrays[0];
  // An object property is an envelope only when it is all the body holds (`{"droplet": {...}}`):
  // `{"name": ..., "owner": {...}}` is a resource, and `owner` is not it.
  const keys = Object.keys(body);
  return keys.length === 1 && wrapping.length === 1 ? wrapping[0] : null;
}

/** The properties that can hold an id: `{"floating_ip": {...}}` names the resource, it is not its id. */
function scalarKeys(target: JsonObject): string[] {
  return Object.keys(target).filter((key) => target[key] === null || typeof target[key] !== 'object');
}

/** An array, or an object with an array or object inside: only such a body can be (or wrap) a list. */
function holdsStructure(body: object): boolean {
  if (Array.isArray(body)) return true;
  for (const key in body) {
    const value = (body as JsonObject)[key];
    if (value !== null && typeof value === 'object') return true;
  }
  return false;
}

