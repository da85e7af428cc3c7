// The request pipeline, as its table of contents: the stages (stages/) run in order over the
// request's one context, each reading what the stages before it found and adding what it makes;
// the first that refuses records its Refusal on the context and says the request does not go on,
// so no stage runs after it, and `refusalResponse` turns the refusal into HTTP. Where the answers follow Prism's conventions is policy the
// stages read (config/compat-policy.ts), never a branch here. In stateful mode the pipeline
// pauses at its question to the store (stage 5) and goes on from the store's facts, at once for a
// store in this process, later for one in another (askingRequest).
import type { PlainRequest } from '../common/plain-http.js';
import type { Refusal } from './engine-types.js';
import type { EngineResponse } from './engine-response.js';
import { isRefusal, refusalResponse } from './refusal.js';
import { route, type Routed } from './route.js';
import { answerAtOnce, isAsked, thenAnswer, type Asked, type StateReader } from './state-asked.js';
import type { EngineState, RequestContext, Undelayed } from './stages/request-context.js';
import { routeStage, routedOperation } from './stages/route.js';
import { authenticateStage } from './stages/authenticate.js';
import { validateStage } from './stages/validate.js';
import { selectStage } from './stages/select.js';
import { askStateStage, fromTheStore } from './stages/ask-state.js';
import { chooseStage } from './stages/choose.js';
import { streamStage } from './stages/stream.js';
import { buildStage } from './stages/build.js';
import { adjustStage } from './stages/adjust.js';
import { checkStage } from './stages/check.js';
import { finishStage } from './stages/finish.js';
import { delayStage } from './stages/delay.js';

export type { EngineState } from './stages/request-context.js';

/**
 * `store`: in stateful mode, a store in this process that answers at once (the caller applies
 * `stateChange`). `routed`: stage 1's routing when the caller already routed the request (`routeRequest`).
 */
export function handleRequest(state: EngineState, request: PlainRequest, store?: StateReader, routed = routeRequest(state, request)): EngineResponse {
  // Without a store the pipeline asks nothing, so it never pauses.
  if (store === undefined) return delayStage(state, answer(state, request, null, routed));
  const response = answer(state, request, store, routed);
  return delayStage(state, isAsked(response) ? answerAtOnce(response, store) : response);
}

/**
 * Stateful mode with a store in another process (the cluster primary, Redis): the answer, or the
 * question the request asks the store (stage 5) and how it goes on once the store has answered.
 */
export function askingRequest(state: EngineState, request: PlainRequest, routed: Routed | Refusal): EngineResponse | StateAsked {
  const response = answer(state, request, ASKING, routed);
  return isAsked(response) ? thenAnswer(response, (made) => delayStage(state, made)) : delayStage(state, response);
}

/** A stateful request waiting for a store in another process (state-asked.ts). */
export type StateAsked = Asked<EngineResponse>;

/** Stands for a store that answers later: the pipeline stops at its question (askingRequest). */
const ASKING = 'asking';

/**
 * 1. Route: which operation, or 404 / 405. Exported for stateful mode, which reads the store only
 *    for a resource's operations and hands the result back to `handleRequest`, so a request is
 *    routed once.
 */
export function routeRequest(state: EngineState, request: PlainRequest): Routed | Refusal {
  return route(state.compiled.routes, request, state.compiled.mounted);
}

/** Whether a routed request is for an operation of one of stateful mode's resources. */
export function touchesState(state: EngineState, routed: Routed | Refusal): boolean {
  return !isRefusal(routed) && state.resources !== null && state.resources.actions.has(routed.operation.key);
}

/** The stages in order, the store asked between reading the request and answering it where stateful mode answers it. */
function answer(state: EngineState, request: PlainRequest, store: null, routed: Routed | Refusal): Undelayed;
function answer(state: EngineState, request: PlainRequest, store: StateReader | typeof ASKING, routed: Routed | Refusal): Undelayed | Asked<Undelayed>;
function answer(state: EngineState, request: PlainRequest, store: StateReader | typeof ASKING | null, routed: Routed | Refusal): Undelayed | Asked<Undelayed> {
  // 1. The routed request's context (a body over the size limit refused first, in the routed operation's error shape).
  const context = routeStage(state, request, routed);
  if (isRefusal(context)) return refusalResponse(context, routedOperation(routed), null, state.compiled.policy);
  const read = authenticateStage(context) // 2. the operation's security requirement
    && validateStage(context) // 3. parameters and body, every violation at once
    && selectStage(context); // 4. what the client asked for by name, its session, the scripted answer
  if (!read) return refused(context);
  // 5. Ask the state: stateful mode's store, for what this request needs (its refusal recorded like a stage's).
  const question = store === null ? null : askStateStage(context);
  if (question === null) return answered(context);
  return fromTheStore(context, question, answered);
}

/** Stages 6 to 10, from what stage 5 recorded where stateful mode's store answered. */
function answered(context: RequestContext): Undelayed {
  const goesOn = context.refusal === null // none from the store's facts (stage 5)
    && chooseStage(context) // 6. which answer, in which media type
    && streamStage(context) // 6b. a stream of events leaves here, its events planned
    && buildStage(context) // 7. the body
    && adjustStage(context) // 8. made to agree with this request and this stub
    && checkStage(context); // 9. checked against the document
  if (goesOn) finishStage(context); // 10. headers, the body serialized, deliveries, a 304 (11. the delay: delayStage)
  return context.answer ?? refused(context);
}

function refused(context: RequestContext): Undelayed {
  return refusalResponse(context.refusal!, context.operation, context.exampleAsked, context.policy);
}
