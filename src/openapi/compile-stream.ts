// What a streaming media type (text/event-stream, JSON lines, JSON text sequences) documents about
// its events, read once per response: the schema each event is (OpenAPI 3.2's
// `itemSchema`, else the media type's `schema`: LLM APIs' chunk schema), the terminator the
// document names (`data: [DONE]`), and the whole streams its examples give.
import type { LoadedDocument } from './load-document.js';
import type { SchemaCompiler, Validator } from './schema-compiler.js';
import { followToObject } from './follow-ref.js';
import { deref, isSchema, objectView, type Schema } from './schema-view.js';
import { parseStreamText, streamFormat, type StreamEvent, type StreamFormat } from '../common/stream-events.js';

export interface StreamPlan {
  format: StreamFormat;
  /** The schema of one event; null when the media type documents none. */
  itemPointer: string | null;
  validateItem: Validator | null;
  /**
   * Where the item schema describes the SSE event itself (3.2's `{data, event, id, retry}`), where
   * its data's own schema is (`contentSchema`), null when data is the item's `data` as generated;
   * the whole value is null when each item is the event's data (a chunk schema).
   */
  eventShape: { dataPointer: string | null } | null;
  /** The data of the last event, where the document names one (`[DONE]`); null otherwise. */
  terminator: string | null;
  /** Whole streams the document's examples give (a text in the stream's format, or a list of items), by name. */
  readonly examples: Map<string, StreamEvent[]>;
}

/** OpenAI's convention (and others'): the stream ends with `data: [DONE]`, said in prose or examples. */
const DONE = '[DONE]';
const EVENT_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * The plan of a media type that is a stream, null for any other. `requestSchema`: the request's
 * JSON body schema, whose `stream` property's description is where LLM APIs name the terminator.
 */
export function compileStream(spec: LoadedDocument, compiler: SchemaCompiler, contentType: string, media: Schema, mediaPointer: string, response: Schema, requestSchema: unknown): StreamPlan | null {
  const format = streamFormat(contentType);
  if (format === null) return null;
  const item = itemSchema(spec, format, media, mediaPointer);
  const eventShape = format === 'sse' && item ? shapeOfEvent(spec, item.value, item.pointer) : null;
  const validateItem = item ? compiler.compile(item.pointer) : null;
  let examples: Map<string, StreamEvent[]> | null = null;
  return {
    format,
    itemPointer: item?.pointer ?? null,
    validateItem,
    eventShape,
    terminator: format === 'sse' && namesDone(spec, media, response, item?.value, requestSchema) ? DONE : null,
    get examples() {
      return (examples ??= wholeStreams(spec, format, media, eventShape !== null, validateItem));
    },
  };
}

/** 3.2's `itemSchema`; else the media type's `schema`, whose `items` are the events of a JSON-lines stream documented as an array. */
function itemSchema(spec: LoadedDocument, format: StreamFormat, media: Schema, mediaPointer: string): { value: Schema; pointer: string } | null {
  if (media.itemSchema !== undefined) return followToObject(spec, media.itemSchema, `${mediaPointer}/itemSchema`);
  if (media.schema === undefined) return null;
  const schema = followToObject(spec, media.schema, `${mediaPointer}/schema`);
  if (format !== 'sse' && schema.value.type === 'array' && isSchema(schema.value.items)) return followToObject(spec, schema.value.items, `${schema.pointer}/items`);
  return schema;
}

/** An item schema of SSE's own fields only, with `data` among them: each item is an event, not its data. */
function shapeOfEvent(spec: LoadedDocument, item: Schema, pointer: string): StreamPlan['eventShape'] {
  const properties = isSchema(item.properties) ? item.properties : null;
  if (properties === null || properties.data === undefined || !Object.keys(properties).every((name) => EVENT_FIELDS.has(name))) return null;
  const data = followToObject(spec, properties.data, `${pointer}/properties/data`);
  return { dataPointer: data.value.contentSchema !== undefined ? `${data.pointer}/contentSchema` : null };
}

/**
 * Whether the media type, its response, its item schema or the request's stream properties
 * (`stream`, `streaming`, `stream_options`: OpenAI's chat completions name `data: [DONE]` only in
 * the last one) mention `[DONE]`.
 */
function namesDone(spec: LoadedDocument, media: Schema, response: Schema, item: Schema | undefined, requestSchema: unknown): boolean {
  const view = requestSchema === null || requestSchema === undefined ? null : objectView(spec, requestSchema);
  const flags = [...(view?.properties ?? [])].filter(([name]) => /^stream/i.test(name)).map(([, schema]) => JSON.stringify(deref(spec, schema)));
  const texts = [JSON.stringify(media), response.description, item?.description, ...flags];
  return texts.some((text) => typeof text === 'string' && text.includes(DONE));
}

/**
 * The media type's examples that are whole streams: a text in the stream's format, or a list of
 * items. One whose events break the item schema is left out: generated events answer instead.
 */
function wholeStreams(spec: LoadedDocument, format: StreamFormat, media: Schema, eventShaped: boolean, validateItem: Validator | null): Map<string, StreamEvent[]> {
  const streams = new Map<string, StreamEvent[]>();
  const add = (name: string, value: unknown) => {
    const events = typeof value === 'string' ? parseStreamText(format, value) : Array.isArray(value) ? value.map((item) => itemEvent(item, eventShaped)) : [];
    if (events.length > 0 && events.every((event) => event.data === DONE || eventFits(event, eventShaped, validateItem))) streams.set(name, events);
  };
  if (isSchema(media.examples)) {
    for (const [name, example] of Object.entries(media.examples)) {
      const resolved = followToObject(spec, example, '').value;
      if ('value' in resolved) add(name, resolved.value);
    }
  }
  if (media.example !== undefined && !streams.has('default')) add('default', media.example);
  return streams;
}

/** One item of an example list as an event: the item is its data, or (an SSE event's shape) holds it. */
function itemEvent(item: unknown, eventShaped: boolean): StreamEvent {
  if (eventShaped && isSchema(item)) {
    const event: StreamEvent = { data: typeof item.data === 'string' ? item.data : JSON.stringify(item.data ?? null) };
    if (typeof item.event === 'string') event.event = item.event;
    if (typeof item.id === 'string') event.id = item.id;
    return event;
  }
  return { data: JSON.stringify(item) };
}

/** Whether an event is valid for the item schema: its data's JSON, or (an SSE event's shape) the event's fields. */
export function eventFits(event: StreamEvent, eventShaped: boolean, validateItem: Validator | null): boolean {
  if (validateItem === null) return true;
  if (eventShaped) return validateItem(eventFields(event)).length === 0;
  try {
    return validateItem(JSON.parse(event.data)).length === 0;
  } catch {
    return false;
  }
}

/** An SSE event as the 3.2 item schema describes it: its fields, without the stub's own (`delayMs`). */
function eventFields(event: StreamEvent): Record<string, string> {
  const fields: Record<string, string> = { data: event.data };
  if (event.event !== undefined) fields.event = event.event;
  if (event.id !== undefined) fields.id = event.id;
  return fields;
}
