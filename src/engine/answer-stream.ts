// Stage 6 (choose) for streams: whether the chosen answer is a stream, and its events.
// An operation documenting a stream media type answers one when `Accept` chose it, or when it also
// documents JSON and the request's JSON body says `"stream": true` (LLM APIs' convention: their
// clients keep sending `Accept: application/json`). The events are a fixture's script, a documented
// whole stream replayed, or generated from the item schema (seeded per request and event), then the
// document's terminator. The adapters pace them; nothing here waits or touches a socket.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { StreamPlan } from '../openapi/compile-stream.js';
import { generateFitting } from '../openapi/generate-fitting.js';
import type { ExactJson, PlainRequest } from '../common/plain-http.js';
import { latin1Text } from '../common/bytes.js';
import { isObject } from '../common/json-value.js';
import type { StreamBody, StreamEvent } from '../common/stream-events.js';
import { streamText } from '../common/stream-events.js';
import { headerSafe } from '../openapi/header-value.js';
import type { Choice, Selection } from './engine-types.js';
import type { EngineResponse } from './engine-response.js';

/** How streams are paced and bounded (--stream-interval, --stream-max-events). */
export interface StreamSettings {
  intervalMs: number;
  maxEvents: number;
}

export const STREAM_DEFAULTS: StreamSettings = { intervalMs: 10, maxEvents: 20 };

/** Events generated for a stream the document gives no example of (fewer when --stream-max-events is lower). */
const GENERATED_EVENTS = 5;

/** A streamed answer's parts, for the pipeline to send as it sends a body. */
export interface StreamAnswer {
  plan: ResponsePlan;
  stream: StreamBody;
  /** The X-Mock-Scenario value: the fixture's scenario, `example:<name>` or `generated`. */
  scenario: string;
}

/**
 * The stream variant of the chosen response to answer with, null for a plain answer. `accept` is
 * read only for the choices negotiation leaves alone (a fixture's, the store's).
 */
export function streamVariant(choice: Choice, accept: string | string[] | undefined, body: ExactJson | null): ResponsePlan | null {
  if (choice.kind === 'scenario') {
    // A scripted stream (its fixture was checked at start to name a status with a stream media type).
    return choice.scenario.events ? (choice.plan?.variants.find((variant) => variant.stream !== null) ?? null) : null;
  }
  if (choice.plan.stream !== null) return choice.plan;
  const variant = choice.plan.variants.find((candidate) => candidate.stream !== null);
  if (variant === undefined) return null;
  if (choice.kind === 'state' && namesType(accept, variant.contentType!)) return variant;
  return asksToStream(body) ? variant : null;
}

/** A streamed answer as the pipeline hands it on (its delay settled by the pipeline's last stage). */
export type StreamResponse = Omit<EngineResponse, 'delayMs'> & { delayMs: number | null };

/** The whole streamed answer: status, headers and events. */
export function streamResponse(operation: CompiledOperation, plan: ResponsePlan, choice: Choice, request: PlainRequest, settings: StreamSettings, selection: Selection): StreamResponse {
  const { stream, scenario } = answerStream(operation, plan, choice, request, settings);
  const scripted = choice.kind === 'scenario' ? choice.scenario : null;
  let text: string | undefined;
  return {
    status: plan.status,
    // No Content-Length: the adapters send the events as they go. `no-cache` keeps proxies from buffering SSE.
    headers: { ...plan.sampleHeaders, ...scripted?.headers, 'content-type': plan.contentType!, 'cache-control': 'no-cache', 'x-mock-scenario': headerSafe(scenario) },
    // The whole text is made only when something reads it (a fault, HEAD, the journal once the
    // stream has ended), since making it makes every event.
    get body() {
      return (text ??= streamText(stream));
    },
    stream,
    scenario,
    violations: NOTHING,
    // Scripted and documented events were checked at start; generated ones that fit no try are a warning (generatedEvent).
    selfCheck: NOTHING,
    delayMs: selection.delayMs ?? scripted?.delayMs ?? null,
    operation,
    documented: plan,
    ownAnswer: false,
    fault: selection.fault ?? scripted?.fault ?? undefined,
    stateChange: null,
  };
}

const NOTHING = Object.freeze([]) as unknown as string[];

