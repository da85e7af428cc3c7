// One concise line per request, written in batches: stdout to a pipe or a terminal is a
// synchronous write, which per request would cost more than the whole pipeline under load, so
// lines are buffered and flushed every few milliseconds.
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';

export type LogSink = (line: string) => void;

const FLUSH_EVERY_MS = 20;

/** Buffers lines and hands them to `write` joined, at most every FLUSH_EVERY_MS; `flush` empties it now. */
export function batchedSink(write: (text: string) => void): LogSink & { flush(): void } {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  const sink = (line: string) => {
    if (timer === null) timer = setTimeout(flush, FLUSH_EVERY_MS);
    pending += line + '\n';
  };
  return Object.assign(sink, { flush });
}

export type LogFormat = 'text' | 'json';

export type RequestLineFormatter = (request: PlainRequest, response: EngineResponse, durationMs: number) => string;

export function requestLineFormatter(format: LogFormat): RequestLineFormatter {
  return format === 'json' ? formatRequestJson : formatRequestLine;
}

/** `POST /plants 400 0.2ms [duplicate-id] <violations>`; a fault or an abandoned answer says so instead of a status it never sent. */
export function formatRequestLine(request: PlainRequest, response: EngineResponse, durationMs: number): string {
  const outcome = response.fault ? `fault:${response.fault}` : response.abandoned ? 'abandoned' : String(response.status);
  const base = `${request.method} ${truncate(request.path, 200)} ${outcome} ${durationMs.toFixed(1)}ms`;
  const scenario = response.scenario && response.scenario !== 'echo' ? ` [${truncate(response.scenario, 200)}]` : '';
  if (response.proxy) return base + scenario + proxySuffix(response);
  const violations = response.status >= 400 && response.violations.length > 0 ? ` ${truncate(response.violations.join('; '), 500)}` : '';
  return base + scenario + violations;
}

/** `[proxy: forwarded] request /name: is required; response /water: must be an integer (undeclared: /color)`: every violation, either side, whatever the status. */
function proxySuffix({ proxy, violations }: EngineResponse): string {
  const all = [...violations.map((v) => `request ${v}`), ...proxy!.responseViolations.map((v) => `response ${v}`)];
  const undeclared = proxy!.undeclared.length > 0 ? ` (undeclared: ${truncate(proxy!.undeclared.join(', '), 200)})` : '';
  return ` [proxy: ${proxy!.outcome}]${all.length > 0 ? ` ${truncate(all.join('; '), 500)}` : ''}${undeclared}`;
}

/**
 * One JSON object per line, for log collectors. JSON.stringify escapes C0 controls; the C1 range
 * and the Unicode line separators are escaped as well, so no reader splits a record.
 */
export function formatRequestJson(request: PlainRequest, response: EngineResponse, durationMs: number): string {
  const record: Record<string, unknown> = {
    time: new Date().toISOString(),
    method: request.method,
    path: request.path.slice(0, 2000),
    status: response.status,
    ms: Math.round(durationMs * 10) / 10,
    scenario: response.scenario,
    violations: response.violations.slice(0, 100),
  };
  // The refusal by its name (refusals.ts), for a collector to count or filter on without parsing the violations.
  if (response.refusal) record.refusal = response.refusal;
  if (response.fault) record.fault = response.fault;
  if (response.abandoned) record.abandoned = true;
  if (response.proxy) {
    record.proxy = response.proxy.outcome;
    record.responseViolations = response.proxy.responseViolations.slice(0, 100);
  }
  return oneLineJson(record);
}

/** JSON.stringify, with the characters it leaves as they are that a line-based reader may still split on escaped. */
export function oneLineJson(value: unknown): string {
  return JSON.stringify(value).replace(LINE_BREAKERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatSelfCheck(request: PlainRequest, response: EngineResponse): string {
  return `SELF-CHECK FAILED ${request.method} ${truncate(request.path, 200)} -> ${response.status} [${response.scenario}]: the response breaks the spec: ${truncate(response.selfCheck.join('; '), 2000)}`;
}

/** Characters JSON leaves as they are that a line-based reader may still split on. */
const LINE_BREAKERS = /[\x7f-\x9f\u2028\u2029]/g;
/** Every character that is not printable text: C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');

/** Cut to `max` characters, non-printable characters escaped: client text must not forge log lines. */
function truncate(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return UNPRINTABLE.test(cut) ? cut.replace(UNPRINTABLE_ALL, escapeCharacter) : cut;
}

function escapeCharacter(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
