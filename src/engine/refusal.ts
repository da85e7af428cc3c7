// Errors are data: a stage that refuses a request records a Refusal (named in refusals.ts), and
// `refusalResponse` is the one place that turns it into HTTP. Refusals of the API's contract (401, 400, 413, 415, 422)
// follow the operation's documented error response (shape, media type, headers); refusals of the
// stub itself (404, 405, unknown scenario) are problem+json, since the API does not describe them.
import type { CompiledOperation, RenderedError } from '../openapi/compiled-model.js';
import { serializeBody } from './serialize-body.js';
import { problem } from '../openapi/problem-details.js';
import { documentedResponse } from '../openapi/documented-response.js';
import type { EngineResponse } from './engine-response.js';
import type { Refusal, RefusalName } from './engine-types.js';
import { STUB_POLICY, type CompatPolicy } from '../config/compat-policy.js';
import { prismRefusal } from './prism-answers.js';
import { refusedAnswer } from './answer-values.js';

/**
 * The status of a selection the stub cannot honour (unknown scenario or example, undocumented
 * Prefer code, bad X-Mock-Delay). Not 400: the API documents 400 with its own body shape, and a
 * problem+json 400 would break that contract (Prism's proxy flags it); 422 says the request was
 * understood but the stub cannot act on its instructions.
 */
export const SELECTION_ERROR_STATUS = 422;

/** A refusal by its name (refusals.ts), which travels with it to the answer, the metrics and the log. */
export function refuse(name: RefusalName, status: number, message: string, options: Partial<Omit<Refusal, 'refusal' | 'name' | 'status' | 'message'>> = {}): Refusal {
  return { refusal: true, name, status, message, violations: options.violations ?? [], ...options };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as Refusal).refusal === true;
}

/**
 * `example`: a documented example of the refusal's status the client asked for by name, if any;
 * `policy`: whose conventions the answer follows (Prism's, in `--compat prism`, where it has one).
 */
export function refusalResponse(refusal: Refusal, operation: CompiledOperation | null, example: string | null = null, policy: CompatPolicy = STUB_POLICY): EngineResponse {
  const asPrism = policy.refusals === 'prism' ? prismRefusal(refusal, operation, example) : null;
  if (asPrism) return asPrism;
  const inApiShape = operation !== null && !refusal.ownAnswer;
  const rendered = (inApiShape && example !== null ? namedExample(operation, refusal.status, example) : null) ?? (inApiShape
    ? operation.renderError(refusal.status, refusal.message, refusal.violations)
    : problem(refusal.status, refusal.message, refusal.violations, refusal.extra));
  // The refusal's own headers (WWW-Authenticate naming the scheme that failed) win over samples.
  const headers: Record<string, string> = { ...rendered.headers, ...refusal.headers };
  if (rendered.contentType !== null) headers['content-type'] = rendered.contentType;
  const body = rendered.body === undefined ? '' : serializeBody(rendered.body, false, rendered.contentType, null);
  return refusedAnswer(refusal, refusal.status, headers, body, operation, inApiShape ? documentedResponse(operation.responses, refusal.status) : null, refusal.ownAnswer === true);
}

function namedExample(operation: CompiledOperation, status: number, name: string): RenderedError | null {
  const plan = documentedResponse(operation.responses, status);
  const value = plan?.examples.get(name) ?? plan?.brokenExamples.get(name);
  return plan && value !== undefined ? { contentType: plan.contentType, body: value, headers: plan.sampleHeaders } : null;
}
