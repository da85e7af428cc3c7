// --record DIR: the real API's answers become fixtures in the format the stub loads (one file per
// operation), so `--fixtures DIR` replays them offline. Each distinct request (path, query, body)
// and status is one scenario whose `match` is that request; a repeat updates it. Credentials never
// reach a file: only path, declared query (API-key parameters left out) and body go into `match`,
// and only the answer's documented headers (never Set-Cookie) into the scenario. An answer that
// breaks the document is written commented out, naming its violations, so it is not served.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { ConfigError } from '../config/config-error.js';
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { Secrets } from '../openapi/secrets.js';
import { CHECK_CAP_BYTES } from './check-answer.js';
import { isExactObject } from '../common/exact-json.js';

/** Bodies above this are not recorded: a fixture is something to read and edit (the proxy's check cap, so a recorded body is a checked one). */
export const RECORD_BODY_CAP = CHECK_CAP_BYTES;
/** Files are written at most this long after an exchange. */
const WRITE_AFTER_MS = 1_000;
/**
 * What one operation's file keeps, at most: a recording session against a busy API (every
 * distinct request a scenario) must not grow memory and the file without end. Past either, a
 * new distinct request is not recorded (said once); a repeat of a recorded one still updates it.
 */
export const MAX_SCENARIOS_PER_FILE = 200;
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** One exchange worth recording: a documented, valid request and the upstream's answer. */
export interface RecordedExchange {
  operation: CompiledOperation;
  pathParams: Record<string, string>;
  rawQuery: string;
  /** The request's JSON body (parsed), undefined when it had none. */
  requestBody: unknown;
  status: number;
  plan: ResponsePlan;
  headers: Record<string, string | string[] | undefined>;
  /** The answer's JSON body (parsed), undefined when it had none. */
  body: unknown;
  violations: readonly string[];
}

interface Recorded {
  name: string;
  match: Record<string, unknown>;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  violations: readonly string[];
  /** About what it takes in the file (its match, body and headers as JSON). */
  bytes: number;
}

export class FixtureRecorder {
  /** Operation key -> request and status key -> scenario, in the order first seen. */
  private readonly files = new Map<string, { operation: CompiledOperation; scenarios: Map<string, Recorded>; bytes: number }>();
  /** The write in progress: one at a time, so an older text never lands over a newer one. */
  private writing: Promise<void> | null = null;
  /** The files the write in progress is writing; set once flush() took over at shutdown. */
  private inFlight: string[] = [];
  private flushed = false;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly skipped = new Set<string>();

  /** `redact`: request body fields (`--record-redact`) never written into a `match`. */
  constructor(readonly dir: string, private readonly secrets: () => Secrets, private readonly warn: (line: string) => void, private readonly redact: readonly string[] = []) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw new ConfigError('record', `cannot create the folder ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }

  add(exchange: RecordedExchange): void {
    const { operation } = exchange;
    let file = this.files.get(operation.key);
    if (!file) this.files.set(operation.key, (file = { operation, scenarios: new Map(), bytes: 0 }));
    const match = matchOf(exchange, this.secrets(), new Set(this.redact));
    const key = JSON.stringify([match, exchange.status]);
    const existing = file.scenarios.get(key);
    const recorded: Recorded = { name: existing?.name ?? '', match, status: exchange.status, headers: documentedHeaders(exchange), body: exchange.body, violations: exchange.violations, bytes: 0 };
    recorded.bytes = key.length + JSON.stringify(recorded.body ?? null).length + JSON.stringify(recorded.headers).length;
    const bytes = file.bytes - (existing?.bytes ?? 0) + recorded.bytes;
    if (!existing && file.scenarios.size >= MAX_SCENARIOS_PER_FILE) return this.skip(operation, `its file holds ${MAX_SCENARIOS_PER_FILE} scenarios, the most --record keeps per operation; answers to requests already recorded still update theirs`);
    if (bytes > MAX_FILE_BYTES) return this.skip(operation, `its file would pass ${MAX_FILE_BYTES / 1024 / 1024} MiB, the most --record keeps per operation; answers to requests already recorded still update theirs`);
    recorded.name ||= uniqueName(scenarioName(operation, exchange), file.scenarios);
    file.scenarios.set(key, recorded);
    file.bytes = bytes;
    this.dirty.add(operation.key);
    this.timer ??= setTimeout(() => void this.writeChanged(), WRITE_AFTER_MS).unref();
  }

  /** Says why an exchange was left out, once per operation and reason. */
  skip(operation: CompiledOperation, reason: string): void {
    const key = `${operation.key} ${reason}`;
    if (this.skipped.has(key)) return;
    this.skipped.add(key);
    this.warn(`warning: --record: an answer of ${operation.key} was not recorded: ${reason}`);
  }

  /**
   * Writes the changed files in the background (answers keep flowing while a large file is
   * written), one write at a time; changes made meanwhile wait for the next.
   */
  private async writeChanged(): Promise<void> {
    this.timer = null;
    if (this.writing) {
      await this.writing;
      if (this.dirty.size === 0) return;
    }
    this.inFlight = [...this.dirty];
    this.dirty.clear();
    this.writing = (async () => {
      for (const key of this.inFlight) {
        const { path, text } = this.fileText(key);
        const partial = `${path}.${process.pid}.writing`;
        try {
          await writeFile(partial, text);
          // flush() has written everything at shutdown, this file's newest text included.
          if (this.flushed) return void (await unlink(partial).catch(() => {}));
          await rename(partial, path);
        } catch (error) {
          this.cannotWrite(path, error);
        }
      }
    })();
    await this.writing;
    this.writing = null;
    this.inFlight = [];
  }

  /** Writes every changed file now, synchronously (at shutdown, when nothing waits for an answer). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushed = true;
    for (const key of new Set([...this.inFlight, ...this.dirty])) {
      const { path, partial, text } = this.fileText(key);
      try {
        writeFileSync(partial, text);
        renameSync(partial, path);
      } catch (error) {
        this.cannotWrite(path, error);
      }
    }
    this.dirty.clear();
  }

  /** An operation's file: where it goes, where it is written first (then renamed over it, so a reader never sees half a file), and its text. */
  private fileText(key: string): { path: string; partial: string; text: string } {
    const file = this.files.get(key)!;
    const path = join(this.dir, `${fileName(file.operation)}.yaml`);
    return { path, partial: `${path}.${process.pid}.partial`, text: fixtureText(file.operation, [...file.scenarios.values()]) };
  }

  private cannotWrite(path: string, error: unknown): void {
    this.warn(`warning: --record: could not write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The request as a `match`: path parameters, the declared query parameters that are no credentials, the body. */
function matchOf({ operation, pathParams, rawQuery, requestBody }: RecordedExchange, secrets: Secrets, redact: ReadonlySet<string>): Record<string, unknown> {
  const match: Record<string, unknown> = {};
  if (Object.keys(pathParams).length > 0) match.path = { ...pathParams };
  const declared = new Set(operation.validateParameters.declared.filter((p) => p.location === 'query').map((p) => p.name));
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (!declared.has(name) || secrets.query.has(name)) continue;
    const before = query[name];
    query[name] = before === undefined ? value : [before, value].flat();
  }
  if (Object.keys(query).length > 0) match.query = query;
  if (requestBody !== undefined) match.body = redact.size > 0 ? withoutFields(requestBody, redact) : requestBody;
  return match;
}

/**
 * The body without the named fields, at any depth: a `match` body is a subset of the request's, so
 * a field left out matches whatever value is sent (a recorded login matches any password).
 */
function withoutFields(value: unknown, fields: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutFields(item, fields));
  if (!isExactObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.has(key)).map(([key, inner]) => [key, withoutFields(inner, fields)]));
}

