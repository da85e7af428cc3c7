// Stage 2, authenticate: the operation's security requirement (engine/authenticate.ts). A client
// may still pick which documented refusal it sees by example name (`Prefer: code=401, example=expired`).
import type { Refusal } from '../engine-types.js';
import { authenticate } from '../authenticate.js';
import { exampleAskedFor } from './example-asked.js';
import type { RequestContext } from './request-context.js';

export function authenticateStage(context: RequestContext): Refusal | null {
  const denied = authenticate(context.operation.checkSecurity, context.request, context.query);
  if (denied) context.exampleAsked = exampleAskedFor(context.request, context.query, denied.status);
  return denied;
}
