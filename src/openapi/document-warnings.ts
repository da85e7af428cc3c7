// Problems of a loaded document that do not stop the stub: each names its file, JSON pointer and
// reason, and `--strict` turns the first of them into a refusal to start.
import { ConfigError } from '../config/config-error.js';

export interface DocumentWarning {
  file: string;
  /** Where in the file, as a JSON pointer (`/paths/~1plants/post/...`). */
  pointer: string;
  /** What kind of problem, for the one-line-per-kind summary (`empty enum`). */
  kind: string;
  reason: string;
}

export type Warn = (warning: DocumentWarning) => void;

/**
 * The warnings of one loaded document, each (kind, pointer) once: a component used by many
 * operations is one place in the file. Some are found after start-up (an operation's response
 * examples are checked when it is compiled), so the list can grow while the stub serves.
 */
export class DocumentWarnings {
  readonly list: DocumentWarning[] = [];
  private readonly seen = new Set<string>();

  readonly add: Warn = (warning) => {
    const key = `${warning.kind}|${warning.pointer}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(warning);
  };
}

/** The kind of a document with nothing to serve: said whole at start, not counted. */
export const NO_PATHS = 'document without paths';

/**
 * One line per kind of problem, with its count: what the stub prints at start. Where every
 * warning of the kind ends by saying the same thing about what the stub does with it (`it is
 * ignored`, `is read as "this schema, or null"`), the line says it too, so a reader of the log
 * knows whether anything needs doing without opening the list.
 */
export function summarizeWarnings(warnings: readonly DocumentWarning[]): string[] {
  const byKind = new Map<string, DocumentWarning[]>();
  for (const warning of warnings) byKind.set(warning.kind, [...(byKind.get(warning.kind) ?? []), warning]);
  return [...byKind].map(([kind, all]) => {
    if (kind === NO_PATHS) return `warning: ${all[0].file}: ${all[0].reason} (--strict refuses it)`;
    const outcome = sharedOutcome(all.map((warning) => warning.reason));
    return `warning: ${all.length} × ${kind} in the document${outcome ? `: ${outcome}` : ''} (each listed at GET /__admin/warnings; --strict refuses them)`;
  });
}

/** What the reasons all say last (after their last `; `, else the whole reason), when they say the same. */
function sharedOutcome(reasons: readonly string[]): string | null {
  const outcomes = new Set(reasons.map((reason) => (reason.includes('; ') ? reason.slice(reason.lastIndexOf('; ') + 2) : reason)));
  return outcomes.size === 1 ? [...outcomes][0] : null;
}

/** --strict: a document with any warning does not start; the message names the first and the count. */
export function refuseWarnings(warnings: readonly DocumentWarning[]): void {
  if (warnings.length === 0) return;
  const [first] = warnings;
  const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more warnings)` : '';
  throw new ConfigError(first.file, `${first.pointer}: ${first.reason}${more}; --strict refuses documents with warnings`);
}
