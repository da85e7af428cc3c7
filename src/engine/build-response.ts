// Stage 7 (build): the body of the chosen response. Echo projects the request onto the response schema,
// an example is served as documented, generated data comes from the schema (seeded per request),
// a scenario serves its fixture, an answer from the state projects the stored item. Numbers keep their exact text on the way out. The builder owns
// the fallbacks: an echo its response schema rejects (the request's shapes did not fit this
// document's response) becomes the documented example, else generated data; generated data its
// own schema rejects is generated again, a bounded number of times (openapi/generate-fitting.ts).
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { BuiltResponse, Choice, ChoiceKind, StateIdentity } from './engine-types.js';
import { headerSafe } from '../openapi/header-value.js';
import { generateFitting } from '../openapi/generate-fitting.js';
import { checkBody } from './check-body.js';
import { defaultExampleName, exampleOrGenerated } from './example-or-generated.js';
import type { ExactJson, PlainRequest } from '../common/plain-http.js';
import { latin1Text } from '../common/bytes.js';
import { isExactObject } from '../common/exact-json.js';
import { mendFromFallback } from './mend-from-fallback.js';
import { withStoreFigures } from './store-figures.js';
import { scenarioAnswer } from './scripted-answer.js';

export function buildResponse(operation: CompiledOperation, choice: Choice, request: PlainRequest, body: ExactJson | null): BuiltResponse {
  switch (choice.kind) {
    case 'scenario':
      return scenarioAnswer(choice.scenario, choice.plan, request, choice.context, () => buildResponse(operation, exampleOrGenerated(choice.plan!, choice.scenario.status), request, null));
    case 'example':
      return exampleAnswer(choice.plan, choice.status, choice.name);
    case 'generated':
      return generatedAnswer(operation, choice.plan, choice.status, request, choice.dynamic);
    case 'echo':
      return echoOrFallback(operation, choice.plan, choice.status, request, body!);
    case 'state':
      return withStoreFigures({ ...fromState(operation, choice.plan, request, choice.value, choice.identity, choice.placing), pages: choice.pages, next: choice.next }, choice.figures);
  }
}

/** The body of an answer from the state: the item (or list) projected onto the documented response. */
function fromState(operation: CompiledOperation, plan: ResponsePlan, request: PlainRequest, value: unknown, identity: StateIdentity | null, placing: ReadonlySet<string>): BuiltResponse {
  const body = plan.project ? plan.project(value, () => fallbackValue(operation, plan, request)) : plan.schemaPointer ? fallbackValue(operation, plan, request) : undefined;
  let answer = built(plan, plan.status, body, 'state', 'state', true);
  // Stored items may come from PUT /__admin/state, an older document, or a create whose request
  // schema allows what the answer's does not: check them like echoes, and mend what breaks.
  answer.bodyViolations = checkBody(answer);
  if (answer.bodyViolations.length > 0) answer = mended(operation, plan, request, answer, placing);
  if (identity === null || answer.bodyViolations!.length > 0) return answer;
  // A create answer whose schema is the create request's (no `id`) still tells the id assigned,
  // where the schema allows the extra property.
  const withId = withIdentity(body, value, identity);
  if (withId === null) return answer;
  const kept: BuiltResponse = { ...answer, body: withId };
  kept.bodyViolations = checkBody(kept);
  return kept.bodyViolations.length === 0 ? kept : answer;
}

/** The answer with each value that breaks its schema taken from the answer without state; kept as it was where that breaks it more. */
function mended(operation: CompiledOperation, plan: ResponsePlan, request: PlainRequest, answer: BuiltResponse, placing: ReadonlySet<string>): BuiltResponse {
  const body = mendFromFallback(answer.body, answer.bodyViolations!, fallbackValue(operation, plan, request), placing);
  if (body === null) return answer;
  const tried: BuiltResponse = { ...answer, body };
  tried.bodyViolations = checkBody(tried);
  return tried.bodyViolations.length < answer.bodyViolations!.length ? tried : answer;
}

