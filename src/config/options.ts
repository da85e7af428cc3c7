// The one options object of the stub, with its defaults. The CLI and the environment only fill it
// in; `resolveOptions` checks it once, up front, and everything downstream trusts it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DelaySpread } from '../common/delay-spread.js';
import { resolveChaos, resolveDelay, type Chaos } from './script-options.js';
import type { Fault } from '../common/faults.js';
import { ConfigError } from './config-error.js';
import { isLoopbackName } from '../common/loopback.js';
import { wholeNumber } from './whole-number.js';
import { checkFolderOf, checkWritable } from './writable-paths.js';
import { DEFAULTS } from './defaults.js';
import { compatPolicy, type CompatMode, type CompatPolicy } from './compat-policy.js';
import { resolveDocuments, type MountedSource } from './mounted-sources.js';

export interface StubOptions {
  /**
   * OpenAPI document to serve. Default `./openapi.yaml`, else the bundled Plant Store document.
   * Several documents are served on one port, each under its mount path: its first server's path,
   * or one written before `=` (`['./users.yaml', '/orders=./orders.yaml']`; docs/several-documents.md).
   */
  spec?: string | string[];
  /**
   * Folder of scenario fixtures; a missing folder means no scenarios. Default `./fixtures`. With
   * several documents, one folder per document by its mount path (`/orders=./fixtures/orders`).
   */
  fixtures?: string | string[];
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Address to bind. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Accepted bearer tokens; empty accepts any non-empty token. Default []. */
  tokens?: string[];
  /** OpenAPI Overlay files applied to the document, in order, before it is read (watched like it); with several documents, `/orders=fix.yaml` for one of them. Default none. */
  overlays?: string[];
  /** Picks the data set of generated data: same seed, same request, same bytes. Default: 0. */
  seed?: number;
  /** Largest request body in bytes; larger is 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Stateful mode: the most bytes of stored items' JSON kept; a change beyond it is 422. Default 32 MiB. */
  maxStateBytes?: number;
  /** Delay before every answer, refusals included, in ms, or a seeded spread (`{min, max}`, `{median, p99}`); X-Mock-Delay and fixtures override it. Default 0. */
  delayMs?: number | DelaySpread;
  /** The share of every operation's requests (0 to 1) answered with one of its documented 4xx/5xx answers, or a fault. Default 0 (off). */
  chaos?: number;
  /** The faults --chaos may inject besides documented errors (`reset`, `close`, ...). Default none. */
  chaosFaults?: Fault[];
  /** Milliseconds between a streamed answer's events (text/event-stream, JSON lines), the first sent at once. Default 10. */
  streamIntervalMs?: number;
  /** The most events a streamed answer sends, its terminator (`data: [DONE]`) aside. Default 20. */
  streamMaxEvents?: number;
  /**
   * Where log lines go (the request lines, and the notes and warnings unless `warn` says
   * otherwise): true for stdout, false for nowhere, or a function. Default false (true in the CLI).
   * Warnings not printed stay at `GET /__admin/warnings` and `stub.warnings()`.
   */
  log?: boolean | ((line: string) => void);
  /** Where notes and warnings go (a document's flaws, fixtures, reloads, the state store), when not to the log. Default: the log. */
  warn?: (line: string) => void;
  /** Request log lines as readable text or as one JSON object per line. Default `text`. */
  logFormat?: 'text' | 'json';
  /** Refuse to start on a document with any warning (see GET /__admin/warnings). Default false. */
  strict?: boolean;
  /** Journal entries kept (newest). Default 1000. */
  journalLimit?: number;
  /** Reload the spec and fixtures when their files change. Default true. */
  watch?: boolean;
  /** Bearer token required on /__admin; mandatory when bound to a non-loopback address (with `compat: 'prism'`, /__admin is off without one). */
  adminToken?: string;
  /** File the coverage report is written to when the server stops. */
  coverageOut?: string;
  /** Answer CORS preflights and reflect Origin. Default true. */
  cors?: boolean;
  /**
   * Stateful mode: resources inferred from the document remember what clients create, update and
   * delete (`POST /plants` then `GET /plants/{id}`). Default false.
   */
  stateful?: boolean;
  /** Stateful mode's resources are loaded from this file at start and written to it after changes (implies `stateful`). */
  stateFile?: string;
  /**
   * Stateful mode starts with data: each resource holds the items of its list operation's
   * documented example, plus this many generated, valid, distinct items. A state file or store
   * that holds state wins over both. Default 0.
   */
  seedItems?: number;
  /**
   * `redis://HOST:PORT/DB`: several stub instances share the stateful store, the journal,
   * coverage and the sticky scenario through this Redis server, and act as one.
   */
  stateStore?: string;
  /** Webhook key (as the document writes it under `webhooks`) -> the URL it is sent to. */
  webhooks?: Record<string, string>;
  /**
   * Hosts a callback may be sent to (its URL comes from the client's request), `*` for any.
   * Default: this machine's names when bound to loopback, and the hosts of the webhook targets.
   */
  callbackHosts?: string[];
  /**
   * The real API (`https://staging.example.com/v2`): requests are forwarded to it, both sides
   * checked against the document, and the mock answers only what it lacks (see docs/proxy.md).
   */
  proxy?: string;
  /** With `proxy`: how long to wait for the upstream's answer headers before a 504, in ms. Default 30000. */
  proxyTimeoutMs?: number;
  /** With `proxy`: a request that breaks the document is refused in the API's error shape, not forwarded. Default false. */
  proxyErrors?: boolean;
  /** With `proxy`: the folder the real API's answers are recorded into as fixtures (created if missing). */
  record?: string;
  /** With `record`: request body fields (by name, at any depth) left out of the recorded `match`, such as `password`, so a recorded login matches any value. */
  recordRedact?: string[];
  /**
   * At shutdown, how long to keep serving after `GET /__admin/ready` turned 503, so a load
   * balancer polling it stops sending first (ms, up to 600000). Default 0.
   */
  drainMs?: number;
  /** `prism`: answer as Prism does where the two differ (docs/compared-with-prism.md). Default: the stub's own choices. */
  compat?: CompatMode;
  /** Every answer generated from the schema alone, as with `Prefer: dynamic=true` (Prism's `-d`). Default false. */
  dynamic?: boolean;
  /** An answer that breaks its own schema is refused with a 500 that lists why (Prism's `--errors`). Default false. */
  errors?: boolean;
}

