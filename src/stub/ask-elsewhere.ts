// Stateful mode with a store another process shares (the cluster primary's for --workers, Redis
// for --state-store): the pipeline's questions are asked of it and the change the answer makes is
// applied there; another process may have changed the same item since this one asked (two
// instances creating one id), so the store refuses the change and the request is answered again
// from the store as it is then, and a change that could not be stored is never answered as
// stored. The server's server-state-store.ts hands it in with such a store.
import { Mutex } from 'async-mutex';
import { askingRequest, type EngineState, type StateAsked } from '../engine/pipeline.js';
import type { Routed } from '../engine/route.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { FailedAnswer } from './failed-answer.js';
import { isAsked } from '../engine/state-asked.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals, stateRefusals } from '../engine/refusals.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { StateStore } from './state-store.js';

/**
 * How many times a request is answered again when another process changed the same item first.
 * The retries of one process run one at a time, so each one contends only with the other
 * processes' (at most one each): with 400 creates at once through two workers every one is stored.
 */
export const RETRIES = 10;

/** Questions one answer may ask: one, and a few more for a drawn id whose first draws are taken. */
const MAX_QUESTIONS = 30;

export class AskElsewhere {
  /** Retries in this process, one at a time. */
  private readonly retries = new Mutex();

  /**
   * The answer to a routed request of a resource's operation, asked of `store` once authenticated
   * and valid, its change stored; `maxBytes`: the store's cap, named when it is full; `failed`:
   * the one catch, for a store that did not answer.
   */
  answer(version: EngineState, request: PlainRequest, routed: Routed, store: StateStore, maxBytes: number, failed: FailedAnswer): EngineResponse | Promise<EngineResponse> {
    const asked = askingRequest(version, request, routed);
    if (!isAsked(asked)) return asked;
    // Routed, so a store that failed is answered in the operation's own error shape.
    return this.stored(store, asked, routed.operation, maxBytes).catch((error: unknown) => failed(request, error, routed.operation));
  }

  private async stored(store: StateStore, asked: StateAsked, operation: CompiledOperation, maxBytes: number): Promise<EngineResponse> {
    const response = await answered(store, asked, operation);
    if (!response.stateChange) return response;
    const applied = await store.apply(response.stateChange);
    if (applied === 'applied') return response;
    return applied === 'full' ? full(maxBytes, operation) : this.retry(store, asked, operation, maxBytes);
  }

  /**
   * Answers the request again from the state as it is now, until its change is stored; after
   * RETRIES a 503 says nothing was stored (the answer built from a stale state is never sent).
   */
  private retry(store: StateStore, asked: StateAsked, operation: CompiledOperation, maxBytes: number): Promise<EngineResponse> {
    return this.retries.runExclusive(async () => {
      for (let tries = 0; tries < RETRIES; tries++) {
        const response = await answered(store, asked, operation);
        const applied = response.stateChange ? await store.apply(response.stateChange) : 'applied';
        if (applied === 'full') return full(maxBytes, operation);
        if (applied === 'applied') return response;
      }
      return refusalResponse(serverRefusals.storeBusy(RETRIES), operation);
    });
  }
}

function full(maxBytes: number, operation: CompiledOperation): EngineResponse {
  return refusalResponse(stateRefusals.bytesFull(maxBytes), operation);
}

/**
 * The answer once the store has answered the request's questions (a drawn id may need a second);
 * a store that keeps changing under it is answered as busy.
 */
async function answered(store: StateStore, asked: StateAsked, operation: CompiledOperation): Promise<EngineResponse> {
  let step: EngineResponse | StateAsked = asked;
  for (let questions = 0; questions < MAX_QUESTIONS; questions++) {
    if (!isAsked(step)) return step;
    step = step.resume(await store.answer(step.question));
  }
  return isAsked(step) ? refusalResponse(serverRefusals.storeBusy(MAX_QUESTIONS), operation) : step;
}
