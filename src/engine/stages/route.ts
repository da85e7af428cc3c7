// Stage 1, route: the context of the request the routed operation answers (routing itself,
// engine/route.ts's 404 / 405, is pipeline.ts's `routeRequest`), the request as that operation
// reads it (a form POST to an RPC-style GET answered as that GET), and a body over the size limit
// refused before anything else reads it.
import type { PlainRequest } from '../../common/plain-http.js';
import type { CompiledOperation } from '../../openapi/compiled-model.js';
import { formPostAsGet } from '../form-post-as-get.js';
import { isRefusal } from '../refusal.js';
import { requestRefusals } from '../refusals.js';
import type { Routed } from '../route.js';
import type { Refusal, Selection } from '../engine-types.js';
import type { EngineState, RequestContext } from './request-context.js';

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

/** Shared by every request without a query string; nothing writes to it. */
const NO_QUERY = new URLSearchParams();

/** The context of a routed request, before the stages after routing have read it. */
function openContext(state: EngineState, request: PlainRequest, operation: CompiledOperation, pathParams: Record<string, string>): RequestContext {
  return {
    state,
    policy: state.compiled.policy,
    request,
    operation,
    pathParams,
    query: request.rawQuery === '' ? NO_QUERY : new URLSearchParams(request.rawQuery),
    body: null,
    selection: NOTHING_ASKED,
    session: '',
    scenarios: undefined,
    sticky: null,
    scripted: null,
    action: undefined,
    exampleAsked: null,
    refusal: null,
    fromState: null,
    choice: null,
    built: null,
    adjusted: null,
    problems: NO_PROBLEMS,
    answer: null,
  };
}

/** Problems before the check stage finds any; shared, nothing adds to it. */
const NO_PROBLEMS: string[] = Object.freeze([]) as unknown as string[];

/** A selection before the request's is read. */
const NOTHING_ASKED: Selection = Object.freeze({ scenario: null, code: null, example: null, dynamic: null, delayMs: null, fault: null });
