// A fixture scenario's scripted stream (`events:`), checked at start like a body:
// its status must document a stream media type, and each event's data must fit that stream's item
// schema. An event is a JSON value (its data), or `{data, event?, id?, delay?}`.
import type { ConfigError } from '../config/config-error.js';
import type { ResponsePlan } from '../openapi/compiled-model.js';
import { eventFits, type StreamPlan } from '../openapi/compile-stream.js';
import { isObject } from '../common/json-value.js';
import type { StreamEvent } from '../common/stream-events.js';

const EVENT_KEYS = new Set(['data', 'event', 'id', 'delay']);

/** `problem(pointer, message)`: the scenario's own error, its pointer under the scenario. */
type Problem = (pointer: string, message: string) => ConfigError;

/** The scripted events, ready to send; throws the first problem found. */
export function scriptedEvents(plan: ResponsePlan, raw: unknown, maxDelayMs: number, problem: Problem): StreamEvent[] {
  const variant = plan.variants.find((candidate) => candidate.stream !== null);
  if (variant === undefined) {
    const documented = plan.variants.map((v) => v.contentType).join(', ') || 'no content';
    throw problem('/events', `${plan.key} documents no stream media type (text/event-stream, application/jsonl, application/x-ndjson, application/json-seq), only ${documented}`);
  }
  if (!Array.isArray(raw) || raw.length === 0) throw problem('/events', 'must be a list of events: each a JSON value (its data) or {data, event?, id?, delay?}');
  return raw.map((item, i) => scriptedEvent(variant.stream!, item, maxDelayMs, (pointer, message) => problem(`/events/${i}${pointer}`, message)));
}

function scriptedEvent(stream: StreamPlan, item: unknown, maxDelayMs: number, problem: Problem): StreamEvent {
  const spelledOut = isObject(item) && 'data' in item && Object.keys(item).every((key) => EVENT_KEYS.has(key));
  const data = spelledOut ? item.data : item;
  const shaped = stream.eventShape !== null;
  // The document's terminator may be scripted too (it is added after the last event otherwise).
  const text = data === stream.terminator || (shaped && typeof data === 'string') ? (data as string) : JSON.stringify(data);
  const event: StreamEvent = { data: text };
  if (spelledOut) {
    for (const field of ['event', 'id'] as const) {
      if (item[field] === undefined) continue;
      if (typeof item[field] !== 'string' || /[\r\n]/.test(item[field])) throw problem(`/${field}`, 'must be text on one line');
      event[field] = item[field];
    }
    if (item.delay !== undefined) {
      const delay = item.delay;
      if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > maxDelayMs) throw problem('/delay', `must be a whole number of milliseconds from 0 to ${maxDelayMs}`);
      event.delayMs = delay;
    }
  }
  if (text !== stream.terminator && !eventFits(event, shaped, stream.validateItem)) {
    const violations = shaped ? stream.validateItem!({ data: text, ...(event.event === undefined ? {} : { event: event.event }), ...(event.id === undefined ? {} : { id: event.id }) }) : stream.validateItem!(data);
    throw problem(spelledOut && !shaped ? '/data' : '', `${violations.slice(0, 3).join('; ')} (the stream's item schema)`);
  }
  return event;
}
