// Stage 6, called once by the pipeline: the stub checks its own answer against the spec before
// sending it: the status is documented for the operation, the body fits that status's schema, documented required headers
// are present and valid. It only checks: findings are returned, logged loudly and journaled,
// never hidden, and the answer is sent as built.
import type { BuiltResponse } from './engine-types.js';
import { checkBody } from './check-body.js';

export function selfCheck(response: BuiltResponse, operationKey: string): string[] {
  const { plan } = response;
  if (!plan) return [`status ${response.status} is not documented for ${operationKey}`];
  const problems: string[] = [];
  // Fixture and example bodies were validated when the server started; echoes and generated
  // data are what can break the schema per request. The builder already checked echoes (to
  // choose their fallback) and answers from the state.
  if (response.bodyViolations) problems.push(...response.bodyViolations);
  else if (response.choiceKind === 'generated') problems.push(...checkBody(response));
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
