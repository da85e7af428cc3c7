// The texts of a journal entry (path, query, headers, request body, answer body) as bytes in
// shared slabs, so that keeping an entry keeps no object of the request's.
//
// Why bytes and not the strings themselves: the journal keeps its last --journal-limit entries,
// so every object an entry refers to outlives young-generation collections and is copied by each
// of them (Node's headers object alone is a dictionary plus a string per value). Writing the texts
// into a slab costs about what that copying did (docs/benchmark.md, "Why the hot path reads as it
// does", has the figures): what is gained is memory that stays put and collections that do not
// grow with the journal; texts are read back only when someone asks.
import { utf8Text } from '../common/bytes.js';
import { setOwn } from '../common/json-value.js';

type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Where an entry's texts lie: `slab` from `start`, each part's byte length in order. */
export interface TextSpans {
  slab: Uint8Array;
  start: number;
  pathBytes: number;
  queryBytes: number;
  headersBytes: number;
  bodyBytes: number;
  answerBytes: number;
}

/** The texts as they were recorded. */
export interface RecordedTexts {
  path: string;
  rawQuery: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  answer: string;
}

const SLAB_BYTES = 64 * 1024;
/** A length is written as four bytes, little-endian, before each header name and value. */
const LENGTH_BYTES = 4;
/** How many values follow a header's name: ONE_VALUE for a plain string, else the array's length. */
const ONE_VALUE = 0xffffffff;
const encoder = new TextEncoder();

/** Appends entries' texts to 64 KiB slabs; a slab is dropped by the last entry that points into it. */
export class TextSlabs {
  private slab = new Uint8Array(SLAB_BYTES);
  private used = 0;

  /**
   * Writes the texts into `into`. `body` is kept up to `bodyCap` bytes, `answer` up to `answerCap`
   * characters: callers keep one more than they show, to know a text was cut.
   */
  write(into: TextSpans, path: string, rawQuery: string, headers: HeaderValues, body: Uint8Array, bodyCap: number, answer: string, answerCap: number): void {
    const keptBody = body.length > bodyCap ? body.subarray(0, bodyCap) : body;
    const keptAnswer = answer.length > answerCap ? answer.slice(0, answerCap) : answer;
    // Written where the last entry ended; when that slab has no room, again in a new one large
    // enough for any text (UTF-8 takes at most three bytes per UTF-16 unit). Sizing every entry by
    // that bound instead would keep one 16 KiB answer per slab: 64 MiB for a full journal of them.
    if (writeAll(into, this.slab, this.used, path, rawQuery, headers, keptBody, keptAnswer)) return void (this.used = end(into));
    const most = 3 * (path.length + rawQuery.length + keptAnswer.length) + keptBody.length + headersBound(headers);
    this.slab = new Uint8Array(Math.max(SLAB_BYTES, most));
    writeAll(into, this.slab, 0, path, rawQuery, headers, keptBody, keptAnswer);
    this.used = end(into);
  }
}

/** Where an entry's texts end in its slab. */
function end(spans: TextSpans): number {
  return spans.start + spans.pathBytes + spans.queryBytes + spans.headersBytes + spans.bodyBytes + spans.answerBytes;
}

/** Writes an entry's texts from `start`; false, with `into` unchanged, when the slab has no room for them. */
function writeAll(into: TextSpans, slab: Uint8Array, start: number, path: string, rawQuery: string, headers: HeaderValues, body: Uint8Array, answer: string): boolean {
  let at = start;
  const pathBytes = writeText(slab, at, path);
  if (pathBytes < 0) return false;
  at += pathBytes;
  const queryBytes = writeText(slab, at, rawQuery);
  if (queryBytes < 0) return false;
  at += queryBytes;
  const headersStart = at;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    at = writeLengthAndText(slab, at, name);
    if (typeof value === 'string') {
      at = writeLength(slab, at, ONE_VALUE);
      at = writeLengthAndText(slab, at, value);
    } else if (Array.isArray(value)) {
      at = writeLength(slab, at, value.length);
      for (const item of value) at = writeLengthAndText(slab, at, String(item));
    } else {
      // Not a header value Node or fetch gives; a caller's object passed in by hand is kept as text.
      at = writeLength(slab, at, ONE_VALUE);
      at = writeLengthAndText(slab, at, String(value));
    }
    if (at < 0) return false;
  }
  const headersBytes = at - headersStart;
  if (at + body.length > slab.length) return false;
  slab.set(body, at);
  at += body.length;
  const answerBytes = writeText(slab, at, answer);
  if (answerBytes < 0) return false;
  into.slab = slab;
  into.start = start;
  into.pathBytes = pathBytes;
  into.queryBytes = queryBytes;
  into.headersBytes = headersBytes;
  into.bodyBytes = body.length;
  into.answerBytes = answerBytes;
  return true;
}

