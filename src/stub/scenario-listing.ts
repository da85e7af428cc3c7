// What GET /__admin/scenarios lists for a session (its added scenarios, the fixtures', sequences and
// counts), and an added scenario made in every process of a whole server.
import { DEFAULT_SESSION, useKey } from '../engine/sessions.js';
import type { ServedVersion } from './served-version.js';

export interface ScenarioListing {
  sticky: string | null;
  /** The session listed (`default` for requests without X-Mock-Session). */
  session: string;
  operations: Array<{
    operation: string;
    operationId: string | null;
    /** The session's added scenarios first (newest first, `added: true`), then the fixtures'. */
    scenarios: Array<{ name: string; status: number; delayMs: number | null; file: string; times?: number; used?: number; chance?: number; added?: true }>;
    /** The fixture's sequence of answers, and how many requests it has answered in this session. */
    sequence?: { steps: readonly string[]; after: string; position: number };
  }>;
}

/** Where added scenarios come from, as their `file` says. */
export const ADDED_SOURCES = ['POST /__admin/scenarios', 'stub.use', 'session.use'];

/** A scenario added in another process, added here too (already here when this process added it). */
export function addedHere(version: ServedVersion, scenario: Record<string, unknown> & { name: string }): boolean {
  const session = typeof scenario.session === 'string' ? scenario.session : DEFAULT_SESSION;
  const here = [...(version.sessions.peek(session)?.added.values() ?? [])].flat().some((added) => added.name === scenario.name);
  if (here) return true;
  try {
    version.addScenario(scenario, ADDED_SOURCES[0]);
    return true;
  } catch {
    return false;
  }
}

/** GET /__admin/scenarios: one session's view of the scenarios, added ones first, with sequences and counts. */
export function scenarioListing(version: ServedVersion, session: string): ScenarioListing {
  const { compiled, scenarios, sticky, sequences } = version.current;
  const play = version.sessions.peek(session);
  return {
    sticky: session === DEFAULT_SESSION ? sticky : play?.sticky ?? null,
    session,
    operations: compiled.operations.map((operation) => {
      const listed = [...(play?.added.get(operation.key) ?? []), ...(scenarios.get(operation.key)?.values() ?? [])];
      const sequence = sequences?.get(operation.key);
      return {
        operation: operation.key,
        operationId: operation.operationId,
        scenarios: listed.map(({ name, status, delayMs, file, times, chance }) => ({
          name, status, delayMs, file,
          ...(times === null ? {} : { times, used: play?.uses.get(useKey(operation.key, name)) ?? 0 }),
          ...(chance === null ? {} : { chance }),
          ...(ADDED_SOURCES.includes(file) ? { added: true as const } : {}),
        })),
        ...(sequence ? { sequence: { steps: sequence.steps, after: sequence.after, position: play?.positions.get(operation.key) ?? 0 } } : {}),
      };
    }),
  };
}

