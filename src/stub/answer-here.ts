// Stateful mode with a store in this process (the server's single process, a session's own store,
// the fetch handler's in-memory store): the store answers at once and nothing changes it meanwhile,
// so the change an answer makes is applied as it was read, and the store's verdict decides the
// answer: a change it could not keep is never answered as kept. One function for every host, so
// the page's stub refuses as the server does. Needs nothing of Node.
import { handleRequest, type EngineState } from '../engine/pipeline.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals, stateRefusals } from '../engine/refusals.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { Refusal } from '../engine/engine-types.js';
import type { Routed } from '../engine/route.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { LocalStateStore } from './local-state-store.js';

/** `maxBytes`: the store's cap, named when a change would pass it; `routed`: the route when the caller found it already. */
export function answerHere(state: EngineState, request: PlainRequest, store: LocalStateStore, maxBytes: number, routed?: Routed | Refusal): EngineResponse {
  const response = handleRequest(state, request, store, routed);
  if (!response.stateChange) return response;
  const applied = store.apply(response.stateChange);
  if (applied === 'applied') return response;
  // In the operation's own error shape, as every refusal of a routed request is.
  return refusalResponse(applied === 'full' ? stateRefusals.bytesFull(maxBytes) : serverRefusals.storeBusy(1), response.operation);
}
