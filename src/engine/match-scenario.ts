// Stage 4 (select), before the default answer: the fixture scenario whose `match` the request satisfies,
// so a client gets the scripted answer for `GET /plants/404` without sending any header. The most
// specific match wins (most fields named), then the first in the fixture files' order.
// fast-deep-equal (Ajv's own) rather than node:util: the engine also runs in a browser (src/fetch/).
import deepEqual from 'fast-deep-equal';
import type { Scenario, ScenarioMatch } from './scenario.js';
import type { PlainRequest } from '../common/plain-http.js';
import { isObject } from '../common/json-value.js';

/** What of the request a `match` can name, read once by the pipeline. */
export interface MatchInput {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: PlainRequest['headers'];
  /** The parsed JSON body (doubles); undefined when the request has no JSON body. */
  body: unknown;
}

/** `passes`: whether a scenario may answer now (its `times` not used up, its chance drawn); asked only of those that match. */
export function matchScenario(scenarios: ReadonlyMap<string, Scenario> | undefined, input: MatchInput, passes: (scenario: Scenario) => boolean = () => true): Scenario | null {
  if (!scenarios) return null;
  let best: Scenario | null = null;
  for (const scenario of scenarios.values()) {
    const match = scenario.match;
    // Strictly more specific only: on a tie the earlier scenario (file order) keeps its place.
    if (match && (best === null || match.specificity > best.match!.specificity) && satisfies(match, input) && passes(scenario)) best = scenario;
  }
  return best;
}

/** Whether the request holds everything the `match` names. */
export function satisfies(match: ScenarioMatch, input: MatchInput): boolean {
  for (const [name, value] of Object.entries(match.path)) if (input.pathParams[name] !== value) return false;
  for (const [name, value] of Object.entries(match.query)) {
    const sent = input.query.getAll(name);
    if (typeof value === 'string' ? sent.length !== 1 || sent[0] !== value : !deepEqual(sent, value)) return false;
  }
  for (const [name, value] of Object.entries(match.headers)) {
    const sent = input.headers[name];
    if ((Array.isArray(sent) ? sent.join(', ') : sent) !== value) return false;
  }
  return match.body === undefined || contains(input.body, match.body);
}

/** Whether `actual` holds `expected`: objects by their named members (recursively), anything else exactly. */
export function contains(actual: unknown, expected: unknown): boolean {
  if (!isObject(expected)) return deepEqual(actual, expected);
  if (!isObject(actual)) return false;
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && contains(actual[key], value));
}

/** Fields a body subset names: each leaf counts once. */
export function leafCount(value: unknown): number {
  return isObject(value) ? Object.values(value).reduce<number>((sum, member) => sum + leafCount(member), 0) : 1;
}
