// Stage 9, check: the answer checked against the document before it leaves (self-check.ts). Its
// problems are journaled and logged, and the answer sent as built, unless the policy says
// otherwise: with --errors an answer that breaks its own schema is a 500 saying why, and Prism
// sends only text as `text/*`.
import type { BuiltResponse, Refusal } from '../engine-types.js';
import { serverRefusals } from '../refusals.js';
import { selfCheck } from '../self-check.js';
import type { RequestContext } from './request-context.js';

/** The answer's problems (none, nearly always), or the refusal the policy makes of them. */
export function checkStage(context: RequestContext, answer: BuiltResponse): string[] | Refusal {
  const { policy } = context;
  const problems = selfCheck(answer, context.operation.key, policy.checkEveryAnswer);
  if (policy.onlyTextAsText && answer.body !== undefined && typeof answer.body !== 'string' && answer.contentType?.toLowerCase().startsWith('text/')) {
    return serverRefusals.notText(answer.contentType);
  }
  if (policy.refuseBrokenAnswers && problems.length > 0) return serverRefusals.brokenAnswer(problems);
  return problems;
}
