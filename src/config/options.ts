// The one options object of the server (startStub, the CLI), with its defaults. The CLI and the
// environment only fill it in; `resolveOptions` checks it once, up front, and everything
// downstream trusts it. The options the engine reads, which the fetch handler takes too, are
// declared and checked in engine-options.ts; the rest, the server's own, here.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-error.js';
import { isLoopbackName } from '../common/loopback.js';
import { wholeNumber } from './whole-number.js';
import { checkFolderOf, checkWritable } from './writable-paths.js';
import { DEFAULTS } from './defaults.js';
import { resolveEngineOptions, type EngineOptions, type ResolvedEngineOptions } from './engine-options.js';
import { resolveDocuments, type MountedSource } from './mounted-sources.js';

export interface StubOptions extends EngineOptions {
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
  /** OpenAPI Overlay files applied to the document, in order, before it is read (watched like it); with several documents, `/orders=fix.yaml` for one of them. Default none. */
  overlays?: string[];
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
  /** Reload the spec and fixtures when their files change. Default true. */
  watch?: boolean;
  /** Bearer token required on /__admin; mandatory when bound to a non-loopback address (with `compat: 'prism'`, /__admin is off without one). */
  adminToken?: string;
  /** File the coverage report is written to when the server stops. */
  coverageOut?: string;
  /** Answer CORS preflights and reflect Origin. Default true. */
  cors?: boolean;
  /** Stateful mode's resources are loaded from this file at start and written to it after changes (implies `stateful`). */
  stateFile?: string;
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
}

export type ResolvedOptions = Required<Omit<StubOptions, keyof EngineOptions | 'spec' | 'fixtures' | 'adminToken' | 'coverageOut' | 'log' | 'warn' | 'stateFile' | 'stateStore' | 'webhooks' | 'callbackHosts' | 'proxy' | 'record'>> & ResolvedEngineOptions & {
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
    ...resolveEngineOptions(options, options.stateFile !== undefined),
    log,
    warn: options.warn ?? log,
    logFormat: options.logFormat ?? DEFAULTS.logFormat,
    watch: options.watch ?? DEFAULTS.watch,
    adminToken: options.adminToken,
    adminApi: true,
    coverageOut: options.coverageOut,
    cors: options.cors ?? DEFAULTS.cors,
    stateFile: options.stateFile,
    stateStore: options.stateStore,
    webhooks: options.webhooks ?? {},
    callbackHosts: options.callbackHosts ?? null,
    proxy: options.proxy === undefined ? null : proxyUrl(options.proxy),
    proxyTimeoutMs: options.proxyTimeoutMs ?? DEFAULTS.proxyTimeoutMs,
    proxyErrors: options.proxyErrors ?? DEFAULTS.proxyErrors,
    record: options.record,
    recordRedact: options.recordRedact ?? [],
    drainMs: options.drainMs ?? DEFAULTS.drainMs,
  };
  checkServerOptions(resolved);
  resolved.adminApi = adminApiOn(resolved);
  return resolved;
}

/** The server's own options checked (the engine's are, in engine-options.ts): a ConfigError names the first wrong one. */
function checkServerOptions(resolved: ResolvedOptions): void {
  if (resolved.record !== undefined && resolved.proxy === null) throw new ConfigError('record', 'records the real API\'s answers, so it needs --proxy URL');
  if (resolved.recordRedact.length > 0 && resolved.record === undefined) throw new ConfigError('recordRedact', 'leaves fields out of what --record writes, so it needs --record DIR');
  if (resolved.recordRedact.some((field) => typeof field !== 'string' || field === '')) throw new ConfigError('recordRedact', 'must be field names, e.g. password,card_number');
  if (resolved.coverageOut !== undefined) checkFolderOf('coverageOut', resolved.coverageOut, 'report');
  if (resolved.stateFile !== undefined) {
    checkFolderOf('stateFile', resolved.stateFile, 'state');
    checkWritable('stateFile', resolved.stateFile);
  }
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
  wholeNumber('proxyTimeoutMs', resolved.proxyTimeoutMs, 1, 600_000);
  wholeNumber('drainMs', resolved.drainMs, 0, 600_000);
}

/** Whether /__admin is served: bound beyond this machine, it needs an admin token (in Prism's mode it is turned off instead). */
function adminApiOn(resolved: ResolvedOptions): boolean {
  if (resolved.adminToken !== undefined && resolved.adminToken.trim() === '') throw new ConfigError('adminToken', 'must not be empty');
  if (isLoopbackName(resolved.host) || resolved.adminToken !== undefined) return true;
  if (resolved.policy.exposedWithoutAdminToken === 'refuse') {
    throw new ConfigError('host', `binding to ${resolved.host} exposes /__admin to the network; set an admin token (--admin-token) to protect it`);
  }
  return false;
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
