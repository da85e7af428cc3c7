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

/** One line per kind of problem, with its count: what the stub prints at start. */
export function summarizeWarnings(warnings: readonly DocumentWarning[]): string[] {
  const counts = new Map<string, number>();
  for (const { kind } of warnings) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => {
    const whole = kind === NO_PATHS ? warnings.find((warning) => warning.kind === kind) : undefined;
    if (whole) return `warning: ${whole.file}: ${whole.reason} (--strict refuses it)`;
    return `warning: ${count} × ${kind} in the document (each listed at GET /__admin/warnings; --strict refuses them)`;
  });
}

/** --strict: a document with any warning does not start; the message names the first and the count. */
export function refuseWarnings(warnings: readonly DocumentWarning[]): void {
  if (warnings.length === 0) return;
  const [first] = warnings;
  const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more warnings)` : '';
  throw new ConfigError(first.file, `${first.pointer}: ${first.reason}${more}; --strict refuses documents with warnings`);
}
