// The one rule for what counts as success: which documented response a valid request gets by
// default, whether a response may echo the request, and whether an answer sends webhooks and
// callbacks after it.
import type { ResponsePlan } from './compiled-model.js';

/** A 2xx status: what sends webhooks and callbacks after the answer. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A documented response for 2xx (`201`, `2XX`), or `default`, which stands in for whatever the API answers. */
export function isSuccessResponse(plan: ResponsePlan): boolean {
  return plan.key.startsWith('2') || plan.key === 'default';
}

/**
 * The lowest documented 2xx, else `default`, else the first documented response: an operation
 * that only redirects (a 302 with its Location) or only refuses (a 401) answers that, as the API
 * would, instead of a stub refusal.
 */
export function pickSuccess(responses: ReadonlyMap<string, ResponsePlan>): ResponsePlan | null {
  // Keys sort digits before `default`, so a documented 2xx wins over it.
  const [success] = [...responses.values()].filter(isSuccessResponse).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // A 1xx is never a final answer (Node sends it as an interim response and the client waits on).
  return success ?? [...responses.values()].find((plan) => plan.status >= 200) ?? null;
}
