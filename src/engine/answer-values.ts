// The answers the stub makes besides the pipeline's served one, each built here so it keeps what
// recording needs: a refusal its name, an answer relayed from the real API its proxy note and no
// body of its own (the adapter pipes the upstream's), a CORS preflight its mark. Every one leaves
// by its adapter's one exit, as the served answer does.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { EngineResponse, ProxyNote } from './engine-response.js';
import type { Refusal } from './engine-types.js';

/** A refusal as HTTP, its name kept; `ownAnswer`: the stub's own (problem+json), not the API's documented error. */
export function refusedAnswer(refusal: Refusal, status: number, headers: Record<string, string>, body: string, operation: CompiledOperation | null, documented: ResponsePlan | null, ownAnswer: boolean): EngineResponse {
  return {
    status, headers, body, scenario: null, violations: refusal.violations.length > 0 ? refusal.violations : [refusal.message], selfCheck: [], delayMs: 0,
    operation, documented, ownAnswer, refusal: refusal.name,
  };
}

/** An answer relayed from the real API (--proxy): its status and outcome; its headers and body are the upstream's, sent as they came. */
export function relayedAnswer(status: number, operation: CompiledOperation | null, documented: ResponsePlan | null, violations: string[], note: ProxyNote, abandoned: boolean): EngineResponse {
  return { status, headers: {}, body: '', scenario: null, violations, selfCheck: [], delayMs: 0, operation, documented, ownAnswer: false, proxy: note, ...(abandoned ? { abandoned } : {}) };
}

/** Where a preflight's answer came from: the stub's CORS, not the API (the journal's `scenario`, the metrics' `origin`). */
export const PREFLIGHT = 'preflight';

/** The stub's answer to a CORS preflight: 204 with the grants in `headers`. */
export function preflightAnswer(headers: Record<string, string>): EngineResponse {
  return { status: 204, headers, body: '', scenario: PREFLIGHT, violations: [], selfCheck: [], delayMs: 0, operation: null, documented: null, ownAnswer: true };
}
