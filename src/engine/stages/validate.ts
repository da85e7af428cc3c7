// Stage 3, validate: parameters and body, every violation at once (engine/validate-request.ts). An
// operation written on the same path apart by a `#fragment` answers a request the routed one
// refuses and it accepts. A form's fields are then echoed, matched and stored as a JSON body's are.
import type { PlainRequest } from '../../common/plain-http.js';
import type { CompiledOperation, CompiledSpec } from '../../openapi/compiled-model.js';
import { authenticate } from '../authenticate.js';
import { isRefusal } from '../refusal.js';
import { validateRequest } from '../validate-request.js';
import { exampleAskedFor } from './example-asked.js';
import type { RequestContext } from './request-context.js';

export function validateStage(context: RequestContext): boolean {
  const { request, pathParams, query } = context;
  const read = validateRequest(context.operation, request, pathParams, query);
  if (!isRefusal(read)) {
    context.body = read;
    return true;
  }
  const alternative = validAlternative(context.state.compiled, context.operation, request, pathParams, query);
  if (alternative === null) {
    context.exampleAsked = exampleAskedFor(request, query, read.status);
    context.refusal = read;
    return false;
  }
  context.operation = alternative.operation;
  context.body = alternative.read;
  return true;
}

/** The first of the routed operation's alternatives (fragment-operations.ts) that admits the request and accepts it. */
function validAlternative(compiled: CompiledSpec, routed: CompiledOperation, request: PlainRequest, pathParams: Record<string, string>, query: URLSearchParams) {
  for (const operation of compiled.alternatives.get(routed) ?? []) {
    if (authenticate(operation.checkSecurity, request, query)) continue;
    const read = validateRequest(operation, request, pathParams, query);
    if (!isRefusal(read)) return { operation, read };
  }
  return null;
}
