// One concise line per request, written in batches: a synchronous write per request would cost
// more than the whole pipeline under load, so lines are buffered and flushed once per tick.
import type { StubRequest, StubResponse } from '../engine/types.js';

export type LogSink = (line: string) => void;

/** Buffers lines and hands them to `sink` joined, at most once per event-loop turn. */
export function batchedSink(write: (text: string) => void): LogSink & { flush(): void } {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('\n') + '\n';
    pending = [];
    write(text);
  };
  const sink = (line: string) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line);
  };
  return Object.assign(sink, { flush });
}

export function formatRequestLine(request: StubRequest, response: StubResponse, durationMs: number): string {
  const base = `${request.method} ${truncate(request.path, 200)} ${response.status} ${durationMs.toFixed(1)}ms`;
  const scenario = response.scenario && response.scenario !== 'echo' ? ` [${response.scenario}]` : '';
  const violations = response.status >= 400 && response.violations.length > 0 ? ` ${truncate(response.violations.join('; '), 500)}` : '';
  return base + scenario + violations;
}

export function formatSelfCheck(request: StubRequest, response: StubResponse): string {
  return `SELF-CHECK FAILED ${request.method} ${request.path} -> ${response.status} [${response.scenario}]: the response breaks the spec: ${response.selfCheck.join('; ')}`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