/** Where a stream's events come from: `length` of them, event `i` made by `at(i)`; `listed` when they are a list already. */
interface EventSource {
  length: number;
  at: (index: number) => StreamEvent;
  listed: readonly StreamEvent[] | null;
  scenario: string;
}

/** The events of `plan`'s stream for this request, bounded, with the terminator last, each made once when first asked for. */
export function answerStream(operation: CompiledOperation, plan: ResponsePlan, choice: Choice, request: PlainRequest, settings: StreamSettings): StreamAnswer {
  const streamPlan = plan.stream!;
  const source = sourceEvents(operation, streamPlan, choice, request, settings);
  const sent = Math.min(source.length, settings.maxEvents);
  const { terminator } = streamPlan;
  // A script or example may end with the terminator itself; generated data is JSON, never the bare terminator.
  const ends = terminator !== null && source.listed?.[sent - 1]?.data !== terminator;
  const made: StreamEvent[] = [];
  const event = (index: number): StreamEvent => (index >= sent ? { data: terminator! } : (made[index] ??= source.at(index)));
  return { plan, scenario: source.scenario, stream: { format: streamPlan.format, count: sent + (ends ? 1 : 0), event, intervalMs: settings.intervalMs } };
}

function sourceEvents(operation: CompiledOperation, stream: StreamPlan, choice: Choice, request: PlainRequest, settings: StreamSettings): EventSource {
  const listed = (events: readonly StreamEvent[], scenario: string): EventSource => ({ length: events.length, at: (i) => events[i], listed: events, scenario });
  if (choice.kind === 'scenario') return listed(choice.scenario.events!, choice.scenario.name);
  // A documented whole stream: the one asked for by name, else the first (unless Prefer: dynamic).
  const asked = choice.kind === 'example' && choice.asked ? choice.name : null;
  const dynamic = choice.kind === 'generated' && choice.dynamic;
  const name = asked !== null && stream.examples.has(asked) ? asked : dynamic ? undefined : stream.examples.keys().next().value;
  if (name !== undefined) return listed(stream.examples.get(name)!, `example:${name}`);
  const length = Math.min(GENERATED_EVENTS, settings.maxEvents);
  return { length, at: (i) => generatedEvent(operation, stream, request, i, dynamic), listed: null, scenario: 'generated' };
}

/** Event `index` from the item schema, keyed by the request and the index so that each differs and each repeats. */
function generatedEvent(operation: CompiledOperation, stream: StreamPlan, request: PlainRequest, index: number, dynamic: boolean): StreamEvent {
  if (stream.itemPointer === null) return { data: '{}' };
  const key = `${request.method} ${request.path}?${request.rawQuery} ${latin1Text(request.body)} #event ${index}`;
  const { value, violations, capped } = generateFitting(operation.generate, { schemaPointer: stream.itemPointer, validateBody: stream.validateItem }, key, dynamic, operation.generationCapped);
  // As for a generated body: a schema no try satisfies is a warning at /__admin/warnings.
  if (violations !== null && violations.length > 0 && !capped) operation.reportUnsatisfiable(stream.itemPointer, violations);
  if (stream.eventShape === null) return { data: JSON.stringify(value ?? null) };
  // 3.2's SSE item: the event's own fields, its data generated from `contentSchema` where it has one.
  const item = isObject(value) ? value : {};
  const data = stream.eventShape.dataPointer !== null ? operation.generate(stream.eventShape.dataPointer, key, dynamic) : item.data;
  const event: StreamEvent = { data: typeof data === 'string' && stream.eventShape.dataPointer === null ? data : JSON.stringify(data ?? null) };
  if (typeof item.event === 'string' && item.event !== '') event.event = item.event;
  if (typeof item.id === 'string') event.id = item.id;
  return event;
}

/** A JSON body whose `stream` (or `streaming`) is `true`. */
function asksToStream(body: ExactJson | null): boolean {
  if (body === null || body.form === true || !isObject(body.value)) return false;
  return body.value.stream === true || body.value.streaming === true;
}

/** Whether `Accept` names the media type itself (not through a wildcard). */
function namesType(accept: string | string[] | undefined, type: string): boolean {
  const header = Array.isArray(accept) ? accept.join(',') : accept;
  return header !== undefined && header.toLowerCase().split(',').some((range) => range.split(';')[0].trim() === type.toLowerCase());
}
