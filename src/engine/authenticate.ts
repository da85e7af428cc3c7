// Stage 2 (authenticate): security. The operation's requirement was compiled at start-up into a check
// (openapi/compile-security.ts); this stage only runs it and turns a refusal into a 401.
import type { Refusal } from './engine-types.js';
import { authRefusals } from './refusals.js';
import type { SecurityCheck } from '../openapi/compile-security.js';
import type { PlainRequest } from '../common/plain-http.js';

/** Stage 2 itself: the operation's check, as a 401 Refusal with its challenge when it refuses. */
export function authenticate(check: SecurityCheck, request: PlainRequest, query: URLSearchParams): Refusal | null {
  const denied = check(request, query);
  if (!denied) return null;
  return authRefusals.unauthenticated(denied.message, denied.challenge);
}
