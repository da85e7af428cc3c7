// One answered request as every record sees it (the journal, coverage, drift, metrics, the log
// line, the live followers): made once when the answer was sent, handed to each record, never
// changed. Each record reads what it needs of it, so none depends on another having run first.
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';

export interface Answered {
  readonly request: PlainRequest;
  /** What was delivered: an abandoned or streamed answer says so here, not on the engine's first answer. */
  readonly response: EngineResponse;
  /** From the request's arrival to the answer's end, in ms. */
  readonly durationMs: number;
  /** When the answer was sent (ms since the epoch): the journal's time, whenever its record runs. */
  readonly time: number;
}

/** Hears of each answered request once its answer was sent. */
export type AnsweredListener = (answered: Answered) => void;
