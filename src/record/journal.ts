// The request journal: what clients sent and what they got, newest N kept. An entry holds the
// request's raw body bytes and the answer's body text, both capped, and the outcome of the answer;
// bodies are parsed (numbers exact) only when someone reads the journal, so recording stays cheap.
import { parseExactJson } from '../common/exact-json.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';
import { NO_SECRETS, type Secrets } from '../openapi/secrets.js';
import { setOwn } from '../common/json-value.js';
import { utf8Text } from '../common/bytes.js';

/** Bodies above this many bytes are journaled truncated, and marked so. */
export const JOURNAL_BODY_CAP = 16 * 1024;

/**
 * What the journal keeps of one request and its answer, in one object: the request's parts as
 * they came (the headers object is not copied), where its body's copy lies in a slab, the
 * answer's outcome and its body's text up to the cap (plus one character, to know it was cut).
 * One object, not three, and offsets instead of a view: every entry outlives a few young-generation
 * collections (the journal keeps the last 1,000), so each object it holds is copied and promoted;
 * perf's on-CPU samples of POST /plants had the stub's GC at 2.7-3.0 µs per request against the
 * node:http reference's 1.1 (bench/perf-profile.js, issue 22).
 */
interface Recorded extends Pick<EngineResponse, 'status' | 'scenario' | 'violations' | 'selfCheck' | 'fault' | 'abandoned' | 'stateChange' | 'proxy'> {
  method: string;
  path: string;
  rawQuery: string;
  headers: PlainRequest['headers'];
  /** The request body's copy: `bodySlab` from `bodyStart` to `bodyEnd`. */
  bodySlab: Uint8Array;
  bodyStart: number;
  bodyEnd: number;
  responseBody: string;
  durationMs: number;
  time: number;
}

export interface JournalEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[]>;
  body: unknown;
  bodyTruncated?: true;
  status: number;
  /** The answer's body as the request body is kept (JSON parsed, numbers exact; else text; null for none), cut at the same cap. */
  responseBody: unknown;
  responseBodyTruncated?: true;
  scenario: string | null;
  violations: string[];
  selfCheck?: string[];
  /** The fault injected instead of a clean answer (X-Mock-Fault or a fixture): `status` was never sent. */
  fault?: string;
  /** The client closed the connection before its delayed answer was sent: `status` was never sent. */
  abandoned?: true;
  /** Stateful mode: what this request did to the stored resources (`create`, `replace`, `merge`, `delete`). */
  stateChange?: { action: string; resource: string; id: string };
  /** --proxy: `proxy` when the real API's answer (or the stub's 502/504 for it) was sent, `mock` when the mock answered. */
  source?: 'proxy' | 'mock';
  /** --proxy: `forwarded`, `refused`, `timeout`, `bad gateway`, or `fallback (…)` and why. */
  proxy?: string;
  /** --proxy: where the request was forwarded (without its query). */
  target?: string;
  /** --proxy: false for a request of an operation the document does not describe. */
  documented?: boolean;
  upstreamStatus?: number;
  /** --proxy: what the upstream's answer breaks of the document. */
  responseViolations?: string[];
  /** --proxy: answer fields the document does not declare (drift). */
  undeclared?: string[];
  /** --proxy: why the answer's body was not checked whole. */
  unchecked?: string;
  durationMs: number;
  time: string;
}

export interface JournalFilter {
  method?: string;
  path?: string;
  status?: number;
}

/** The journal's bodies are copied into slabs of this size, one allocation for many small bodies. */
const SLAB_BYTES = 64 * 1024;
const NO_BYTES = new Uint8Array(0);

/**
 * Copies bodies into shared slabs. A body from the socket can be a view into a 64 KiB read buffer,
 * which an entry holding it would keep alive; a copy of its own cost an ArrayBuffer allocation per
 * request, the largest part of recording in a CPU profile of POST /plants. Entries leave the ring
 * oldest first, as slabs fill, so what stays alive is about the bodies kept plus one slab.
 */
class BodySlabs {
  private slab = new Uint8Array(SLAB_BYTES);
  private used = 0;

  /** Copies the body (up to the cap, plus one byte) into `into`'s slab fields. */
  copy(body: Uint8Array, into: Recorded): void {
    const size = Math.min(body.length, JOURNAL_BODY_CAP + 1);
    if (size === 0) {
      into.bodySlab = NO_BYTES;
      into.bodyStart = into.bodyEnd = 0;
      return;
    }
    if (this.used + size > SLAB_BYTES) {
      this.slab = new Uint8Array(SLAB_BYTES);
      this.used = 0;
    }
    this.slab.set(size === body.length ? body : body.subarray(0, size), this.used);
    into.bodySlab = this.slab;
    into.bodyStart = this.used;
    into.bodyEnd = this.used += size;
  }
}

export class Journal {
  private readonly entries: Recorded[] = [];
  private start = 0;
  private readonly bodies = new BodySlabs();

  constructor(private readonly limit: number) {}

