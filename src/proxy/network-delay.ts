// --delay for an answer the pipeline did not make: one relayed from the real API, or the stub's
// own on --proxy's way (a 502, a request --proxy-errors refused). --delay simulates the network
// for every answer, so these wait as the mock's do, drawn the same way from a spread.
import type { EngineState } from '../engine/pipeline.js';
import { seededDelay } from '../engine/script-choice.js';

/** The milliseconds --delay asks every answer to wait: its fixed value, or the next draw from its spread. */
export function networkDelay(state: EngineState): number {
  const spread = state.defaultDelaySpread;
  return spread && state.sessions ? seededDelay(spread, state.script?.seed ?? 0, 'default', state.sessions.delayDraws++) : state.defaultDelayMs;
}
