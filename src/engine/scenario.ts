// A scripted response from fixtures/: what the selection stage can choose by name.
import type { Fault } from '../common/faults.js';
import type { StreamEvent } from '../common/stream-events.js';
import type { DelaySpread } from '../common/delay-spread.js';
import type { RenderTree } from './templates.js';

export interface Scenario {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A scripted stream (`events:`), sent event by event instead of `body`; absent for a plain answer. */
  events?: StreamEvent[];
  /** Milliseconds to wait before answering; null means the server default (or `delaySpread`). */
  delayMs: number | null;
  /** A spread to draw each answer's wait from; null when the delay is fixed or the server default. */
  delaySpread: DelaySpread | null;
  /** Answered this many times when chosen by `match`, a sequence, chance or as an added answer, then passed over; null for no limit. */
  times: number | null;
  /** Chosen for about this share of the operation's requests (those its `match` accepts); null when not by chance. */
  chance: number | null;
  /** The body and headers rendered for a request, when they hold templates; null when they are sent as written. */
  render: { body: RenderTree | null; headers: RenderTree | null } | null;
  /** Added without a body (`POST /__admin/scenarios` with a status only): the stub's own answer for its status. */
  ownBody: boolean;
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

/** What follows a sequence's last step: it again, the steps from the first, or the stub's own answer. */
export type AfterSequence = 'last' | 'repeat' | 'default';

/** An operation's answers in order (`sequence:` in its fixture file): scenario names, `default` for the stub's own answer. */
export interface Sequence {
  steps: readonly string[];
  after: AfterSequence;
  file: string;
}

/** The name a sequence step uses for the stub's own answer. */
export const DEFAULT_STEP = 'default';