/** Reads back what `write` kept. */
export function readTexts(spans: TextSpans): RecordedTexts {
  const { slab } = spans;
  let at = spans.start;
  const path = readText(slab, at, spans.pathBytes);
  at += spans.pathBytes;
  const rawQuery = readText(slab, at, spans.queryBytes);
  at += spans.queryBytes;
  const headers: Record<string, string | string[]> = {};
  const headersEnd = at + spans.headersBytes;
  while (at < headersEnd) {
    const name = readLengthAndText(slab, at);
    at = name.next;
    const count = readLength(slab, at);
    at += LENGTH_BYTES;
    if (count === ONE_VALUE) {
      const value = readLengthAndText(slab, at);
      at = value.next;
      setOwn(headers, name.text, value.text);
      continue;
    }
    const values: string[] = [];
    for (let i = 0; i < count; i++) {
      const value = readLengthAndText(slab, at);
      at = value.next;
      values.push(value.text);
    }
    setOwn(headers, name.text, values);
  }
  const body = slab.subarray(at, at + spans.bodyBytes);
  at += spans.bodyBytes;
  return { path, rawQuery, headers, body, answer: readText(slab, at, spans.answerBytes) };
}

/** The headers as `readTexts` gives them back: each value a string or a list of strings, absent ones left out. */
export function headerTexts(headers: HeaderValues): Record<string, string | string[]> {
  const texts: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    setOwn(texts, name, Array.isArray(value) ? value.map(String) : String(value));
  }
  return texts;
}

/** Only the path, for filtering without reading the rest. */
export function readPath(spans: TextSpans): string {
  return readText(spans.slab, spans.start, spans.pathBytes);
}

/** The most bytes the headers can take, for the rare entry that did not fit where the last one ended. */
function headersBound(headers: HeaderValues): number {
  let most = 0;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    most += 3 * name.length + 2 * LENGTH_BYTES;
    if (Array.isArray(value)) for (const item of value) most += LENGTH_BYTES + 3 * String(item).length;
    else most += LENGTH_BYTES + 3 * String(value).length;
  }
  return most;
}

/**
 * The text as UTF-8 at `at`: the bytes written, or -1 when they do not fit (nor does anything
 * after a -1: every writer passes it on). Written out for ASCII, which is nearly every path and
 * header: TextEncoder's encodeInto needs a view of the slab per call, one object more per text,
 * which is what this module exists to avoid.
 */
function writeText(slab: Uint8Array, at: number, text: string): number {
  if (at < 0 || at + text.length > slab.length) return -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) {
      const { read, written } = encoder.encodeInto(text, slab.subarray(at));
      return read === text.length ? written : -1;
    }
    slab[at + i] = unit;
  }
  return text.length;
}

function writeLength(slab: Uint8Array, at: number, length: number): number {
  if (at < 0 || at + LENGTH_BYTES > slab.length) return -1;
  slab[at] = length & 0xff;
  slab[at + 1] = (length >>> 8) & 0xff;
  slab[at + 2] = (length >>> 16) & 0xff;
  slab[at + 3] = length >>> 24;
  return at + LENGTH_BYTES;
}

function writeLengthAndText(slab: Uint8Array, at: number, text: string): number {
  if (at < 0) return -1;
  const written = writeText(slab, at + LENGTH_BYTES, text);
  if (written < 0 || writeLength(slab, at, written) < 0) return -1;
  return at + LENGTH_BYTES + written;
}

function readLength(slab: Uint8Array, at: number): number {
  return (slab[at] | (slab[at + 1] << 8) | (slab[at + 2] << 16)) + slab[at + 3] * 0x1000000;
}

function readLengthAndText(slab: Uint8Array, at: number): { text: string; next: number } {
  const length = readLength(slab, at);
  const start = at + LENGTH_BYTES;
  return { text: readText(slab, start, length), next: start + length };
}

function readText(slab: Uint8Array, at: number, length: number): string {
  return length === 0 ? '' : utf8Text(slab.subarray(at, at + length));
}
