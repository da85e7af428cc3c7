// Stage 7, build: the chosen answer's body, with the builder's own fallbacks (build-response.ts).
import type { BuiltResponse, Choice, Refusal } from '../engine-types.js';
import { buildResponse } from '../build-response.js';
import { serverRefusals } from '../refusals.js';
import { SchemaTooComplexError } from '../../generate/schema-sample.js';
import type { RequestContext } from './request-context.js';

export function buildStage(context: RequestContext, choice: Choice): BuiltResponse | Refusal {
  try {
    return buildResponse(context.operation, choice, context.request, context.body);
  } catch (error) {
    // Prism's static data: a schema whose sample would be too large is refused, not cut down.
    if (error instanceof SchemaTooComplexError) return serverRefusals.tooComplex(choice.plan?.schemaPointer ?? '');
    throw error;
  }
}