/** `projected` with the stored item's id put back where the projection dropped it; null when it kept it (or there is none). */
function withIdentity(projected: unknown, stored: unknown, identity: StateIdentity): unknown {
  const itemOf = (whole: unknown) => {
    const item = identity.envelope !== null && isExactObject(whole) ? whole[identity.envelope] : whole;
    return isExactObject(item) ? item : null;
  };
  const from = itemOf(stored);
  const into = itemOf(projected);
  if (from === null || into === null || from[identity.field] === undefined || into[identity.field] !== undefined) return null;
  const item = { ...into, [identity.field]: from[identity.field] };
  return identity.envelope !== null ? { ...(projected as Record<string, unknown>), [identity.envelope]: item } : item;
}


function echoOrFallback(operation: CompiledOperation, plan: ResponsePlan, status: number, request: PlainRequest, body: ExactJson): BuiltResponse {
  const source = body.exact ?? body.value;
  const answerWithout = () => buildResponse(operation, exampleOrGenerated(plan, status), request, null);
  // A body that shares no field with the answer (`{merchantAccount}` asking for payment methods)
  // would echo as `{}`: the documented example (else generated data) answers instead.
  if (!plan.project!.takesFrom(source)) return answerWithout();
  const projected = plan.project!(source, () => fallbackValue(operation, plan, request));
  const echo = built(plan, status, projected, 'echo', 'echo', body.exact !== undefined);
  echo.bodyViolations = checkBody(echo);
  if (echo.bodyViolations.length === 0) return echo;
  const fallback = answerWithout();
  // Keep whichever breaks the schema less, so the self-check reports the answer actually sent.
  fallback.bodyViolations ??= checkBody(fallback);
  return fallback.bodyViolations.length < echo.bodyViolations.length ? fallback : echo;
}

/** What fills a required field the request does not hold: the first example, else generated data. */
function fallbackValue(operation: CompiledOperation, plan: ResponsePlan, request: PlainRequest): unknown {
  const name = defaultExampleName(plan);
  return name === null ? generated(operation, plan, requestKey(request), false) : plan.examples.get(name);
}

function exampleAnswer(plan: ResponsePlan, status: number, name: string): BuiltResponse {
  const body = plan.examples.has(name) ? plan.examples.get(name) : plan.brokenExamples.get(name);
  return built(plan, status, body, 'example', `example:${headerSafe(name)}`);
}

function generatedAnswer(operation: CompiledOperation, plan: ResponsePlan, status: number, request: PlainRequest, dynamic: boolean): BuiltResponse {
  const { value, violations, capped } = generateFitting(operation.generate, plan, requestKey(request), dynamic, operation.generationCapped);
  const answer = built(plan, status, value, 'generated', 'generated');
  answer.bodyViolations = violations;
  // Capped data breaks its schema by design (the size warning says so at start-up).
  if (violations !== null && violations.length > 0 && !capped) operation.reportUnsatisfiable(plan.schemaPointer!, violations);
  return answer;
}

/** Seeded generation keys on the request itself, so the answer does not depend on request order. */
function requestKey(request: PlainRequest): string {
  return `${request.method} ${request.path}?${request.rawQuery} ${latin1Text(request.body)}`;
}

function generated(operation: CompiledOperation, plan: ResponsePlan, key: string, dynamic: boolean): unknown {
  if (!plan.schemaPointer) return undefined;
  return operation.generate(plan.schemaPointer, key, dynamic);
}

/** `exact`: the body may hold numbers kept as their text (an echo of one, the state's items). */
function built(plan: ResponsePlan, status: number, body: unknown, choiceKind: ChoiceKind, scenario: string, exact = false): BuiltResponse {
  return { status, contentType: plan.contentType, headers: plan.sampleHeaders, body, exact, choiceKind, scenario, plan, bodyViolations: null };
}
