// A scripted response from fixtures/: what the selection stage can choose by name.
import type { Fault } from '../shared/faults.js';

export interface Scenario {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Milliseconds to wait before answering; null means the server default. */
  delayMs: number | null;
  fault: Fault | null;
  /** Webhooks (their keys) sent after this scenario's successful answer. */
  webhooks: readonly string[];
  /** The file it came from, for logs and start-up errors. */
  file: string;
}

/** Operation key -> scenario name -> scenario. */
export type ScenarioTable = ReadonlyMap<string, ReadonlyMap<string, Scenario>>;
