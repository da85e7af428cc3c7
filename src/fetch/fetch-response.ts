// The fetch adapter's way out: the engine's EngineResponse as a standard Response, after its delay,
// with the faults a client's resilience test asks for (decided in common/faults.ts, as for the
// server) made of what fetch has (a network error, a body that breaks off, an answer that never
// comes). The counterpart of serve-request.ts's send.
import type { EngineResponse } from '../engine/engine-response.js';
import { eventDelay, eventText, type StreamBody } from '../common/stream-events.js';
import { planFault } from '../common/faults.js';

/** Statuses whose Response may carry no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Waits `ms` (the answer's scripted delay); rejects with the signal's reason when the client gives up first. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** Whether `toResponse` sends the answer's events one by one (a stream, without a fault, with a body). */
export function sendsEvents(response: EngineResponse, method: string): boolean {
  return response.stream !== undefined && response.fault === undefined && method !== 'HEAD' && !NULL_BODY.has(response.status);
}

/**
 * The answer as a Response; a header value fetch refuses (outside Latin-1) throws, for the caller
 * to answer its 500 instead, as the server does when Node refuses one. `ended`: for a stream whose
 * events are sent one by one, called once with the text of the events sent, when the last is
 * out or the client cancelled.
 */
export function toResponse(response: EngineResponse, method: string, ended: (sent: string) => void = () => {}): Response {
  const headers = new Headers(response.headers);
  const body = method === 'HEAD' || NULL_BODY.has(response.status) ? null : response.body;
  // A fault as common/faults.ts plans it (`hold`, the timeout, is the handler's: it never answers).
  const fault = response.fault === undefined ? null : planFault(response.fault, response.body);
  switch (fault?.kind) {
    case 'drop':
      return Response.error();
    case 'breakOff':
      return new Response(sentThenBreak(fault.sent), { status: response.status, headers });
    case 'broken':
      return new Response(fault.body, { status: response.status, headers });
    default:
      // A stream's events arrive one by one, as from the server (write-stream.ts).
      return new Response(sendsEvents(response, method) ? eventStream(response.stream!, ended) : body, { status: response.status, headers });
  }
}

/** `sent` (the first half of the body), then an error: the client's read fails mid-body, as when the server hangs up. */
function sentThenBreak(sent: string): ReadableStream<Uint8Array> {
  const half = new TextEncoder().encode(sent);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new TypeError('the stub closed the connection mid-body (fault: close)'));
    },
  });
}

/**
 * The events of a streamed answer, each after its delay, pushed whether or not the client reads
 * yet (as the server writes them), so the stream ends, and is journaled, on its own time;
 * cancelling the body (the client leaving) stops the timers.
 */
function eventStream(stream: StreamBody, ended: (sent: string) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let sent = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    ended(sent);
  };
  return new ReadableStream({
    start(controller) {
      const next = (index: number) => {
        if (index >= stream.count) {
          end();
          return controller.close();
        }
        timer = setTimeout(() => {
          if (over) return;
          const text = eventText(stream.format, stream.event(index));
          controller.enqueue(encoder.encode(text));
          sent += text;
          next(index + 1);
        }, eventDelay(stream, index));
      };
      next(0);
    },
    cancel() {
      end();
    },
  });
}

/** The `timeout` fault: no answer until the client gives up (its signal aborts). */
export function never(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
