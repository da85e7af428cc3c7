// The whole request pipeline, in order. Each stage returns a value or a Refusal; a Refusal ends
// the request and `refusalResponse` turns it into HTTP. Everything the stages look up was
// compiled at start-up. Longer than 300 lines on purpose: the stages read in order in one place,
// stateful mode's pause for the store (stage 4b) included.
import type { CompiledSpec } from '../openapi/compiled-model.js';
import { buildResponse } from './build-response.js';
import { authenticate } from './authenticate.js';
import { isRefusal, refusalResponse } from './refusal.js';
import { requestRefusals } from './refusals.js';
import { readSelection } from './read-selection.js';
import type { Choice, Refusal, Selection, StateFacts, StateQuestion } from './engine-types.js';
import type { ExactJson } from '../common/plain-http.js';
import type { ResourceAction } from '../openapi/compile-resources.js';
import { stateQuestion } from './state-question.js';
import { answerAtOnce, isAsked, thenAnswer, type Asked, type StateReader } from './state-asked.js';
import { route, type Routed } from './route.js';
import type { Scenario, ScenarioTable, Sequence } from './scenario.js';
import { scriptedChoice, seededDelay, withAdded, type ScriptSettings } from './script-choice.js';
import { DEFAULT_SESSION, sessionOf, type Sessions } from './sessions.js';
import type { DelaySpread } from '../common/delay-spread.js';
import { templateContext } from './templates.js';
import { pairedExample, selectResponse } from './select-response.js';
import { negotiateMedia } from './negotiate-media.js';
import { selfCheck } from './self-check.js';
import { serializeBody } from './serialize-body.js';
import { validateRequest } from './validate-request.js';
import { answerFromState, storedAsAnswered } from './answer-from-state.js';
import { agreeWithRequest } from './agree-with-request.js';
import { keepLinksOnStub, locateCreated, stubOrigin } from './links-on-stub.js';
import { cursorPages, pageOfRequest } from './cursor-pages.js';
import { formPostAsGet } from './form-post-as-get.js';
import { conditionalGet } from './conditional-get.js';
import { isSuccessStatus } from '../openapi/success-rule.js';
import type { Resources } from '../openapi/compile-resources.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';
import { planDeliveries } from './plan-deliveries.js';
import type { PlainRequest } from '../common/plain-http.js';
import { violationsHeaderText } from '../common/violations-header.js';
import type { EngineResponse } from './engine-response.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { serverRefusals } from './refusals.js';
import { SchemaTooComplexError } from '../generate/schema-sample.js';
import { requestWarnings } from './request-warnings.js';
import { violationsHeader } from './prism-answers.js';
import { STREAM_DEFAULTS, streamResponse, streamVariant, type StreamSettings } from './answer-stream.js';

/** What the pipeline reads besides the request; swapped whole on reload. */
export interface EngineState {
  compiled: CompiledSpec;
  scenarios: ScenarioTable;
  /** Scenario chosen through /__admin/scenario for requests that carry no selection (the default session's). */
  sticky: string | null;
  /** Operation key -> its fixture's sequence of answers. */
  sequences?: ReadonlyMap<string, Sequence>;
  defaultDelayMs: number;
  /** --delay as a spread (`100-800`): each answer's wait drawn from it; null when fixed. */
  defaultDelaySpread?: DelaySpread | null;
  /** The seed and --chaos, for the scripted choices' draws. */
  script?: ScriptSettings;
  /** The document as loaded, for what reads it whole (GET /__admin/fixture-schema); not read by the pipeline. */
  document?: Record<string, unknown>;
  /** What scripted answers remember between requests, per session; the same object across reloads. */
  sessions?: Sessions;
  /** Stateful mode: the resources inferred from the document; null when stateful mode is off. */
  resources: Resources | null;
  /** Operation key -> webhooks its fixture file sends after each successful answer. */
  triggers?: ReadonlyMap<string, readonly string[]>;
  /** How streamed answers are paced and bounded; the defaults when absent. */
  stream?: StreamSettings;
  /** What loading the fixtures warned of (a file for an operation the document lacks), for GET /__admin/warnings; not read by the pipeline. */
  fixtureWarnings?: readonly DocumentWarning[];
}

