// Stage 7 (build), stateful lists: the figures an answer gives about the whole list are the store's. The
// example's `total: 120` or `X-Total-Count: 120` beside the two items stored would tell a client
// to page on for ever (or stop too soon); the store's count, page count, page and page size take
// their place in the properties and documented headers that say them (openapi/list-figures.ts).
// A value is kept only when the body (or the header) still fits its schema.
import type { BuiltResponse, StoreFigures } from './engine-types.js';
import type { FigureKind } from '../openapi/list-figures.js';
import { FIGURE_HEADERS } from '../openapi/list-figures.js';
import { checkBody } from './check-body.js';

type JsonObject = Record<string, unknown>;

export function withStoreFigures(answer: BuiltResponse, figures: StoreFigures | undefined): BuiltResponse {
  const plan = answer.plan;
  if (figures === undefined || plan === null) return answer;
  const valueOf = (kind: FigureKind): number | null => (kind === 'total' ? figures.total : kind === 'pages' ? figures.pages : kind === 'page' ? figures.page : figures.size);
  let headers = answer.headers;
  for (const header of plan.headers) {
    const kind = FIGURE_HEADERS.get(header.name);
    const value = kind === undefined ? null : valueOf(kind);
    if (value === null || (header.validate && header.validate(String(value)).length > 0)) continue;
    headers = { ...headers, [header.name]: String(value) };
  }
  const withHeaders = headers === answer.headers ? answer : { ...answer, headers };
  if (figures.declared.length === 0 || !isObject(answer.body) || (answer.bodyViolations !== null && answer.bodyViolations.length > 0)) return withHeaders;
  // All at once (one check) where they all fit, else each alone: a `count` that means something
  // else, a figure over its documented maximum, keeps the answer's value.
  const all: BuiltResponse = { ...withHeaders, body: withFigures(answer.body, figures.declared, valueOf) };
  if (all.body === answer.body) return withHeaders;
  if (checkBody(all).length === 0) return { ...all, bodyViolations: [] };
  let body: JsonObject = answer.body;
  for (const figure of figures.declared) {
    const tried: BuiltResponse = { ...withHeaders, body: withFigures(body, [figure], valueOf) };
    if (tried.body !== body && checkBody(tried).length === 0) body = tried.body as JsonObject;
  }
  return { ...withHeaders, body };
}

/** `body` copied with the figures set (an object the answer left out, `meta`, made for them); `body` itself where none applies. */
function withFigures(body: JsonObject, declared: StoreFigures['declared'], valueOf: (kind: FigureKind) => number | null): JsonObject {
  let copy: JsonObject | null = null;
  for (const { holder, key, kind } of declared) {
    const value = valueOf(kind);
    const inner = holder === null ? undefined : (copy ?? body)[holder];
    if (value === null || (inner !== undefined && !isObject(inner))) continue;
    copy ??= { ...body };
    if (holder === null) copy[key] = value;
    else copy[holder] = { ...(inner as JsonObject | undefined), [key]: value };
  }
  return copy ?? body;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
