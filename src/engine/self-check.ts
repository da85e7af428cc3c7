// Stage 9 (check): the stub checks its own answer against the spec before
// sending it: the status is documented for the operation, the body fits that status's schema, documented required headers
// are present and valid. It only checks: findings are returned, logged loudly and journaled,
// never hidden, and the answer is sent as built.
import type { BuiltResponse } from './engine-types.js';
import { checkBody } from './check-body.js';

/** `everyAnswer`: check examples and fixtures too (the compat policy's `checkEveryAnswer`: Prism checks each answer, and serves broken examples). */
export function selfCheck(response: BuiltResponse, operationKey: string, everyAnswer = false): string[] {
  const { plan } = response;
  if (!plan) return [`status ${response.status} is not documented for ${operationKey}`];
  const problems: string[] = [];
  // Fixture and example bodies were validated when the server started; echoes and generated
  // data are what can break the schema per request. The builder already checked echoes (to
  // choose their fallback) and answers from the state, and the adjust stage a body it changed.
  if (response.bodyViolations) problems.push(...response.bodyViolations);
  else if (response.choiceKind === 'generated' || everyAnswer) problems.push(...checkBody(response));
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
