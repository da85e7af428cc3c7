// The figures a list answer's schema carries about the whole list (`total`, `total_count`,
// `num_pages`, `page`, `per_page`), at its top or in one object beside the items (`meta`,
// `pagination`), and the headers that say the same (`X-Total-Count`). Read once per list
// operation; in stateful mode the answer's figures are the store's (engine/store-figures.ts), not
// the example's.
import type { LoadedDocument } from './open-document.js';
import { deref, objectView, schemaTypes } from './schema-view.js';
import { squashedName } from './compile-paging.js';

/** What a figure counts: the items in all, the pages, the page answered, the items per page. */
export type FigureKind = 'total' | 'pages' | 'page' | 'size';

export interface ListFigure {
  /** The object property that holds it (`meta`), null for the body's top. */
  holder: string | null;
  key: string;
  kind: FigureKind;
}

/** Names (squashed: lower case, no `_`, `-`, `.`) by what they count. */
const NAMES: ReadonlyMap<string, FigureKind> = new Map([
  ...['total', 'totalcount', 'totalresults', 'totalitems', 'totalelements', 'totalrecords', 'totalentries', 'count'].map((name) => [name, 'total'] as const),
  ...['numpages', 'totalpages', 'pagecount', 'pages', 'lastpage'].map((name) => [name, 'pages'] as const),
  ...['page', 'currentpage', 'pagenumber', 'pageno'].map((name) => [name, 'page'] as const),
  ...['pagesize', 'perpage', 'limit'].map((name) => [name, 'size'] as const),
]);

/** Objects beside the items that hold a list's figures. */
const HOLDERS = new Set(['meta', 'pagination', 'paging', 'pageinfo', 'page', 'metadata']);

/** Headers (lower case) by what they count (GitLab's `X-Total`, `X-Total-Pages`, `X-Page`, `X-Per-Page`). */
export const FIGURE_HEADERS: ReadonlyMap<string, FigureKind> = new Map([
  ['x-total-count', 'total'], ['x-total', 'total'], ['x-total-pages', 'pages'], ['x-page', 'page'], ['x-per-page', 'size'],
]);

/** The integer figures `schema` (a list answer's) declares; none where it is no object. */
export function listFiguresOf(spec: LoadedDocument, schema: unknown): ListFigure[] {
  const view = schema === undefined || schema === null ? null : objectView(spec, schema);
  if (!view) return [];
  const figures: ListFigure[] = [];
  const read = (holder: string | null, properties: Map<string, unknown>) => {
    for (const [key, property] of properties) {
      const kind = NAMES.get(squashedName(key));
      const types = schemaTypes(deref(spec, property));
      if (kind !== undefined && (types.includes('integer') || types.includes('number'))) figures.push({ holder, key, kind });
    }
  };
  read(null, view.properties);
  for (const [key, property] of view.properties) {
    if (!HOLDERS.has(squashedName(key))) continue;
    const inner = objectView(spec, property);
    if (inner) read(key, inner.properties);
  }
  return figures;
}
