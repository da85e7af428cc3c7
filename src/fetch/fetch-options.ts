// The fetch handler's one options object (also openApiHandlers'), with its defaults, checked once
// when the handler is created. Everything is given as values: the document, the overlays and the
// fixtures are objects or text, never file names, so nothing here needs a file system.
import { ConfigError } from '../config/config-error.js';
import { DEFAULTS } from '../config/defaults.js';
import { wholeNumber } from '../config/whole-number.js';
import { compatPolicy, type CompatOptions, type CompatPolicy } from '../config/compat-policy.js';

export interface FetchHandlerOptions extends CompatOptions {
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
  /** Picks the data set of generated data: same seed, same request, same bytes (as `--seed`). Default 0. */
  seed?: number;
  /** Remember what clients create, update and delete, in memory (as `--stateful`). Default false. */
  stateful?: boolean;
  /** Stateful mode: generated items per resource it starts with, after the list examples' (as `--seed-items`). Default 0. */
  seedItems?: number;
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
  /** Accepted bearer tokens; empty accepts any non-empty token (as `--token`). Default []. */
  tokens?: string[];
  /** Delay before every answer, refusals included, in ms (as `--delay`). Default 0. */
  delayMs?: number;
  /** Milliseconds between a streamed answer's events (text/event-stream, JSON lines), the first sent at once. As `--stream-interval`; default 10. */
  streamIntervalMs?: number;
  /** The most events a streamed answer sends, its terminator (`data: [DONE]`) aside. As `--stream-max-events`; default 20. */
  streamMaxEvents?: number;
  /** Largest request body in bytes; larger is 413 (as `--max-body`). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Stateful mode: the most bytes of JSON the stored items may take, as the server's --max-state (default 32 MiB); a create past it is answered 422 and not stored. */
  maxStateBytes?: number;
  /** Journal entries kept (newest). Default 1000. */
  journalLimit?: number;
  /** Refuse a document with any warning (as `--strict`). Default false. */
  strict?: boolean;
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

export interface ResolvedFetchOptions {
  /** The one document; null when `documents` is given. */
  document: object | string | null;
  /** Several documents; empty with one. */
  documents: ReadonlyArray<FetchDocument>;
  fixtures: ReadonlyArray<object | string>;
  overlays: ReadonlyArray<object | string>;
  /** The base URL as given, '' when none. */
  baseUrl: string;
  seed: number | undefined;
  stateful: boolean;
  seedItems: number;
  base: BaseUrl;
  passthrough: boolean;
  tokens: string[];
  delayMs: number;
  streamIntervalMs: number;
  streamMaxEvents: number;
  maxBodyBytes: number;
  maxStateBytes: number;
  journalLimit: number;
  strict: boolean;
  log: ((line: string) => void) | null;
  warn: (line: string) => void;
  /** `compat`, `dynamic` and `errors` (as `--compat prism`, `-d`, `--errors`), made into the policy the engine reads. */
  policy: CompatPolicy;
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
  const resolved: ResolvedFetchOptions = {
    document: documents.length > 0 ? null : document!,
    documents,
    fixtures: options.fixtures ?? [],
    overlays: options.overlays ?? [],
    baseUrl: options.baseUrl ?? '',
    seed: options.seed,
    // As the server's: items to seed are asking for stateful mode.
    stateful: options.stateful ?? ((options.seedItems ?? 0) > 0 || DEFAULTS.stateful),
    seedItems: options.seedItems ?? 0,
    base: baseUrlOf(options.baseUrl),
    passthrough: options.passthrough ?? false,
    tokens: options.tokens ?? [],
    delayMs: options.delayMs ?? DEFAULTS.delayMs,
    streamIntervalMs: options.streamIntervalMs ?? DEFAULTS.streamIntervalMs,
    streamMaxEvents: options.streamMaxEvents ?? DEFAULTS.streamMaxEvents,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxStateBytes: options.maxStateBytes ?? DEFAULTS.maxStateBytes,
    journalLimit: options.journalLimit ?? DEFAULTS.journalLimit,
    strict: options.strict ?? DEFAULTS.strict,
    log: options.log ?? null,
    warn: options.log ?? ((line) => console.warn(line)),
    policy: compatPolicy(options),
  };
  if (resolved.seed !== undefined) wholeNumber('seed', resolved.seed, 0, 2 ** 31 - 1);
  // Up to the items a stateful store keeps per resource (engine/answer-from-state.ts); --max-state caps their bytes.
  wholeNumber('seedItems', resolved.seedItems, 0, 100_000);
  if (resolved.seedItems > 0 && !resolved.stateful) throw new ConfigError('seedItems', 'fills stateful mode\'s store, and stateful mode is off (stateful: false); leave one of them out');
  wholeNumber('delayMs', resolved.delayMs, 0, 60_000);
  wholeNumber('streamIntervalMs', resolved.streamIntervalMs, 0, 60_000);
  wholeNumber('streamMaxEvents', resolved.streamMaxEvents, 1, 10_000);
  wholeNumber('maxBodyBytes', resolved.maxBodyBytes, 1, 1024 ** 3);
  wholeNumber('maxStateBytes', resolved.maxStateBytes, 1, 16 * 1024 ** 3);
  wholeNumber('journalLimit', resolved.journalLimit, 0, 1_000_000);
  if (!Array.isArray(resolved.tokens) || resolved.tokens.some((token) => typeof token !== 'string' || token.trim() === '' || /\s/.test(token))) {
    throw new ConfigError('tokens', 'each token must be a non-empty string without spaces');
  }
  return resolved;
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