  /** `time`: when the answer was sent (ms since the epoch), if not now. */
  record(request: PlainRequest, response: EngineResponse, durationMs: number, time = Date.now()): void {
    if (this.limit <= 0) return;
    // The parts are named one by one, not spread: the request's other fields (a multipart body's
    // parts) are not kept, and a literal of known shape costs less per request. The body is
    // copied (at most the cap, plus one byte to know it was cut) into the journal's slabs.
    const { method, path, rawQuery, headers } = request;
    const { status, scenario, violations, selfCheck, fault, abandoned, stateChange, proxy } = response;
    const entry: Recorded = {
      method, path, rawQuery, headers, bodySlab: NO_BYTES, bodyStart: 0, bodyEnd: 0,
      status, scenario, violations, selfCheck, fault, abandoned, stateChange, proxy, responseBody: cappedText(response.body),
      durationMs, time,
    };
    this.bodies.copy(request.body, entry);
    // A ring buffer: once full, the oldest slot is overwritten, so memory stays bounded.
    if (this.entries.length < this.limit) this.entries.push(entry);
    else {
      this.entries[this.start] = entry;
      this.start = (this.start + 1) % this.limit;
    }
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
    this.start = 0;
  }

  /** The entry recorded last, credentials redacted (for live views); undefined when there is none. */
  latest(secrets: Secrets = NO_SECRETS): JournalEntry | undefined {
    if (this.entries.length === 0) return undefined;
    const index = this.entries.length < this.limit ? this.entries.length - 1 : (this.start + this.limit - 1) % this.limit;
    return describe(this.entries[index], secrets);
  }

  /** Entries oldest first, optionally filtered, with credentials redacted. */
  list(filter: JournalFilter = {}, secrets: Secrets = NO_SECRETS): JournalEntry[] {
    const ordered = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    return ordered
      .filter((recorded) =>
        (filter.method === undefined || recorded.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || recorded.path === filter.path) &&
        (filter.status === undefined || recorded.status === filter.status))
      .map((recorded) => describe(recorded, secrets));
  }
}

function describe(recorded: Recorded, secrets: Secrets): JournalEntry {
  const { durationMs, time } = recorded;
  const requestBody = recorded.bodySlab.subarray(recorded.bodyStart, recorded.bodyEnd);
  const entry: JournalEntry = {
    method: recorded.method,
    path: recorded.path,
    query: queryObject(recorded.rawQuery, secrets.query),
    headers: redact(recorded.headers, secrets.headers),
    body: null,
    status: recorded.status,
    responseBody: null,
    scenario: recorded.scenario,
    violations: recorded.violations,
    durationMs: Math.round(durationMs * 1000) / 1000,
    time: new Date(time).toISOString(),
  };
  if (recorded.selfCheck.length > 0) entry.selfCheck = recorded.selfCheck;
  if (recorded.fault) entry.fault = recorded.fault;
  if (recorded.abandoned) entry.abandoned = true;
  if (recorded.stateChange) entry.stateChange = { action: recorded.stateChange.action, resource: recorded.stateChange.resource, id: recorded.stateChange.id };
  if (recorded.proxy) describeProxy(entry, recorded.proxy);
  const truncated = requestBody.length > JOURNAL_BODY_CAP;
  const text = utf8Text(requestBody.subarray(0, JOURNAL_BODY_CAP));
  if (truncated) {
    entry.body = text;
    entry.bodyTruncated = true;
  } else if (text !== '') {
    entry.body = parseBody(text);
  }
  if (recorded.responseBody.length > JOURNAL_BODY_CAP) {
    entry.responseBody = recorded.responseBody.slice(0, JOURNAL_BODY_CAP);
    entry.responseBodyTruncated = true;
  } else if (recorded.responseBody !== '') {
    entry.responseBody = parseBody(recorded.responseBody);
  }
  return entry;
}

/**
 * An answer's text up to the cap, plus one character. A longer one is copied out: a slice would
 * keep the whole text alive (V8 slices point into their parent) for as long as the entry lives.
 */
function cappedText(text: string): string {
  if (text.length <= JOURNAL_BODY_CAP) return text;
  return textDecoder.decode(textEncoder.encode(text.slice(0, JOURNAL_BODY_CAP + 1)));
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

function describeProxy(entry: JournalEntry, note: NonNullable<Recorded['proxy']>): void {
  entry.source = note.outcome.startsWith('fallback') ? 'mock' : 'proxy';
  entry.proxy = note.outcome;
  entry.target = note.target;
  entry.documented = note.documented;
  if (note.upstreamStatus !== undefined) entry.upstreamStatus = note.upstreamStatus;
  entry.responseViolations = note.responseViolations;
  if (note.undeclared.length > 0) entry.undeclared = note.undeclared;
  if (note.unchecked) entry.unchecked = note.unchecked;
}

function parseBody(text: string): unknown {
  try {
    const parsed = parseExactJson(text);
    return parsed.exact ?? parsed.value;
  } catch {
    return text; // not JSON: journaled as the text received
  }
}

function queryObject(rawQuery: string, secret: ReadonlySet<string>): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, raw] of new URLSearchParams(rawQuery)) {
    const value = secret.has(key) ? '[redacted]' : raw;
    // Own properties only: `?constructor=x` must not find Object.prototype.constructor.
    const existing = Object.hasOwn(query, key) ? query[key] : undefined;
    setOwn(query, key, existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]);
  }
  return query;
}

/** Keeps the scheme of an Authorization header (a test may assert it) but never the credentials. */
function redacted(name: string, value: string | string[]): string {
  const scheme = name.endsWith('authorization') && typeof value === 'string' ? /^\S+(?=\s)/.exec(value)?.[0] : undefined;
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}

function redact(headers: Recorded['headers'], secret: ReadonlySet<string>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = secret.has(name) ? redacted(name, value) : value;
  }
  return result;
}