/** Shared by every request without a query string; nothing writes to it. */
const NO_QUERY = new URLSearchParams();

/** An answer before stage 9: `delayMs` is null when neither the request nor its scenario scripted one. */
type Undelayed = Omit<EngineResponse, 'delayMs'> & { delayMs: number | null };

/**
 * `store`: in stateful mode, a store in this process that answers at once (the caller applies
 * `stateChange`). `routed`: stage 1's result when the caller already routed the request (`routeRequest`).
 */
export function handleRequest(state: EngineState, request: PlainRequest, store?: StateReader, routed = routeRequest(state, request)): EngineResponse {
  // 1b. A form POST to a GET documented with a form request is answered as that GET.
  const response = answer(state, isRefusal(routed) ? request : formPostAsGet(routed.operation, request), store ?? null, routed);
  return delayed(state, isAsked(response) ? answerAtOnce(response, store!) : response);
}

/**
 * Stateful mode with a store in another process (the cluster primary, Redis): the answer, or the
 * question the request asks the store (stage 4b) and how it goes on once the store has answered.
 */
export function askingRequest(state: EngineState, request: PlainRequest, routed: Routed | Refusal): EngineResponse | StateAsked {
  const response = answer(state, isRefusal(routed) ? request : formPostAsGet(routed.operation, request), ASKING, routed);
  return isAsked(response) ? thenAnswer(response, (made) => delayed(state, made)) : delayed(state, response);
}

/** A stateful request waiting for a store in another process (state-asked.ts). */
export type StateAsked = Asked<EngineResponse>;

/** Stands for a store that answers later: the pipeline stops at its question (askingRequest). */
const ASKING = 'asking';

/**
 * 9. Delay: what the request (X-Mock-Delay, Prefer) or its scenario scripted; else --delay, which
 *    simulates the network for every answer: a refusal (never scripted) waits as long as a served one.
 */
function delayed(state: EngineState, response: Undelayed): EngineResponse {
  if (response.delayMs === null || response.scenario === null) {
    const spread = state.defaultDelaySpread;
    response.delayMs = spread && state.sessions ? seededDelay(spread, state.script?.seed ?? 0, 'default', state.sessions.delayDraws++) : state.defaultDelayMs;
  }
  return response as EngineResponse;
}

/** The first of the routed operation's alternatives (fragment-operations.ts) that admits the request and accepts it. */
function validAlternative(compiled: CompiledSpec, routed: CompiledOperation, request: PlainRequest, pathParams: Record<string, string>, query: URLSearchParams) {
  for (const operation of compiled.alternatives.get(routed) ?? []) {
    if (authenticate(operation.checkSecurity, request, query)) continue;
    const read = validateRequest(operation, request, pathParams, query);
    if (!isRefusal(read)) return { operation, read };
  }
  return null;
}

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

