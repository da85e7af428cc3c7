// The fetch handler's one options object (also openApiHandlers'), with its defaults, checked once
// when the handler is created: the engine's options as the server takes them (engine-options.ts),
// and what only this host has. Everything is given as values: the document, the overlays and the
// fixtures are objects or text, never file names, so nothing here needs a file system.
import { ConfigError } from '../config/config-error.js';
import { resolveEngineOptions, type EngineOptions, type ResolvedEngineOptions } from '../config/engine-options.js';

export interface FetchHandlerOptions extends EngineOptions {
  /** The OpenAPI document (3.0, 3.1 or 3.2): the parsed object, or its YAML or JSON text. Required, unless `documents` is given. */
  document?: object | string;
  /**
   * Several documents served together, each under its mount path (as the server's `--spec`
   * repeated, docs/several-documents.md): `mount` (default: its first server's path), `name` (for
   * the journal and coverage; default: its title, lower-case, dashes for spaces), and `fixtures`
   * naming its operations as it writes them. Instead of `document`.
   */
  documents?: ReadonlyArray<FetchDocument>;
  /**
   * Scenario fixtures, each one file of `fixtures/`: its YAML or JSON text, or its parsed content
   * (`{ operation: 'POST /plants', scenarios: { 'duplicate-id': { status: 400, body: {…} } } }`).
   * Default none.
   */
  fixtures?: ReadonlyArray<object | string>;
  /**
   * OpenAPI Overlays (1.0) applied to the document, in order, before it is read (as `--overlay`):
   * each its YAML or JSON text, or its parsed content (`{ overlay: '1.0.0', info, actions: [...] }`).
   * They may add `x-stub-*` hints. They apply to `document` (not to `documents`). The document given is not changed. Default none.
   */
  overlays?: ReadonlyArray<object | string>;
  /**
   * Where the document's operations are served: an origin and base path
   * (`https://api.example.com/v2`) or a path on any origin (`/api`). Its path is taken off a
   * request's before routing. Default: every origin, paths as sent (an operation is also served
   * under the base path of the document's first server, as by the server).
   */
  baseUrl?: string;
  /**
   * A request no operation of the document answers (another origin, a path it does not have)
   * resolves to `undefined`, for the caller to let through, instead of the stub's 404.
   * Default false (openApiHandlers: true).
   */
  passthrough?: boolean;
  /** Where warnings and one line per request go. Default: warnings to `console.warn`, no request lines. */
  log?: (line: string) => void;
}

/** One of several documents given to the fetch handler. */
export interface FetchDocument {
  document: object | string;
  mount?: string;
  name?: string;
  fixtures?: ReadonlyArray<object | string>;
}

export interface ResolvedFetchOptions extends ResolvedEngineOptions {
  /** The one document; null when `documents` is given. */
  document: object | string | null;
  /** Several documents; empty with one. */
  documents: ReadonlyArray<FetchDocument>;
  fixtures: ReadonlyArray<object | string>;
  overlays: ReadonlyArray<object | string>;
  /** The base URL as given, '' when none. */
  baseUrl: string;
  base: BaseUrl;
  passthrough: boolean;
  log: ((line: string) => void) | null;
  warn: (line: string) => void;
}

/** `baseUrl` taken apart: the origin it requires (null: any) and the path taken off ('' for none). */
export interface BaseUrl {
  origin: string | null;
  path: string;
}

export function resolveFetchOptions(options: FetchHandlerOptions): ResolvedFetchOptions {
  if (options === null || typeof options !== 'object') throw new ConfigError('options', 'must be an object with at least `document`');
  const { document, documents = [] } = options;
  const isDocument = (value: unknown) => typeof value === 'string' || (value !== null && typeof value === 'object' && !Array.isArray(value));
  if (!Array.isArray(documents)) throw new ConfigError('documents', 'must be an array of { document, mount?, name?, fixtures? }');
  if (documents.length > 0 && document !== undefined) throw new ConfigError('documents', 'is given with `document`; give one document as `document`, or all of them in `documents`');
  documents.forEach((entry, i) => {
    if (entry === null || typeof entry !== 'object' || !isDocument(entry.document)) throw new ConfigError(`documents[${i}]`, 'must be { document, mount?, name?, fixtures? } with the OpenAPI document as an object, or its YAML or JSON text');
    if (entry.mount !== undefined && (typeof entry.mount !== 'string' || !/^(\/[^/{}?#\s]+)+$/.test(entry.mount))) throw new ConfigError(`documents[${i}].mount`, `must be a path such as /orders, got ${String(entry.mount)}`);
    if (entry.name !== undefined && (typeof entry.name !== 'string' || entry.name.trim() === '')) throw new ConfigError(`documents[${i}].name`, `must be a non-empty string, got ${JSON.stringify(entry.name)}`);
    if (entry.fixtures !== undefined && !Array.isArray(entry.fixtures)) throw new ConfigError(`documents[${i}].fixtures`, 'must be an array of fixture files (each { operation, scenarios })');
  });
  if (documents.length === 0 && !isDocument(document)) {
    throw new ConfigError('document', 'is required: the OpenAPI document as an object, or its YAML or JSON text (or several in `documents`)');
  }
  if (options.fixtures !== undefined && !Array.isArray(options.fixtures)) throw new ConfigError('fixtures', 'must be an array of fixture files (each { operation, scenarios })');
  if (options.overlays !== undefined && (!Array.isArray(options.overlays) || options.overlays.some((overlay) => typeof overlay !== 'string' && (overlay === null || typeof overlay !== 'object')))) {
    throw new ConfigError('overlays', 'must be an array of overlays, each its text or its parsed content ({ overlay: 1.0.0, info, actions })');
  }
  return {
    ...resolveEngineOptions(options),
    document: documents.length > 0 ? null : document!,
    documents,
    fixtures: options.fixtures ?? [],
    overlays: options.overlays ?? [],
    baseUrl: options.baseUrl ?? '',
    base: baseUrlOf(options.baseUrl),
    passthrough: options.passthrough ?? false,
    log: options.log ?? null,
    warn: options.log ?? ((line) => console.warn(line)),
  };
}

function baseUrlOf(baseUrl: string | undefined): BaseUrl {
  if (baseUrl === undefined || baseUrl === '') return { origin: null, path: '' };
  if (typeof baseUrl === 'string' && baseUrl.startsWith('/')) return { origin: null, path: withoutTrailingSlash(baseUrl) };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError('baseUrl', `must be an absolute http(s) URL (https://api.example.com/v2) or a path (/api), got ${String(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('baseUrl', `must be an http or https URL, got ${baseUrl}`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError('baseUrl', `must hold no query or fragment, got ${baseUrl}`);
  return { origin: url.origin, path: withoutTrailingSlash(url.pathname) };
}

function withoutTrailingSlash(path: string): string {
  return path.replace(/\/+$/, '');
}
