// Stage 7, build: the chosen answer's body, with the builder's own fallbacks (build-response.ts).
import { buildResponse } from '../build-response.js';
import { serverRefusals } from '../refusals.js';
import { SchemaTooComplexError } from '../../generate/schema-sample.js';
import type { RequestContext } from './request-context.js';

export function buildStage(context: RequestContext): boolean {
  const choice = context.choice!;
  try {
    context.built = buildResponse(context.operation, choice, context.request, context.body);
    return true;
  } catch (error) {
    // Prism's static data: a schema whose sample would be too large is refused, not cut down.
    if (!(error instanceof SchemaTooComplexError)) throw error;
    context.refusal = serverRefusals.tooComplex(choice.plan?.schemaPointer ?? '');
    return false;
  }
}