function answer(state: EngineState, request: PlainRequest, store: StateReader | typeof ASKING | null, routed: Routed | Refusal): Undelayed | Asked<Undelayed> {
  // Where the answers follow Prism's conventions (--compat prism), read by the stages that differ.
  const { policy } = state.compiled;
  const refused = (refusal: Refusal, operation: CompiledOperation | null, example: string | null = null) => refusalResponse(refusal, operation, example, policy);
  // 1. (routed before) A body over the size limit is refused first, in the operation's own error
  //    shape when one matched: the rest of it was never read.
  if (request.bodyLimitExceeded !== undefined) return refused(requestRefusals.bodyTooLarge(request.bodyLimitExceeded), isRefusal(routed) ? null : routed.operation);
  if (isRefusal(routed)) return refused(routed, null);
  const { pathParams } = routed;
  let { operation } = routed;
  const query = request.rawQuery === '' ? NO_QUERY : new URLSearchParams(request.rawQuery);

  // 2. Authenticate: the operation's security requirement.
  //    A refusal here may still be asked for by example name (`Prefer: code=401, example=expired`).
  const denied = authenticate(operation.checkSecurity, request, query);
  if (denied) return refused(denied, operation, exampleAskedFor(request, query, denied.status));

  // 3. Validate: parameters and body, every violation at once. An operation written on the same
  //    path apart by a `#fragment` answers a request the routed one refuses and it accepts.
  let read = validateRequest(operation, request, pathParams, query);
  const alternative = isRefusal(read) ? validAlternative(state.compiled, operation, request, pathParams, query) : null;
  if (alternative) ({ operation, read } = alternative);
  if (isRefusal(read)) return refused(read, operation, exampleAskedFor(request, query, read.status));
  //    A form's fields are echoed, matched and stored as a JSON body's are (read into the object its schema describes).
  const body = read;

  // 4. Select: scenario, Prefer (or Prism's query selectors), sticky scenario, or the documented success.
  const asked = readSelection(request, query);
  if (isRefusal(asked)) return refused(asked, operation);
  //    Prism's -d: dynamic unless the request says otherwise (`__dynamic=false`).
  const selection = asked.dynamic === null && policy.dynamicByDefault ? { ...asked, dynamic: true } : asked;
  //    The request's session (X-Mock-Session): its sticky scenario, sequences, counts and added answers.
  const session = sessionOf(request.headers['x-mock-session']);
  const play = state.sessions?.play(session);
  const sticky = session === DEFAULT_SESSION || !play ? state.sticky : play.sticky;
  const fixtures = state.scenarios.get(operation.key);
  const added = play?.added.get(operation.key);
  const scenarios = added ? withAdded(added, fixtures) : fixtures;
  //    A scripted answer (added from a test, the sequence's step, a `match`, chance, --chaos), when nothing was asked for by name.
  const sequence = state.sequences?.get(operation.key);
  const scripted = play && state.script && (scenarios || sequence || state.script.chaos) && choosesNothing(selection, scenarios, sticky)
    ? scriptedChoice(operation, fixtures, sequence, play, { pathParams, query, headers: request.headers, body: body?.value }, state.script) : null;
  const matched = scripted?.scenario ?? null;
  //    Stateful mode: the stored resources answer a request that asked for nothing else. The store
  //    is asked only now, for what this request needs: a refused request costs it nothing.
  const action = store !== null ? state.resources?.actions.get(operation.key) : undefined;
  const question = action && !matched && asksNothing(selection, scenarios, sticky) ? stateQuestion(operation, action, pathParams, query, read) : null;
  const chosen: Chosen = { state, request, operation, pathParams, query, body, selection, session, scenarios, sticky, matched, scripted, action };
  if (!action || question === null) return answerChosen(chosen, null);
  const fromFacts = (asked: StateQuestion) => (facts: StateFacts): Undelayed | Asked<Undelayed> => {
    const got = answerFromState(operation, action, asked, facts, pathParams, query, read);
    return got !== null && 'ask' in got ? { question: got.ask, resume: fromFacts(got.ask) } : answerChosen(chosen, got);
  };
  return { question, resume: fromFacts(question) };
}

/** What stages 1-4 found, for the rest of the pipeline. */
interface Chosen {
  state: EngineState;
  request: PlainRequest;
  operation: CompiledOperation;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  body: ExactJson | null;
  selection: Selection;
  session: string;
  scenarios: ReadonlyMap<string, Scenario> | undefined;
  sticky: string | null;
  matched: Scenario | null;
  scripted: ReturnType<typeof scriptedChoice> | null | undefined;
  action: ResourceAction | undefined;
}

