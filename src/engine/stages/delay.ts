// Stage 11, delay: what the request (X-Mock-Delay, Prefer) or its scenario scripted; else --delay,
// which simulates the network for every answer: a refusal (never scripted) waits as long as a served one.
import type { EngineResponse } from '../engine-response.js';
import { seededDelay } from '../script-choice.js';
import type { EngineState, Undelayed } from './request-context.js';

export function delayStage(state: EngineState, response: Undelayed): EngineResponse {
  if (response.delayMs === null || response.scenario === null) {
    const spread = state.defaultDelaySpread;
    response.delayMs = spread && state.sessions ? seededDelay(spread, state.script?.seed ?? 0, 'default', state.sessions.delayDraws++) : state.defaultDelayMs;
  }
  return response as EngineResponse;
}
