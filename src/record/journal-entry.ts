// A journal entry as its readers see it (GET /__admin/requests, stub.requests(), the live
// stream, the whole server's journal in Redis), made from what the journal keeps of an answer: its
// outcome, and its texts, whether read back from the journal's slabs or taken from the request
// itself; credentials redacted, bodies parsed with their numbers exact.
import { parseExactJson } from '../common/exact-json.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { Secrets } from '../openapi/secrets.js';
import { setOwn } from '../common/json-value.js';
import { utf8Text } from '../common/bytes.js';
import type { RecordedTexts, TextSpans } from './journal-texts.js';
import type { Answered } from './answered.js';

/** Bodies above this many bytes are journaled truncated, and marked so. */
export const JOURNAL_BODY_CAP = 16 * 1024;

/**
 * What the journal keeps of one request and its answer: the answer's outcome, and where the
 * request's texts and the answer's body lie in the journal's slabs (journal-texts.ts says why
 * bytes). The objects themselves are made once per slot of the ring and written over as it turns,
 * so recording allocates nothing that lives on; the outcome's fields are the engine's values,
 * shared between answers (empty lists are one frozen array).
 */
export interface Recorded extends TextSpans, Pick<EngineResponse, 'status' | 'scenario' | 'refusal' | 'session' | 'delayMs' | 'violations' | 'selfCheck' | 'fault' | 'abandoned' | 'stateChange' | 'proxy'> {
  method: string;
  /** With several documents: the name of the one whose operation answered; null with one. */
  document: string | null;
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
  /** Where the answer came from; a scripted one says where it stands: `unavailable (2 of 3)`. */
  scenario: string | null;
  /** A refused request: the refusal by its name (`invalid`, `unauthenticated`, `unknownScenario`, `storeFull`…), as the JSON log line names it; absent otherwise. */
  refusal?: string;
  /** The request's session (X-Mock-Session); absent for the default one. */
  session?: string;
  /** The wait before the answer (scripted, drawn from a spread, or --delay); absent when none. */
  delayMs?: number;
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
  /** With --workers or --state-store: the process that answered (`host:pid`). */
  instance?: string;
  /** With several documents on one port: the name of the one whose operation answered. */
  document?: string;
}

/** Fills a slot's outcome from the record: the same fields whether the slot is the ring's or made for one entry. */
export function keepOutcome(entry: Recorded, { request, response, durationMs, time }: Answered): void {
  entry.method = request.method;
  entry.status = response.status;
  entry.scenario = response.step === undefined ? response.scenario : `${response.scenario} (${response.step})`;
  entry.refusal = response.refusal;
  entry.session = response.session;
  entry.document = response.operation?.document ?? null;
  entry.delayMs = response.delayMs;
  entry.violations = response.violations;
  entry.selfCheck = response.selfCheck;
  entry.fault = response.fault;
  entry.abandoned = response.abandoned;
  entry.stateChange = response.stateChange;
  entry.proxy = response.proxy;
  entry.durationMs = durationMs;
  entry.time = time;
}

/** The entry of an outcome and its texts (read back from the slabs, or the request's own). */
export function describe(recorded: Recorded, texts: RecordedTexts, secrets: Secrets, instance: string | undefined): JournalEntry {
  const { durationMs, time } = recorded;
  const { path, rawQuery, headers, body: requestBody, answer } = texts;
  const entry: JournalEntry = {
    method: recorded.method,
    path,
    query: queryObject(rawQuery, secrets.query),
    headers: redact(headers, secrets.headers),
    body: null,
    status: recorded.status,
    responseBody: null,
    scenario: recorded.scenario,
    violations: recorded.violations,
    durationMs: Math.round(durationMs * 1000) / 1000,
    time: new Date(time).toISOString(),
  };
  if (instance !== undefined) entry.instance = instance;
  if (recorded.refusal !== undefined) entry.refusal = recorded.refusal;
  if (recorded.session !== undefined) entry.session = recorded.session;
  if (recorded.document !== null) entry.document = recorded.document;
  if (recorded.delayMs > 0) entry.delayMs = recorded.delayMs;
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
  if (answer.length > JOURNAL_BODY_CAP) {
    entry.responseBody = answer.slice(0, JOURNAL_BODY_CAP);
    entry.responseBodyTruncated = true;
  } else if (answer !== '') {
    entry.responseBody = parseBody(answer);
  }
  return entry;
}

/** A slot of the ring before its first record. */
export function emptyEntry(): Recorded {
  return {
    method: '', status: 0, scenario: null, refusal: undefined, session: undefined, document: null, delayMs: 0, violations: [], selfCheck: [], fault: undefined, abandoned: undefined, stateChange: null, proxy: undefined,
    durationMs: 0, time: 0, slab: NO_BYTES, start: 0, pathBytes: 0, queryBytes: 0, headersBytes: 0, bodyBytes: 0, answerBytes: 0,
  };
}

const NO_BYTES = new Uint8Array(0);

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

function redact(headers: Record<string, string | string[]>, secret: ReadonlySet<string>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    // Own property even for `__proto__`, which an assignment would take as the prototype and drop.
    setOwn(result, name, secret.has(name) ? redacted(name, value) : value);
  }
  return result;
}