/** Stages 4 (the rest) to 8, with the answer from the state when stateful mode gave one. */
function answerChosen(chosen: Chosen, fromState: Choice | Refusal | null): Undelayed {
  const { state, request, operation, pathParams, query, body, selection, session, scenarios, sticky, matched, scripted, action } = chosen;
  const { policy } = state.compiled;
  const refused = (refusal: Refusal, operation: CompiledOperation | null) => refusalResponse(refusal, operation, null, policy);
  if (isRefusal(fromState)) return refused(fromState, operation);
  //    A body equal to a named request example gets the response example of that name.
  const paired = !fromState && !matched && body !== null && operation.body?.examples.size ? pairedExample(operation, body.value) : null;
  const selected = fromState ?? selectResponse(operation, scenarios, selection, sticky, body !== null && policy.echoRequests, matched, paired);
  if (isRefusal(selected)) return refused(selected, operation);
  //    Then the media type the client accepts, among those the chosen response documents.
  const negotiated = negotiateMedia(selected, request.headers.accept, policy.preferredMedia);
  if (isRefusal(negotiated)) return refused(negotiated, operation);
  //    A stream of events where Accept chose one, or a JSON body said `"stream": true` (answer-stream.ts).
  const streamed = streamVariant(negotiated, request.headers.accept, body);
  if (streamed !== null) return streamResponse(operation, streamed, negotiated, request, state.stream ?? STREAM_DEFAULTS, selection);
  //    A templated scenario renders from the request.
  const choice = negotiated.kind === 'scenario' && negotiated.scenario.render ? { ...negotiated, context: templateContext(request, pathParams, query, body, session) } : negotiated;

  // 5. Build the body (with the builder's own fallback), then 6. check it before it leaves.
  //    A stateless answer then agrees with the request: the path's id answered, a list's ids distinct.
  //    Links in its headers and body stay on the stub, pagination links and cursors built for this page.
  let built;
  try {
    built = buildResponse(operation, choice, request, body);
  } catch (error) {
    // Prism's static data: a schema whose sample would be too large is refused, not cut down.
    if (error instanceof SchemaTooComplexError) return refused(serverRefusals.tooComplex(choice.plan?.schemaPointer ?? ''), operation);
    throw error;
  }
  const linked = keepLinksOnStub(agreeWithRequest(operation, choice, built, pathParams, pageOfRequest(operation.cursorPaging, query), reflects(policy.echoRequests, selection) ? { query, body: body?.value } : undefined), request, query, state.compiled.serverOrigins);
  const paged = operation.cursorPaging === null ? linked : cursorPages(operation.cursorPaging, linked, request, query, stubOrigin(request));
  const created = choice.kind === 'state' && choice.change?.action === 'create' && action ? choice.change.id : null;
  const answer = created === null || !action ? paged : locateCreated(paged, request, action.resource.itemPath, action.resource.idParam, created, pathParams);
  const problems = selfCheck(answer, operation.key, policy.checkEveryAnswer);
  //    Prism sends only text as text/*.
  if (policy.onlyTextAsText && answer.body !== undefined && typeof answer.body !== 'string' && answer.contentType?.toLowerCase().startsWith('text/')) {
    return refused(serverRefusals.notText(answer.contentType), operation);
  }
  //    With --errors, an answer that breaks its own schema is not sent: a 500 says why.
  if (policy.refuseBrokenAnswers && problems.length > 0) return refused(serverRefusals.brokenAnswer(problems), operation);

  const scenario = choice.kind === 'scenario' ? choice.scenario : null;
  const fault = selection.fault ?? scenario?.fault ?? undefined;
  // 7. What goes out once a successful answer is sent: webhooks the fixtures name, callbacks.
  const fired = webhooksToFire(state.triggers?.get(operation.key), scenario?.webhooks);
  const sendsOut = (fired.length > 0 || operation.callbacks.length > 0) && isSuccessStatus(answer.status) && fault === undefined;
  const headers: Record<string, string> = { ...answer.headers, 'x-mock-scenario': answer.scenario };
  //    A templated answer that breaks its schema is still sent (it is the user's script), and says so.
  if (scenario?.render && problems.length > 0) headers['x-mock-violations'] = violationsHeaderText(problems);
  //    Prism's sl-violations: what was wrong with the request (warnings only, here) and with the answer.
  if (policy.violationsHeader) {
    const warnings = requestWarnings(operation, request, query);
    if (warnings.length > 0 || problems.length > 0) headers['sl-violations'] = violationsHeader([], warnings, problems);
  }
  if (answer.body !== undefined && answer.contentType) headers['content-type'] = answer.contentType;
  // 8. A conditional GET whose ETag still matches is a 304.
  return conditionalGet(operation, request, {
    status: answer.status,
    headers,
    body: answer.body === undefined ? '' : serializeBody(answer.body, answer.exact, answer.contentType, answer.plan?.writeXml ?? null),
    scenario: answer.scenario,
    ...(scripted?.step ? { step: scripted.step } : {}),
    ...(session === DEFAULT_SESSION ? {} : { session }),
    violations: NOTHING,
    selfCheck: problems.length === 0 ? NOTHING : problems,
    delayMs: selection.delayMs ?? scenario?.delayMs ?? (scenario?.delaySpread && state.sessions ? seededDelay(scenario.delaySpread, state.script?.seed ?? 0, scenario.name, state.sessions.delayDraws++) : null),
    operation,
    documented: answer.plan,
    ownAnswer: false,
    fault,
    deliveries: sendsOut ? planDeliveries(state.compiled.webhooks, fired, operation, request, body, pathParams, query) : undefined,
    stateChange: choice.kind === 'state' ? storedAsAnswered(choice, built) : null,
  });
}

