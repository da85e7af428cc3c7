// The whole request pipeline, in order. Each stage returns a value or a Refusal; a Refusal ends
// the request and `refusalResponse` turns it into HTTP. Everything the stages look up was
// compiled at start-up.
import type { CompiledSpec } from '../openapi/compile-operations.js';
import { buildResponse } from './build-response.js';
import { authenticate } from './authenticate.js';
import { refusalResponse, isRefusal } from './refusal.js';
import { readSelection } from './read-selection.js';
import { route } from './route.js';
import type { ScenarioTable } from './scenario.js';
import { selectResponse } from './select-response.js';
import { checkAnswer } from './self-check.js';
import { stringifyExact } from '../shared/exact-json.js';
import { validateRequest } from './validate-request.js';
import type { StubRequest, StubResponse } from '../shared/plain-http.js';

/** What the pipeline reads besides the request; swapped whole on reload. */
export interface EngineState {
  compiled: CompiledSpec;
  scenarios: ScenarioTable;
  /** Scenario chosen through /__admin/scenario for requests that carry no selection. */
  sticky: string | null;
  defaultDelayMs: number;
}

/** Shared by every request without a query string; nothing writes to it. */
const NO_QUERY = new URLSearchParams();

export function handleRequest(state: EngineState, request: StubRequest): StubResponse {
  // 1. Route: which operation, or 404 / 405.
  const routed = route(state.compiled.routes, request);
  if (isRefusal(routed)) return refusalResponse(routed, null);
  const { operation, pathParams } = routed;
  const query = request.rawQuery === '' ? NO_QUERY : new URLSearchParams(request.rawQuery);

  // 2. Authenticate: the operation's security requirement.
  const denied = authenticate(operation.checkSecurity, request, query);
  if (denied) return refusalResponse(denied, operation);

  // 3. Validate: parameters and body, every violation at once.
  const body = validateRequest(operation, request, pathParams, query);
  if (isRefusal(body)) return refusalResponse(body, operation);

  // 4. Select: scenario, Prefer, sticky scenario, or the documented success.
  const selection = readSelection(request);
  if (isRefusal(selection)) return refusalResponse(selection, operation);
  const scenarios = state.scenarios.get(operation.key);
  const choice = selectResponse(operation, scenarios, selection, state.sticky, body !== null);
  if (isRefusal(choice)) return refusalResponse(choice, operation);

  // 5. Build the body, then 6. check it against the spec before it leaves.
  const built = buildResponse(operation, choice, request, body);
  const { answer, problems } = checkAnswer(operation, built, request);

  const scenario = choice.kind === 'scenario' ? choice.scenario : null;
  const headers: Record<string, string> = { ...answer.headers, 'x-mock-scenario': answer.label };
  if (answer.body !== undefined && answer.contentType) headers['content-type'] = answer.contentType;
  return {
    status: answer.status,
    headers,
    body: answer.body === undefined ? '' : stringifyExact(answer.body, answer.exact),
    scenario: answer.label,
    violations: [],
    selfCheck: problems,
    delayMs: selection.delayMs ?? scenario?.delayMs ?? state.defaultDelayMs,
    operation: operation.key,
    fault: selection.fault ?? scenario?.fault ?? undefined,
  };
}
