// A scripted response from fixtures/: what the selection stage can choose by name.
import type { Fault } from '../common/faults.js';
import type { StreamEvent } from '../common/stream-events.js';

export interface Scenario {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A scripted stream (`events:`), sent event by event instead of `body`; absent for a plain answer. */
  events?: StreamEvent[];
  /** Milliseconds to wait before answering; null means the server default. */
  delayMs: number | null;
  fault: Fault | null;
  /** Webhooks (their keys) sent after this scenario's successful answer. */
  webhooks: readonly string[];
  /** The file it came from, for logs and start-up errors. */
  file: string;
  /** Which requests get this scenario without asking for it by name; null when only by name. */
  match: ScenarioMatch | null;
}

/**
 * A fixture's `match`: what a request must hold to get the scenario. Path, query and header
 * values are text as the URL or header carries it; `body` is a JSON subset of the request body.
 */
export interface ScenarioMatch {
  path: Readonly<Record<string, string>>;
  /** A list matches a parameter sent that many times, in that order. */
  query: Readonly<Record<string, string | readonly string[]>>;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** Undefined when the body is not matched. */
  body: unknown;
  /** How many fields it names (each leaf of `body` counts): among matches, the highest wins. */
  specificity: number;
}

/** Operation key -> scenario name -> scenario. */
export type ScenarioTable = ReadonlyMap<string, ReadonlyMap<string, Scenario>>;
