// The one rule for which documented response a status falls under: its exact code, else its
// `NXX` range, else `default` (OpenAPI 3). Routing a status through one function keeps
// selection, error bodies, fixtures and coverage agreeing with each other.
import type { ResponsePlan } from './compiled-model.js';

export function documentedResponse(responses: ReadonlyMap<string, ResponsePlan>, status: number): ResponsePlan | null {
  return responses.get(String(status)) ?? responses.get(`${Math.floor(status / 100)}XX`) ?? responses.get('default') ?? null;
}

/** `4xx` and `4XX` are the same range; keys are stored upper-case so lookups need one spelling. */
export function normaliseResponseKey(key: string): string {
  return /^[1-5]xx$/i.test(key) ? key.toUpperCase() : key;
}