/**
 * An answer's lists when they are empty, shared (frozen: nothing may add to them): the journal
 * keeps each answer's lists for as long as it keeps the answer, and a new empty array per request
 * is one more object per entry to copy out of the young generation and promote.
 */
const NOTHING = Object.freeze([]) as unknown as string[];

/** Shared by every answer that fires no webhook (a default `= []` is a new array per call). */
const NONE: readonly string[] = [];

/** The operation's own webhook triggers plus the chosen scenario's, each once. */
function webhooksToFire(forOperation: readonly string[] = NONE, forScenario: readonly string[] = NONE): readonly string[] {
  return forScenario.length === 0 ? forOperation : [...new Set([...forOperation, ...forScenario])];
}



/** Scenarios, Prefer and faults win when asked for (and change no state), as does a sticky scenario of this operation. */
function asksNothing(selection: Selection, scenarios: ReadonlyMap<string, unknown> | undefined, sticky: string | null): boolean {
  return selection.fault === null && choosesNothing(selection, scenarios, sticky);
}

/** An RPC-style answer reflects the request's fields unless the client asked for a documented response (`Prefer: code=201`, an example by name). */
function reflects(echoRequests: boolean, selection: Selection): boolean {
  return echoRequests && selection.code === null && selection.example === null;
}

/** No answer chosen by name (a fault injects into whatever answers, so `match` still applies with one). */
function choosesNothing(selection: Selection, scenarios: ReadonlyMap<string, unknown> | undefined, sticky: string | null): boolean {
  return selection.scenario === null && selection.code === null && selection.example === null && !selection.dynamic
    && (sticky === null || !scenarios?.has(sticky));
}

/**
 * The example a refused request names for the refusal's status (`Prefer: code=422,
 * example=usernameIsEmpty`, or Prism's `?__code=422&__example=…`): a client that sends an invalid
 * form on purpose can pick which documented error it sees. A name for another status is ignored.
 */
function exampleAskedFor(request: PlainRequest, query: URLSearchParams, status: number): string | null {
  const selection = readSelection(request, query);
  if (isRefusal(selection) || selection.example === null) return null;
  return selection.code === null || selection.code === status ? selection.example : null;
}
