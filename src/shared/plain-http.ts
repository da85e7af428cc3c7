// The plain values that flow through the engine. Nothing here knows about Express or node:http:
// adapters turn a transport request into a StubRequest and a StubResponse back into bytes.

import type { Fault } from './faults.js';

/** A request as the engine sees it. Header names are lower-case. */
export interface StubRequest {
  method: string;
  /** Path without the query string, still percent-encoded as received. */
  path: string;
  /** Raw query string without the leading `?` ('' when absent). */
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body bytes; an empty buffer when the request had none. */
  body: Buffer;
}

/** A response as the engine produces it; `body` is already serialized. */
export interface StubResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What served it: a scenario name, `example:<name>`, `echo`, `generated`, or null for errors of the stub itself. */
  scenario: string | null;
  /** Violations found in the request (`<JSON pointer>: <reason>`), empty when it was valid. */
  violations: string[];
  /** Problems the self-check found in this response before it was sent (should always be empty). */
  selfCheck: string[];
  /** Milliseconds to wait before sending, for scripted latency. */
  delayMs: number;
  /** Key of the matched operation (`POST /plants`), null when no operation matched. */
  operation: string | null;
  /** True for the stub's own answers (404, 405, unknown scenario): they exercise nothing of the API. */
  fromStub?: boolean;
  /** The client left before a delayed answer was sent: it was journaled, never delivered. */
  abandoned?: boolean;
  /** A fault injected instead of a clean answer, for client resilience tests (X-Mock-Fault or a fixture). */
  fault?: Fault;
}

/** A JSON body parsed so that numbers keep their exact text where a double would change them. */
export interface ExactJson {
  /** The parsed value; numbers are doubles (possibly rounded for huge ones). */
  value: unknown;
  /** The same value with LosslessNumber leaves where `rawNumbers` has entries; undefined when `value` is already exact. */
  exact: unknown;
  /** JSON pointer -> raw number text, for every number whose text a double does not round-trip. */
  rawNumbers: ReadonlyMap<string, string>;
}
