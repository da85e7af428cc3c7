// Stage 5: the body of the chosen response. Echo projects the request onto the response schema,
// an example is served as documented, generated data comes from the schema (seeded per request),
// a scenario serves its fixture. Numbers keep their exact text on the way out.
import type { CompiledOperation, ResponsePlan } from '../openapi/compile-operations.js';
import type { Choice } from './select-response.js';
import { headerSafe } from '../openapi/header-value.js';
import type { ExactJson, StubRequest } from '../shared/plain-http.js';

export interface BuiltResponse {
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  /** The body value; may hold LosslessNumber leaves when `exact` is true. undefined: no body. */
  body: unknown;
  exact: boolean;
  label: string;
  /** Where the body came from; fixture and example bodies were checked against the spec at start-up. */
  source: Choice['kind'];
  plan: ResponsePlan | null;
}

export function buildResponse(operation: CompiledOperation, choice: Choice, request: StubRequest, body: ExactJson | null): BuiltResponse {
  switch (choice.kind) {
    case 'scenario': {
      const { scenario, plan } = choice;
      return {
        status: scenario.status,
        contentType: scenario.headers['content-type'] ?? plan?.contentType ?? 'application/json',
        headers: plan ? { ...plan.sampleHeaders, ...scenario.headers } : scenario.headers,
        body: scenario.body,
        exact: false,
        label: scenario.name,
        source: 'scenario',
        plan,
      };
    }
    case 'example':
      return built(choice.plan, choice.status, choice.plan.examples.get(choice.name), 'example', `example:${headerSafe(choice.name)}`);
    case 'generated':
      return built(choice.plan, choice.status, generated(operation, choice.plan, request), 'generated', 'generated');
    case 'echo': {
      const { plan } = choice;
      const source = body!.exact ?? body!.value;
      const value = plan.project!(source, () => fallbackFor(operation, plan, request));
      return { ...built(plan, choice.status, value, 'echo', 'echo'), exact: body!.exact !== undefined };
    }
  }
}

/** What fills a required field the request does not hold: the first example, else generated data. */
function fallbackFor(operation: CompiledOperation, plan: ResponsePlan, request: StubRequest): unknown {
  const example = plan.examples.values().next();
  return example.done ? generated(operation, plan, request) : example.value;
}

/**
 * The answer that replaces an echo the response schema rejects (the request's shapes did not fit
 * another document's response): the documented example, else generated data, labelled as such.
 */
export function echoReplacement(operation: CompiledOperation, echo: BuiltResponse, request: StubRequest): BuiltResponse {
  const plan = echo.plan!;
  const example = plan.examples.entries().next();
  return example.done
    ? built(plan, echo.status, generated(operation, plan, request), 'generated', 'generated')
    : built(plan, echo.status, example.value[1], 'example', `example:${headerSafe(example.value[0])}`);
}

function generated(operation: CompiledOperation, plan: ResponsePlan, request: StubRequest): unknown {
  if (!plan.schemaPointer) return undefined;
  // Seeded generation keys on the request itself, so the answer does not depend on request order.
  const key = `${request.method} ${request.path}?${request.rawQuery} ${request.body.toString('latin1')}`;
  return operation.generate(plan.schemaPointer, key);
}

function built(plan: ResponsePlan, status: number, body: unknown, source: Choice['kind'], label: string): BuiltResponse {
  return { status, contentType: plan.contentType, headers: plan.sampleHeaders, body, exact: false, label, source, plan };
}
