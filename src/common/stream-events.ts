// Streamed answers: the media types that are streams of events, one event as a
// value, and each format's bytes for it. The engine plans events, the adapters (node:http and
// fetch) write them one by one with this same text, so both send the same bytes.

/** Server-sent events, JSON lines (`application/jsonl`, `application/x-ndjson`), or RFC 7464 JSON text sequences. */
export type StreamFormat = 'sse' | 'ndjson' | 'json-seq';

export interface StreamEvent {
  /** The event's data as sent: a JSON text, or the terminator (`[DONE]`). */
  data: string;
  /** SSE's `event:` field; other formats have none. */
  event?: string;
  /** SSE's `id:` field. */
  id?: string;
  /** Milliseconds to wait before this event; absent: the stream's interval (the first event: none). */
  delayMs?: number;
}

/** What a streamed answer is: its format and its events, in order. */
export interface StreamBody {
  format: StreamFormat;
  /** How many events it sends, its terminator included. */
  count: number;
  /**
   * Event `index` (0 to count - 1), made when first asked for: a generated event of a large chunk
   * schema costs milliseconds, and the first event must not wait for the others to be made.
   */
  event(index: number): StreamEvent;
  /** The wait between events that name none (--stream-interval). */
  intervalMs: number;
}

const FORMATS: Readonly<Record<string, StreamFormat>> = {
  'text/event-stream': 'sse',
  'application/jsonl': 'ndjson',
  'application/x-ndjson': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'application/json-seq': 'json-seq',
};

/** The stream format of a media type (`text/event-stream; charset=utf-8` -> `sse`), null when it is not a stream. */
export function streamFormat(contentType: string | null): StreamFormat | null {
  if (contentType === null) return null;
  return FORMATS[contentType.split(';')[0].trim().toLowerCase()] ?? null;
}

/** One event as its format writes it, separator included. */
export function eventText(format: StreamFormat, event: StreamEvent): string {
  switch (format) {
    case 'ndjson':
      return `${event.data}\n`;
    case 'json-seq':
      return `\u001e${event.data}\n`;
    case 'sse': {
      // A line break inside data would end the field: each line is a `data:` line of its own,
      // which the client joins back with "\n" (the HTML standard's event stream parsing).
      const fields = event.event === undefined ? '' : `event: ${oneLine(event.event)}\n`;
      const id = event.id === undefined ? '' : `id: ${oneLine(event.id)}\n`;
      return `${fields}${id}${event.data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join('')}\n`;
    }
  }
}

/** The whole stream as one text: what the journal keeps, and what faults cut. */
export function streamText(stream: Pick<StreamBody, 'format' | 'count' | 'event'>, count = stream.count): string {
  let text = '';
  for (let i = 0; i < count; i++) text += eventText(stream.format, stream.event(i));
  return text;
}

/** How long to wait before event `index`: its own delay, else none for the first (it goes at once), else the interval. */
export function eventDelay(stream: StreamBody, index: number): number {
  return stream.event(index).delayMs ?? (index === 0 ? 0 : stream.intervalMs);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * A whole stream written as text (a document's example): SSE split at blank lines into events
 * (`event:`, `id:`, `data:` fields; comments and other fields dropped), JSON lines and sequences
 * at their separators. Lines of an SSE block without a field name are taken as data, as documents
 * sometimes forget the `data:` prefix.
 */
export function parseStreamText(format: StreamFormat, text: string): StreamEvent[] {
  if (format === 'ndjson') return text.split(/\r?\n/).filter((line) => line.trim() !== '').map((data) => ({ data: data.trim() }));
  if (format === 'json-seq') return text.split('\u001e').filter((part) => part.trim() !== '').map((data) => ({ data: data.trim() }));
  const events: StreamEvent[] = [];
  for (const block of text.split(/\r?\n\s*\r?\n/)) {
    const event: StreamEvent = { data: '' };
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      const field = /^(event|id|data|retry):\s?(.*)$/.exec(line.trim());
      if (field === null) {
        if (line.trim() !== '' && !line.trim().startsWith(':')) data.push(line.trim());
      } else if (field[1] === 'data') data.push(field[2]);
      else if (field[1] === 'event') event.event = field[2];
      else if (field[1] === 'id') event.id = field[2];
    }
    if (data.length === 0) continue;
    event.data = data.join('\n');
    events.push(event);
  }
  return events;
}
