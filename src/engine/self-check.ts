// Stage 6: the stub checks its own answer against the spec before sending it: the status is
// documented for the operation, the body fits that status's schema, documented required headers
// are present and valid. Findings are returned, logged loudly and journaled, never hidden.
import { echoReplacement, type BuiltResponse } from './build-response.js';
import type { CompiledOperation } from '../openapi/compile-operations.js';
import type { StubRequest } from '../shared/plain-http.js';
import { toPlain } from '../shared/exact-json.js';

export function selfCheck(response: BuiltResponse, operationKey: string): string[] {
  const { plan } = response;
  if (!plan) return [`status ${response.status} is not documented for ${operationKey}`];
  const problems: string[] = [];
  // Fixture and example bodies were validated when the server started; echoes and generated
  // data are what can break the schema per request.
  if (plan.validateBody && (response.source === 'echo' || response.source === 'generated')) {
    if (response.body === undefined) problems.push('/: the documented response body is missing');
    else {
      const { value, rawNumbers } = response.exact ? toPlain(response.body) : { value: response.body, rawNumbers: undefined };
      for (const problem of plan.validateBody(value, rawNumbers)) problems.push(problem);
    }
  }
  for (const header of plan.headers) {
    const value = response.headers[header.name];
    if (value === undefined) {
      if (header.required) problems.push(`/headers/${header.name}: is required`);
    } else if (header.validate) {
      for (const problem of header.validate(value)) problems.push(problem);
    }
  }
  return problems;
}

/**
 * Checks an answer; an echo that breaks the response schema is replaced by the documented
 * fallback when that fits better. The problems returned are those of the answer actually sent.
 */
export function checkAnswer(operation: CompiledOperation, built: BuiltResponse, request: StubRequest): { answer: BuiltResponse; problems: string[] } {
  const problems = selfCheck(built, operation.key);
  if (problems.length === 0 || built.source !== 'echo') return { answer: built, problems };
  const replacement = echoReplacement(operation, built, request);
  const replacementProblems = selfCheck(replacement, operation.key);
  return replacementProblems.length < problems.length ? { answer: replacement, problems: replacementProblems } : { answer: built, problems };
}
