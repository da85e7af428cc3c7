// How a parameter's value arrives in a request, by OpenAPI `style` and `explode`, turned back into
// the text, list or object its schema describes (values stay text: the validator coerces them).
// A reader is chosen once per parameter at start-up; a request only runs it.
//
//   style       location       primitive   array              object
//   simple      path, header   5           3,4,5              R,1,G,2 / R=1,G=2 (explode)
//   label       path           .5          .3,4,5 / .3.4.5    .R,1,G,2 / .R=1.G=2
//   matrix      path           ;id=5       ;id=3,4 / ;id=3;id=4   ;id=R,1,G,2 / ;R=1;G=2
//   form        query, cookie  id=5        id=3,4 / id=3&id=4 id=R,1,G,2 / R=1&G=2
//   deepObject  query          -           -                  id[R]=1&id[G]=2
//   spaceDelimited, pipeDelimited  query   -           id=3%204 / id=3|4  -

import { decodePercentOrKeep } from '../common/plain-http.js';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';
export type ValueKind = 'primitive' | 'array' | 'object';

/** Where a request's parameters are read from; cookies are parsed only when asked for. */
export interface ParameterSources {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  cookies: () => Map<string, string[]>;
}

/** The parameter's value as its schema sees it (text, list of texts, object of texts), or undefined when absent. */
export type ParameterReader = (sources: ParameterSources) => unknown;

export interface ReaderOptions {
  name: string;
  location: ParameterLocation;
  style: string;
  explode: boolean;
  kind: ValueKind;
  /** For objects: the property names a form-exploded query object is gathered from (empty: any key). */
  propertyNames: readonly string[];
  /** For exploded query objects without declared properties: keys that belong to other parameters. */
  otherNames: readonly string[];
}

/** OpenAPI's defaults: `form` for query and cookie, `simple` for path and header; only `form` explodes. */
export function defaultStyle(location: ParameterLocation): string {
  return location === 'query' || location === 'cookie' ? 'form' : 'simple';
}

export function compileReader(options: ReaderOptions): ParameterReader {
  const { name, location } = options;
  if (location === 'query') return queryReader(options);
  if (location === 'cookie') {
    const fromText = textReader(options, ',');
    return (sources) => {
      const values = sources.cookies().get(name);
      if (values === undefined) return undefined;
      return options.kind === 'array' && options.explode && values.length > 1 ? values : fromText(values[0]);
    };
  }
  const fromText = pathOrHeaderReader(options);
  if (location === 'path') return (sources) => (sources.pathParams[name] === undefined ? undefined : fromText(sources.pathParams[name]));
  const header = name.toLowerCase();
  return (sources) => {
    const value = sources.headers[header];
    return value === undefined ? undefined : fromText(Array.isArray(value) ? value.join(', ') : value);
  };
}

function queryReader(options: ReaderOptions): ParameterReader {
  const { name, style, explode, kind } = options;
  if (kind === 'object' && style === 'deepObject') return ({ query }) => deepObject(query, name);
  if (kind === 'object' && explode) return ({ query }) => spreadObject(query, options.propertyNames, options.otherNames);
  if (kind === 'array' && explode) {
    return ({ query }) => {
      const all = query.getAll(name);
      return all.length === 0 ? undefined : all;
    };
  }
  const delimiter = style === 'pipeDelimited' ? '|' : style === 'spaceDelimited' ? ' ' : ',';
  const fromText = textReader(options, delimiter);
  if (kind === 'primitive') {
    // A repeated primitive stays a list, so the validator says it must be one value.
    return ({ query }) => {
      const all = query.getAll(name);
      return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
    };
  }
  return ({ query }) => {
    const value = query.get(name);
    return value === null ? undefined : fromText(value);
  };
}

/** Path and header values: `simple`, `label` (`.` prefix) and `matrix` (`;name=` prefix) styles. */
function pathOrHeaderReader(options: ReaderOptions): (text: string) => unknown {
  const { name, style, explode, kind } = options;
  if (style === 'label') {
    const separator = explode ? '.' : ',';
    const rest = textReader({ ...options, explode }, separator);
    return (text) => (text.startsWith('.') ? rest(text.slice(1)) : text);
  }
  if (style === 'matrix') {
    const prefix = `;${name}=`;
    if (kind === 'object' && explode) return (text) => (text.startsWith(';') ? pairsOf(text.slice(1).split(';'), '=') : text);
    if (kind === 'array' && explode) {
      return (text) => (text.startsWith(prefix) ? text.slice(1).split(';').map((part) => part.slice(prefix.length - 1)) : text);
    }
    const rest = textReader(options, ',');
    // `;id` alone is an empty value (RFC 6570).
    return (text) => (text.startsWith(prefix) ? rest(text.slice(prefix.length)) : text === `;${name}` ? '' : text);
  }
  return textReader(options, ',');
}

/** One text holding a whole value: a list split on its delimiter, an object from its pairs. */
function textReader(options: Pick<ReaderOptions, 'kind' | 'explode' | 'style'>, delimiter: string): (text: string) => unknown {
  const { kind, explode, style } = options;
  if (kind === 'array') return (text) => text.split(delimiter);
  if (kind === 'object') {
    // Exploded path and header objects are `R=1,G=2` (label: `R=1.G=2`); the others alternate names and values.
    if (explode && style !== 'form') return (text) => pairsOf(text.split(delimiter), '=');
    return (text) => alternating(text.split(delimiter));
  }
  return (text) => text;
}

function pairsOf(parts: string[], separator: string): Record<string, string> {
  const object: Record<string, string> = {};
  for (const part of parts) {
    const at = part.indexOf(separator);
    if (at > 0) object[part.slice(0, at)] = part.slice(at + 1);
  }
  return object;
}

/** `R,1,G,2` -> `{R: '1', G: '2'}`; a name without a value is left out (the validator sees it missing). */
function alternating(parts: string[]): Record<string, string> {
  const object: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) object[parts[i]] = parts[i + 1];
  return object;
}

/** `filter[name]=x&filter[age]=3` -> `{name: 'x', age: '3'}`. */
function deepObject(query: URLSearchParams, name: string): Record<string, string> | undefined {
  const prefix = `${name}[`;
  let object: Record<string, string> | undefined;
  for (const [key, value] of query) {
    if (key.startsWith(prefix) && key.endsWith(']')) (object ??= {})[key.slice(prefix.length, -1)] = value;
  }
  return object;
}

/** An exploded form object: its properties are query keys of their own (`?offset=1&limit=2`). */
function spreadObject(query: URLSearchParams, propertyNames: readonly string[], otherNames: readonly string[]): Record<string, string> | undefined {
  let object: Record<string, string> | undefined;
  if (propertyNames.length > 0) {
    for (const property of propertyNames) {
      const value = query.get(property);
      if (value !== null) (object ??= {})[property] = value;
    }
    return object;
  }
  for (const [key, value] of query) if (!otherNames.includes(key)) (object ??= {})[key] = value;
  return object;
}

/** The request's cookies by name (RFC 6265 `a=1; b=2`), values percent-decoded where they can be. */
export function parseCookies(header: string | string[] | undefined): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  const text = Array.isArray(header) ? header.join('; ') : header ?? '';
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (name === '') continue;
    const value = decodePercentOrKeep(pair.slice(at + 1).trim().replace(/^"(.*)"$/, '$1'));
    const list = cookies.get(name);
    if (list) list.push(value);
    else cookies.set(name, [value]);
  }
  return cookies;
}
