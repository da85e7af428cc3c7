// Stage 1, route: which operation answers (engine/route.ts: or 404 / 405), the request as that
// operation reads it (a form POST to an RPC-style GET answered as that GET), and a body over the
// size limit refused before anything else reads it.
import type { PlainRequest } from '../../common/plain-http.js';
import type { CompiledOperation } from '../../openapi/compiled-model.js';
import type { Refusal } from '../engine-types.js';
import { formPostAsGet } from '../form-post-as-get.js';
import { isRefusal } from '../refusal.js';
import { requestRefusals } from '../refusals.js';
import { route, type Routed } from '../route.js';
import { openContext, type EngineState, type RequestContext } from './request-context.js';

/** Routing alone, for the callers that decide by the operation before answering (stateful mode). */
export function routeOf(state: EngineState, request: PlainRequest): Routed | Refusal {
  return route(state.compiled.routes, request, state.compiled.mounted);
}

/** The context of a routed request, or its refusal: a 404 / 405, or a body over the limit. */
export function routeStage(state: EngineState, request: PlainRequest, routed: Routed | Refusal): RequestContext | Refusal {
  if (request.bodyLimitExceeded !== undefined) return requestRefusals.bodyTooLarge(request.bodyLimitExceeded);
  if (isRefusal(routed)) return routed;
  return openContext(state, formPostAsGet(routed.operation, request), routed.operation, routed.pathParams);
}

/** The operation a refusal at this stage is answered in the shape of (the body-size one's, when routed). */
export function routedOperation(routed: Routed | Refusal): CompiledOperation | null {
  return isRefusal(routed) ? null : routed.operation;
}
