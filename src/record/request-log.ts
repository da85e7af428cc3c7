// One concise line per request, written in batches: stdout to a pipe or a terminal is a
// synchronous write, which per request would cost more than the whole pipeline under load, so
// lines are buffered and flushed every few milliseconds.
import type { StubRequest } from '../shared/plain-http.js';
import type { StubResponse } from '../engine/stub-response.js';

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

export function formatRequestLine(request: StubRequest, response: StubResponse, durationMs: number): string {
  const base = `${request.method} ${truncate(request.path, 200)} ${response.status} ${durationMs.toFixed(1)}ms`;
  const source = response.source && response.source !== 'echo' ? ` [${response.source}]` : '';
  const violations = response.status >= 400 && response.violations.length > 0 ? ` ${truncate(response.violations.join('; '), 500)}` : '';
  return base + source + violations;
}

export function formatSelfCheck(request: StubRequest, response: StubResponse): string {
  return `SELF-CHECK FAILED ${request.method} ${truncate(request.path, 200)} -> ${response.status} [${response.source}]: the response breaks the spec: ${truncate(response.selfCheck.join('; '), 2000)}`;
}

/** Cut to `max` characters, control characters escaped: client text must not forge log lines. */
function truncate(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return /[\x00-\x1f\x7f]/.test(cut) ? cut.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : cut;
}
