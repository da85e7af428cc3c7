// Answers added from a test (`stub.use`, `POST /__admin/scenarios`): checked exactly as a fixture
// file's scenario is, then kept in the session's play, answered ahead of the fixtures' scenarios
// for their operation, newest first, until removed or reset.
import { ConfigError } from '../config/config-error.js';
import { isObject } from '../common/json-value.js';
import type { EngineState } from '../engine/pipeline.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { DEFAULT_SESSION, type Sessions } from '../engine/sessions.js';
import { checkScenario, findOperation, nearestOperation } from '../scenarios/load-fixtures.js';

/** What a test writes: a scenario's keys, plus which operation, and optionally its name and session. */
export interface AddedScenario {
  operation: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  match?: unknown;
  times?: number;
  chance?: number;
  delay?: number | { min: number; max: number } | { median: number; p99: number };
  fault?: string;
  webhooks?: string[];
  description?: string;
  /** A named example of the documented response for `status` as the body (`status` may then be left out). */
  example?: string;
  /** Default: a new name, returned. */
  name?: string;
  /** Default: the default session (requests without X-Mock-Session). */
  session?: string;
}

/** Added scenarios so far in this process: the next one's default name. */
let addedSoFar = 0;

/**
 * Checks and adds a scenario; returns its name. `source` names where it came from in errors
 * (`stub.use`, `POST /__admin/scenarios`). Throws a ConfigError naming the JSON pointer.
 */
export function addScenario(state: EngineState, sessions: Sessions, definition: unknown, source: string): { name: string; session: string } {
  if (!isObject(definition)) throw new ConfigError(source, '/: expected an object with operation, status and optional body, headers, match, times, chance, delay, fault, name, session');
  const { operation: named, name: givenName, session: givenSession, example, ...scenario } = definition;
  if (typeof named !== 'string' || named.trim() === '') throw new ConfigError(source, '/operation: is required (e.g. "GET /plants/{id}" or an operationId)');
  const operation = findOperation(state.compiled, named);
  if (!operation) {
    const near = nearestOperation(state.compiled, named);
    throw new ConfigError(source, `/operation: the document has no operation "${named}"${near ? ` (did you mean "${near}"?)` : ''}`);
  }
  if (givenSession !== undefined && (typeof givenSession !== 'string' || givenSession.trim() === '')) throw new ConfigError(source, '/session: must be a session name (what requests send in X-Mock-Session)');
  if (givenName !== undefined && (typeof givenName !== 'string' || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(givenName))) {
    throw new ConfigError(source, '/name: must be a scenario name of visible ASCII characters (spaces only inside): clients send it in the X-Mock-Scenario header');
  }
  const session = (givenSession as string | undefined)?.trim() || DEFAULT_SESSION;
  const play = sessions.play(session);
  const taken = (name: string) => state.scenarios.get(operation.key)?.has(name) || (play.added.get(operation.key) ?? []).some((added) => added.name === name);
  if (givenName !== undefined && taken(givenName as string)) throw new ConfigError(source, `/name: ${operation.key} already has a scenario "${givenName as string}"`);
  let name = givenName as string | undefined;
  while (name === undefined || taken(name)) name = `added-${++addedSoFar}`;
  if (example !== undefined) Object.assign(scenario, exampleAsBody(source, operation, example, scenario.status));
  const checked = checkScenario(source, operation, name, scenario, state.compiled, '', true);
  play.added.set(operation.key, [checked, ...(play.added.get(operation.key) ?? [])]);
  return { name, session };
}

/** Takes an added scenario away; false when the session has none of that name. */
export function removeScenario(sessions: Sessions, name: string, session = DEFAULT_SESSION): boolean {
  const play = sessions.peek(session);
  if (!play) return false;
  for (const [key, added] of play.added) {
    const kept = added.filter((scenario) => scenario.name !== name);
    if (kept.length === added.length) continue;
    if (kept.length === 0) play.added.delete(key);
    else play.added.set(key, kept);
    return true;
  }
  return false;
}

/** `example: NAME`: the status and body of the documented response example of that name. */
function exampleAsBody(source: string, operation: CompiledOperation, example: unknown, status: unknown): { status: number; body: unknown } {
  if (typeof example !== 'string' || example === '') throw new ConfigError(source, '/example: must be the name of one of the operation\'s response examples');
  const plans = [...operation.responses.values()].filter((plan) => status === undefined || plan.status === status);
  for (const plan of plans) {
    for (const variant of [plan, ...plan.variants]) {
      if (variant.examples.has(example)) return { status: plan.status, body: variant.examples.get(example) };
    }
  }
  const known = plans.flatMap((plan) => [...plan.examples.keys()]);
  throw new ConfigError(source, `/example: ${operation.key} has no response example "${example}"${status === undefined ? '' : ` for ${String(status)}`}; known: ${known.join(', ') || 'none'}`);
}
