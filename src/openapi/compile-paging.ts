// What a GET operation's query parameters say about paging through its list by cursor, read once
// per operation: the parameter a client sends to get the next page (Asana's `offset`, Box's
// `marker`, Twilio's `PageToken`, Stripe's `starting_after`, `cursor`, `page_token`...) and the
// page-size parameter beside it. The answer's next-page fields are built from it (engine/cursor-pages.ts).
import { deref, isSchema, objectView, schemaTypes, type Schema } from './schema-view.js';
import { isJsonMediaType } from './media-types.js';
import type { LoadedDocument } from './open-document.js';

export interface CursorPaging {
  /**
   * The query parameter that says where the page starts, as the document spells it; null for a
   * list that documents next-page fields but no cursor to send (the stub cannot serve the page its
   * example names: the fields say there is none).
   */
  param: string | null;
  /**
   * `offset`: a number of items to skip (an integer parameter); `after`: the id of the last item
   * seen (Stripe's `starting_after`); `token`: a text only the server reads (the stub makes its own).
   */
  kind: 'offset' | 'after' | 'token';
  /** The page-size parameter (`limit`, `PageSize`), null when none. */
  size: string | null;
  /** The page-size parameter's default, null when it has none. */
  defaultSize: number | null;
  /**
   * The next-page fields the success answer's schema declares (`next_marker`, `meta.next_page_url`):
   * set where the answer left them out (a list from the state, generated data without them).
   */
  fields: Array<{ holder: string | null; key: string }>;
}

/** Objects the next-page fields sit in besides the body itself (`{"meta": {"next_page_url": …}}`), by squashed name. */
export const HOLDERS = new Set(['meta', 'links', 'paging', 'pagination', 'pageinfo', 'responsemetadata', 'page']);
/** Next-page fields by what they hold (squashed names): a cursor, a link (or Asana's `{offset, path, uri}`), a flag. */
export const TOKEN_FIELDS = new Set(['nextcursor', 'nextmarker', 'nextpagetoken', 'nexttoken', 'nextpagecursor', 'endcursor', 'nextoffset', 'continuationtoken']);
export const LINK_FIELDS = new Set(['next', 'nextpageuri', 'nextpageurl', 'nexturi', 'nexturl', 'nextlink', 'nexthref', 'odatanextlink', 'nextpage']);
export const MORE_FIELDS = new Set(['hasmore', 'hasnextpage', 'hasnext', 'more']);

const isNextField = (name: string) => TOKEN_FIELDS.has(name) || LINK_FIELDS.has(name) || MORE_FIELDS.has(name);

/** The next-page fields `schema` (the success answer's) declares, at its top or in one holder object. */
function declaredFields(spec: LoadedDocument, schema: unknown): CursorPaging['fields'] {
  const view = schema === undefined ? null : objectView(spec, schema);
  if (!view) return [];
  const fields: CursorPaging['fields'] = [];
  for (const [key, property] of view.properties) {
    if (isNextField(squashedName(key))) fields.push({ holder: null, key });
    else if (HOLDERS.has(squashedName(key))) {
      for (const inner of objectView(spec, property)?.properties.keys() ?? []) if (isNextField(squashedName(inner))) fields.push({ holder: key, key: inner });
    }
  }
  return fields;
}

function holdsArray(spec: LoadedDocument, schema: unknown): boolean {
  const view = schema === undefined ? null : objectView(spec, schema);
  return view !== null && [...view.properties.values()].some((property) => schemaTypes(deref(spec, property)).includes('array'));
}

/** The JSON schema of the operation's lowest documented 2xx answer. */
function successSchema(spec: LoadedDocument, operation: Schema): unknown {
  const responses = deref(spec, operation.responses);
  const status = Object.keys(responses).filter((code) => /^2\d\d$/.test(code)).sort()[0];
  const content = status === undefined ? undefined : deref(spec, responses[status]).content;
  if (!isSchema(content)) return undefined;
  const json = Object.entries(content).find(([type, media]) => isJsonMediaType(type) && isSchema(media));
  return json ? (json[1] as Schema).schema : undefined;
}

/** Cursor names (lower-case, without `_` and `-`), by what the value means. */
const TOKEN_NAMES = new Set(['cursor', 'pagetoken', 'nexttoken', 'nextpagetoken', 'marker', 'continuationtoken', 'pagecursor', 'offset', 'skiptoken']);
const AFTER_NAMES = new Set(['startingafter', 'after', 'afterid']);
const OFFSET_NAMES = new Set(['offset', 'skip']);
const SIZE_NAMES = ['limit', 'pagesize', 'perpage', 'maxresults', 'count', 'size', 'first', 'top'];

export function squashedName(name: string): string {
  return name.toLowerCase().replace(/[_\-.$]/g, '');
}

/** The cursor paging `parameters` (the operation's, path-level ones included) document for `operation`'s list; null when none. */
export function cursorPagingOf(spec: LoadedDocument, parameters: readonly unknown[], operation: Schema): CursorPaging | null {
  const query = parameters.map((entry) => deref(spec, entry)).filter((parameter): parameter is Schema => isSchema(parameter) && parameter.in === 'query' && typeof parameter.name === 'string');
  const named = (names: Set<string>) => query.find((parameter) => names.has(squashedName(String(parameter.name))));
  const integer = (parameter: Schema) => schemaTypes(deref(spec, parameter.schema)).includes('integer');
  // A numeric `offset` counts items; a string one (Asana's) is a token like any other.
  const offset = query.find((parameter) => OFFSET_NAMES.has(squashedName(String(parameter.name))) && integer(parameter));
  const token = query.find((parameter) => TOKEN_NAMES.has(squashedName(String(parameter.name))) && !integer(parameter));
  const after = named(AFTER_NAMES);
  const chosen = token ? { parameter: token, kind: 'token' as const } : after ? { parameter: after, kind: 'after' as const } : offset ? { parameter: offset, kind: 'offset' as const } : null;
  const answer = successSchema(spec, operation);
  const fields = declaredFields(spec, answer);
  // Only a list's (an answer holding an array); a page-numbered one (`?page=2`) has its own links (links-on-stub.ts).
  if (chosen === null && (fields.length === 0 || !holdsArray(spec, answer) || query.some((parameter) => squashedName(String(parameter.name)) === 'page'))) return null;
  if (chosen === null) return { param: null, kind: 'token', size: null, defaultSize: null, fields };
  const size = SIZE_NAMES.map((name) => query.find((parameter) => squashedName(String(parameter.name)) === name)).find((parameter) => parameter !== undefined);
  const fallback = size ? deref(spec, size.schema).default : undefined;
  return {
    param: String(chosen.parameter.name),
    kind: chosen.kind,
    size: size ? String(size.name) : null,
    defaultSize: typeof fallback === 'number' && Number.isInteger(fallback) && fallback > 0 ? fallback : null,
    fields,
  };
}
