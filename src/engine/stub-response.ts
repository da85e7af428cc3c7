// The engine's answer to one request: what to send, and everything recording needs to know about
// it (which operation, which documented response, where the body came from), so no later layer
// has to route or match statuses again.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { Fault } from '../common/faults.js';
import type { StateChange } from './engine-types.js';
import type { Delivery } from './plan-deliveries.js';

export interface StubResponse {
  status: number;
  headers: Record<string, string>;
  /** Already serialized. */
  body: string;
  /**
   * Where the answer came from: a scenario name, `example:<name>`, `echo` or `generated`; null
   * for refusals (nothing was served). Sent as X-Mock-Scenario and journaled as `scenario`.
   */
  source: string | null;
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
  fromStub: boolean;
  /** The client left before a delayed answer was sent: it was journaled, never delivered. */
  abandoned?: boolean;
  /** A fault injected instead of a clean answer, for client resilience tests (X-Mock-Fault or a fixture). */
  fault?: Fault;
  /** Stateful mode: what this answer did to the stored resources, for the layer above to apply; null or absent when nothing. */
  stateChange?: StateChange | null;
  /** Webhooks and callbacks to send once the answer is out (the layer above sends them). */
  deliveries?: Delivery[];
}