export type ResolvedOptions = Required<Omit<StubOptions, 'spec' | 'fixtures' | 'delayMs' | 'chaos' | 'chaosFaults' | 'seed' | 'adminToken' | 'coverageOut' | 'log' | 'warn' | 'stateFile' | 'stateStore' | 'webhooks' | 'callbackHosts' | 'proxy' | 'record' | 'compat' | 'dynamic' | 'errors'>> & {
  /** Where the answers follow Prism's conventions instead of the stub's (compat-policy.ts). */
  policy: CompatPolicy;
  /** The document served (the first, with several); the fixtures folder (with several, the one named without a mount path). */
  spec: string;
  fixtures: string;
  /** With several documents (mounted-sources.ts): each with its mount path if given, and the fixtures folders named for one; empty with one. */
  documents: MountedSource[];
  documentFixtures: MountedSource[];
  /** True when no spec was given and none is in the working folder: the package's own Plant Store is served. */
  bundled: boolean;
  /** Whether the fixtures folder was named (a missing folder is then a warning), not the default. */
  fixturesGiven: boolean;
  seed: number | undefined;
  delayMs: number;
  delaySpread: DelaySpread | null;
  /** --chaos; null when off. */
  chaos: Chaos | null;
  adminToken: string | undefined;
  /** Whether /__admin is served: false only in Prism mode bound to a non-loopback address without an admin token. */
  adminApi: boolean;
  coverageOut: string | undefined;
  log: ((line: string) => void) | null;
  /** Notes and warnings: `warn`, else the log; null prints them nowhere. */
  warn: ((line: string) => void) | null;
  stateFile: string | undefined;
  stateStore: string | undefined;
  webhooks: Record<string, string>;
  /** null: the default (see StubOptions). */
  callbackHosts: string[] | null;
  /** The upstream as a URL; null without --proxy. */
  proxy: URL | null;
  record: string | undefined;
};

