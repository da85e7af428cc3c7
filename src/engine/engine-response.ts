// The engine's answer to one request: what to send, and everything recording needs to know about
// it (which operation, which documented response, where the body came from), so no later layer
// has to route or match statuses again.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { Fault } from '../common/faults.js';
import type { RefusalName, StateChange } from './engine-types.js';
import type { Delivery } from './plan-deliveries.js';
import type { StreamBody } from '../common/stream-events.js';

export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  /** Already serialized; for a stream, its whole text (what the journal keeps and faults cut). */
  body: string;
  /** A stream of events: the adapters send `stream.events` one by one instead of `body` at once. */
  stream?: StreamBody;
  /**
   * The scenario that answered (where the answer came from): a fixture's scenario name,
   * `example:<name>`, `echo`, `generated`, `state`, or `preflight` (the stub's answer to a CORS
   * preflight); null for refusals and relayed answers (nothing was served). Sent
   * as X-Mock-Scenario and journaled as `scenario` (docs/architecture.md, "Words").
   */
  scenario: string | null;
  /** Where a scripted scenario stands: its sequence step or its count of `times` (`2 of 3`); journaled after its name. */
  step?: string;
  /** The request's session (X-Mock-Session); absent for the default one. */
  session?: string;
  /** Violations found in the request (`<JSON pointer>: <reason>`), empty when it was valid. */
  violations: string[];
  /** Problems the self-check found in this response before it was sent (should always be empty). */
  selfCheck: string[];
  /** Milliseconds to wait before sending, for scripted latency. */
  delayMs: number;
  /** The matched operation, null when no operation matched. */
  operation: CompiledOperation | null;
  /** The documented response this answer is, null for the stub's own answers and undocumented statuses. */
  documented: ResponsePlan | null;
  /** True for the stub's own answers (404, 405, unknown scenario): they exercise nothing of the API. */
  ownAnswer: boolean;
  /**
   * The refusal this answer is, by its name in refusals.ts (a full store, a busy one, an invalid
   * request); absent for served and relayed answers. Metrics count refusals by it and the log names it.
   */
  refusal?: RefusalName;
  /** The client left before a delayed answer was sent: it was journaled, never sent. */
  abandoned?: boolean;
  /** A fault injected instead of a clean answer, for client resilience tests (X-Mock-Fault or a fixture). */
  fault?: Fault;
  /** Stateful mode: what this answer did to the stored resources, for the layer above to apply; null or absent when nothing. */
  stateChange?: StateChange | null;
  /** Webhooks and callbacks to send once the answer is out (the layer above sends them). */
  deliveries?: Delivery[];
  /** --proxy: what the real API did with this request; absent without --proxy. */
  proxy?: ProxyNote;
}

/** --proxy: the upstream's part in one exchange, for the journal, the log, coverage and the drift report. */
export interface ProxyNote {
  /**
   * `forwarded` (the upstream answered), `refused` (--proxy-errors), `timeout` (504), `bad gateway`
   * (502), or why the mock answered instead: `fallback (upstream 404)`, `fallback (upstream unreachable: ECONNREFUSED)`.
   */
  outcome: string;
  /** The URL the request was forwarded to, without its query (which may carry credentials). */
  target: string;
  /** Whether the document has the operation; undocumented requests are forwarded as they are. */
  documented: boolean;
  /** What the upstream's answer breaks of the document (status, headers, body), as `<pointer>: <reason>`. */
  responseViolations: string[];
  /** Answer fields the document does not declare (JSON pointers, array items as `*`): drift, not violations. */
  undeclared: string[];
  /** Why the answer's body was not checked whole, when it was not (too large, an unknown encoding). */
  unchecked?: string;
  /** The upstream's status, when it answered. */
  upstreamStatus?: number;
}
