// Stage 2, authenticate: the operation's security requirement (engine/authenticate.ts). A client
// may still pick which documented refusal it sees by example name (`Prefer: code=401, example=expired`).
import { authenticate } from '../authenticate.js';
import { exampleAskedFor } from './example-asked.js';
import type { RequestContext } from './request-context.js';

export function authenticateStage(context: RequestContext): boolean {
  const denied = authenticate(context.operation.checkSecurity, context.request, context.query);
  if (denied === null) return true;
  context.exampleAsked = exampleAskedFor(context.request, context.query, denied.status);
  context.refusal = denied;
  return false;
}