export { DEFAULTS };

/** The start's line when /__admin is off (see `adminApi`): what happened and how to undo it. */
export const ADMIN_OFF_NOTE = 'admin API off: bound beyond this machine without an admin token; set STUB_ADMIN_TOKEN (or --admin-token) to turn it on';

/** The Plant Store document and fixtures shipped with the package (dist/config/ -> the package root). */
export const BUNDLED = {
  spec: fileURLToPath(new URL('../../openapi.yaml', import.meta.url)),
  fixtures: fileURLToPath(new URL('../../fixtures', import.meta.url)),
};

export function resolveOptions(options: StubOptions = {}): ResolvedOptions {
  // A first run in an empty folder (`npx plant-store-stub`, or startStub() from another project)
  // serves the bundled Plant Store instead of failing on a file the user never meant to name.
  const bundled = options.spec === undefined && !existsSync(DEFAULTS.spec);
  const { first, documents, wholeFolder, documentFixtures } = resolveDocuments(options);
  const log = options.log === true ? (line: string) => void process.stdout.write(line + '\n') : typeof options.log === 'function' ? options.log : null;
  const resolved: ResolvedOptions = {
    bundled,
    fixturesGiven: wholeFolder !== undefined,
    spec: first ?? (bundled ? BUNDLED.spec : DEFAULTS.spec),
    documents,
    documentFixtures,
    overlays: options.overlays ?? [],
    fixtures: wholeFolder ?? (bundled && !existsSync(DEFAULTS.fixtures) ? BUNDLED.fixtures : DEFAULTS.fixtures),
    port: options.port ?? DEFAULTS.port,
    host: options.host ?? DEFAULTS.host,
    tokens: options.tokens ?? [],
    seed: options.seed,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxStateBytes: options.maxStateBytes ?? DEFAULTS.maxStateBytes,
    ...resolveDelay(options.delayMs ?? DEFAULTS.delayMs),
    chaos: resolveChaos(options.chaos, options.chaosFaults),
    streamIntervalMs: options.streamIntervalMs ?? DEFAULTS.streamIntervalMs,
    streamMaxEvents: options.streamMaxEvents ?? DEFAULTS.streamMaxEvents,
    log,
    warn: options.warn ?? log,
    journalLimit: options.journalLimit ?? DEFAULTS.journalLimit,
    logFormat: options.logFormat ?? DEFAULTS.logFormat,
    strict: options.strict ?? DEFAULTS.strict,
    watch: options.watch ?? DEFAULTS.watch,
    adminToken: options.adminToken,
    adminApi: true,
    coverageOut: options.coverageOut,
    cors: options.cors ?? DEFAULTS.cors,
    // A store to fill or to keep is asking for stateful mode (the CLI says it turned it on).
    stateful: options.stateful ?? (options.stateFile !== undefined || (options.seedItems ?? 0) > 0),
    stateFile: options.stateFile,
    seedItems: options.seedItems ?? 0,
    stateStore: options.stateStore,
    webhooks: options.webhooks ?? {},
    callbackHosts: options.callbackHosts ?? null,
    proxy: options.proxy === undefined ? null : proxyUrl(options.proxy),
    proxyTimeoutMs: options.proxyTimeoutMs ?? DEFAULTS.proxyTimeoutMs,
    proxyErrors: options.proxyErrors ?? DEFAULTS.proxyErrors,
    record: options.record,
    recordRedact: options.recordRedact ?? [],
    drainMs: options.drainMs ?? DEFAULTS.drainMs,
    policy: compatPolicy(options),
  };
  if (resolved.record !== undefined && resolved.proxy === null) throw new ConfigError('record', 'records the real API\'s answers, so it needs --proxy URL');
  if (resolved.recordRedact.length > 0 && resolved.record === undefined) throw new ConfigError('recordRedact', 'leaves fields out of what --record writes, so it needs --record DIR');
  if (resolved.recordRedact.some((field) => typeof field !== 'string' || field === '')) throw new ConfigError('recordRedact', 'must be field names, e.g. password,card_number');
  if (resolved.coverageOut !== undefined) checkFolderOf('coverageOut', resolved.coverageOut, 'report');
  if (resolved.stateFile !== undefined) {
    checkFolderOf('stateFile', resolved.stateFile, 'state');
    checkWritable('stateFile', resolved.stateFile);
  }
  if (resolved.seedItems > 0 && !resolved.stateful) throw new ConfigError('seedItems', 'fills stateful mode\'s store, and stateful mode is off (stateful: false); leave one of them out');
  if (resolved.stateStore !== undefined && !/^rediss?:\/\/[^/\s]+(\/\d+)?\/?$/.test(resolved.stateStore)) {
    throw new ConfigError('stateStore', `must be redis://HOST:PORT/DB, got ${resolved.stateStore}`);
  }
  for (const [name, url] of Object.entries(resolved.webhooks)) {
    if (!isWebhookUrl(url)) throw new ConfigError('webhooks', `${name}: the target must be an http:// or https:// URL, got ${url}`);
  }
  if (resolved.callbackHosts?.some((host) => typeof host !== 'string' || !/^(\*|[^\s/,]+)$/.test(host))) {
    throw new ConfigError('callbackHosts', `must be host names or addresses (example.com, 10.0.0.5, ::1), or *; got ${resolved.callbackHosts.join(',')}`);
  }
  if (resolved.stateStore !== undefined && resolved.stateFile !== undefined) {
    throw new ConfigError('stateFile', 'cannot be combined with a state store: Redis keeps the state; choose one');
  }
  if (resolved.logFormat !== 'text' && resolved.logFormat !== 'json') throw new ConfigError('logFormat', `must be text or json, got ${String(resolved.logFormat)}`);
  if (!Array.isArray(resolved.overlays) || resolved.overlays.some((file) => typeof file !== 'string' || file === '')) throw new ConfigError('overlays', 'must be a list of overlay file paths');
  wholeNumber('port', resolved.port, 0, 65535);
  wholeNumber('maxBodyBytes', resolved.maxBodyBytes, 1, 1024 ** 3);
  wholeNumber('maxStateBytes', resolved.maxStateBytes, 1, 16 * 1024 ** 3);
  wholeNumber('streamIntervalMs', resolved.streamIntervalMs, 0, 60_000);
  wholeNumber('streamMaxEvents', resolved.streamMaxEvents, 1, 10_000);
  wholeNumber('journalLimit', resolved.journalLimit, 0, 1_000_000);
  wholeNumber('proxyTimeoutMs', resolved.proxyTimeoutMs, 1, 600_000);
  wholeNumber('drainMs', resolved.drainMs, 0, 600_000);
  // Up to the items a stateful store keeps per resource (engine/answer-from-state.ts); --max-state caps their bytes.
  wholeNumber('seedItems', resolved.seedItems, 0, 100_000);
  if (resolved.seed !== undefined) wholeNumber('seed', resolved.seed, 0, 2 ** 31 - 1);
  if (resolved.tokens.some((token) => typeof token !== 'string' || token.trim() === '' || /\s/.test(token))) {
    throw new ConfigError('tokens', 'each token must be a non-empty string without spaces');
  }
  if (resolved.adminToken !== undefined && resolved.adminToken.trim() === '') throw new ConfigError('adminToken', 'must not be empty');
  if (!isLoopbackName(resolved.host) && resolved.adminToken === undefined) {
    if (resolved.policy.exposedWithoutAdminToken === 'refuse') {
      throw new ConfigError('host', `binding to ${resolved.host} exposes /__admin to the network; set an admin token (--admin-token) to protect it`);
    }
    resolved.adminApi = false;
  }
  return resolved;
}

/** Where a webhook may be sent: an absolute http(s) URL. */
export function isWebhookUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** --proxy: an absolute http(s) URL without credentials, query or fragment (they would be sent to every request). */
function proxyUrl(text: string): URL {
  if (!isWebhookUrl(text)) throw new ConfigError('proxy', `must be an http:// or https:// URL, got ${text}`);
  const url = new URL(text);
  if (url.username !== '' || url.password !== '') throw new ConfigError('proxy', 'must not hold credentials; clients send their own, and they are forwarded');
  if (url.search !== '' || url.hash !== '') throw new ConfigError('proxy', `must not hold a query or fragment, got ${text}`);
  return url;
}
