// What GET /__admin/scenarios lists for a session (its added scenarios, the fixtures', sequences and
// counts), and an added scenario made in every process of a whole server.
import { DEFAULT_SESSION, useKey } from '../engine/sessions.js';
import type { ServedVersion } from './served-version.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { resolvedRef } from '../scenarios/fixture-schema.js';

export interface ScenarioListing {
  sticky: string | null;
  /** The session listed (`default` for requests without X-Mock-Session). */
  session: string;
  /** The sessions that scripted answers know of, besides the default one. */
  sessions: string[];
  operations: Array<{
    operation: string;
    operationId: string | null;
    /** The session's added scenarios first (newest first, `added: true`), then the fixtures'. */
    scenarios: Array<{ name: string; status: number; delayMs: number | null; file: string; times?: number; used?: number; chance?: number; added?: true }>;
    /** The fixture's sequence of answers, and how many requests it has answered in this session. */
    sequence?: { steps: readonly string[]; after: string; position: number };
    /** The documented responses' named examples, which an added scenario can name (`example`). */
    examples: Array<{ status: number; name: string }>;
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
  const { compiled, scenarios, sticky, sequences, document } = version.current;
  const play = version.sessions.peek(session);
  return {
    sticky: session === DEFAULT_SESSION ? sticky : play?.sticky ?? null,
    session,
    sessions: version.sessions.names().filter((name) => name !== DEFAULT_SESSION),
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
        examples: namedExamples(document, operation),
      };
    }),
  };
}


/**
 * The named examples of an operation's documented responses, read from the document as written:
 * the compiled examples would compile every response's validator of a big document at once.
 */
function namedExamples(document: Record<string, unknown> | undefined, operation: CompiledOperation): Array<{ status: number; name: string }> {
  if (!document) return [];
  const item = resolvedRef(document, (document.paths as Record<string, unknown> | undefined)?.[operation.path]);
  const responses = resolvedRef(document, resolvedRef(document, item?.[operation.method.toLowerCase()])?.responses);
  const found: Array<{ status: number; name: string }> = [];
  for (const [key, raw] of Object.entries(responses ?? {})) {
    if (!/^\d{3}$/.test(key)) continue;
    for (const media of Object.values(resolvedRef(document, raw)?.content ?? {})) {
      const examples = resolvedRef(document, media)?.examples;
      for (const name of Object.keys(resolvedRef(document, examples) ?? {})) {
        if (!found.some((known) => known.status === Number(key) && known.name === name)) found.push({ status: Number(key), name });
      }
    }
  }
  return found;
}