/** Only what the document lists for the answer, and never a cookie. */
function documentedHeaders({ plan, headers }: RecordedExchange): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const { name } of plan.headers) {
    const value = headers[name];
    if (value !== undefined && name !== 'set-cookie') kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/** `getPlant` + id 1 -> `get-plant-1`; `createPlant` answered 400 -> `create-plant-400`. */
function scenarioName(operation: CompiledOperation, { pathParams, status }: RecordedExchange): string {
  const base = operation.operationId !== null ? kebab(operation.operationId) : `${operation.method.toLowerCase()}${kebab(operation.path.replace(/\{[^}]*\}/g, ''))}`;
  const parts = [base, ...Object.values(pathParams).map(kebab)];
  if (status < 200 || status > 299) parts.push(String(status));
  return parts.filter(Boolean).join('-').replace(/-+/g, '-').slice(0, 80);
}

function uniqueName(name: string, scenarios: Map<string, Recorded>): string {
  const taken = new Set([...scenarios.values()].map((s) => s.name));
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name}-${n}`)) n++;
  return `${name}-${n}`;
}

/** Visible ASCII words joined by `-`, as scenario names must be. */
function kebab(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function fileName(operation: CompiledOperation): string {
  return operation.operationId !== null ? kebab(operation.operationId) || 'operation' : kebab(`${operation.method} ${operation.path}`);
}

function fixtureText(operation: CompiledOperation, scenarios: Recorded[]): string {
  const served = scenarios.some((scenario) => scenario.violations.length === 0);
  const lines = [`# Recorded by plant-store-stub --record from the real API's answers; replay with --fixtures.`, dump({ operation: operation.key }).trimEnd(), served ? 'scenarios:' : 'scenarios: {}'];
  for (const { name, match, status, headers, body, violations } of scenarios) {
    const scenario: Record<string, unknown> = { match, status };
    if (Object.keys(headers).length > 0) scenario.headers = headers;
    if (body !== undefined) scenario.body = body;
    const text = dump({ [name]: scenario }, { lineWidth: -1 }).trimEnd().split('\n').map((line) => `  ${line}`);
    if (violations.length === 0) {
      lines.push(...text);
      continue;
    }
    // Not served: the loader would refuse it, and a stub must not serve what its document forbids.
    lines.push(`  # breaks the document, so it is not served (fix it, or the document, and uncomment it):`);
    for (const violation of violations) lines.push(`  #   ${violation.replace(/\n/g, ' ')}`);
    lines.push(...text.map((line) => `  # ${line.slice(2)}`));
  }
  return lines.join('\n') + '\n';
}
