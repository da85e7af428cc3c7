// The request pipeline, as its table of contents: each stage (stages/) reads the request's one
// context and returns a value or a Refusal; a Refusal ends the request and `refusalResponse`
// turns it into HTTP. Where the answers follow Prism's conventions is policy the stages read
// (config/compat-policy.ts), never a branch here. In stateful mode the pipeline pauses at its
// question to the store (stage 5) and goes on from the store's facts, at once for a store in this
// process, later for one in another (askingRequest).
import type { PlainRequest } from '../common/plain-http.js';
import type { Choice, Refusal } from './engine-types.js';
import type { EngineResponse } from './engine-response.js';
import { isRefusal, refusalResponse } from './refusal.js';
import type { Routed } from './route.js';
import { answerAtOnce, isAsked, thenAnswer, type Asked, type StateReader } from './state-asked.js';
import type { EngineState, RequestContext, Undelayed } from './stages/request-context.js';
import { routeOf, routeStage, routedOperation } from './stages/route.js';
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
  const response = answer(state, request, store ?? null, routed);
  return delayStage(state, isAsked(response) ? answerAtOnce(response, store!) : response);
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
  return routeOf(state, request);
}

/** Whether a routed request is for an operation of one of stateful mode's resources. */
export function touchesState(state: EngineState, routed: Routed | Refusal): boolean {
  return !isRefusal(routed) && state.resources !== null && state.resources.actions.has(routed.operation.key);
}

/** Stages 1 to 5: the request read, and the store asked where stateful mode answers it. */
function answer(state: EngineState, request: PlainRequest, store: StateReader | typeof ASKING | null, routed: Routed | Refusal): Undelayed | Asked<Undelayed> {
  // 1. Route (a body over the size limit refused first, in the routed operation's error shape).
  const context = routeStage(state, request, routed);
  if (isRefusal(context)) return refusalResponse(context, routedOperation(routed), null, state.compiled.policy);
  // 2. Authenticate, 3. validate, 4. select.
  const refusal = authenticateStage(context) ?? validateStage(context) ?? selectStage(context);
  if (refusal) return refused(context, refusal);
  // 5. Ask the state: stateful mode's store, for what this request needs.
  const question = store === null ? null : askStateStage(context);
  if (question === null) return answerChosen(context, null);
  return fromTheStore(context, question, (fromState) => answerChosen(context, fromState));
}

/** Stages 6 to 10, with the answer from the state when stateful mode gave one. */
function answerChosen(context: RequestContext, fromState: Choice | Refusal | null): Undelayed {
  // 6. Choose the answer and its media type; a stream leaves here, its events planned.
  const choice = chooseStage(context, fromState);
  if (isRefusal(choice)) return refused(context, choice);
  const stream = streamStage(context, choice);
  if (stream !== null) return stream;
  // 7. Build the body, 8. adjust it to this request and this stub, 9. check it.
  const built = buildStage(context, choice);
  if (isRefusal(built)) return refused(context, built);
  const adjusted = adjustStage(context, choice, built);
  const problems = checkStage(context, adjusted);
  if (isRefusal(problems)) return refused(context, problems);
  // 10. Finish: headers, body, deliveries, a 304. (11. The delay: delayStage.)
  return finishStage(context, choice, built, adjusted, problems);
}

function refused(context: RequestContext, refusal: Refusal): Undelayed {
  return refusalResponse(refusal, context.operation, context.exampleAsked, context.policy);
}
