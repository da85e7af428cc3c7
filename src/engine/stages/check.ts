// Stage 9, check: the answer checked against the document before it leaves (self-check.ts). Its
// problems are journaled and logged, and the answer sent as built, unless the policy says
// otherwise: with --errors an answer that breaks its own schema is a 500 saying why, and Prism
// sends only text as `text/*`.
import { serverRefusals } from '../refusals.js';
import { selfCheck } from '../self-check.js';
import type { RequestContext } from './request-context.js';

/** Records the answer's problems (none, nearly always), or the refusal the policy makes of them. */
export function checkStage(context: RequestContext): boolean {
  const { policy } = context;
  const answer = context.adjusted!;
  const problems = selfCheck(answer, context.operation.key, policy.checkEveryAnswer);
  if (policy.onlyTextAsText && answer.body !== undefined && typeof answer.body !== 'string' && answer.contentType?.toLowerCase().startsWith('text/')) {
    context.refusal = serverRefusals.notText(answer.contentType);
  } else if (policy.refuseBrokenAnswers && problems.length > 0) {
    context.refusal = serverRefusals.brokenAnswer(problems);
  } else {
    context.problems = problems;
  }
  return context.refusal === null;
}
