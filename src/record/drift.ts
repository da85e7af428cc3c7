// --proxy's drift report: where the document and the real API disagree, per operation, counted
// over the exchanges since the last reset. Statuses the document does not list, answer fields it
// does not declare, each violation (request or answer side, with its JSON pointer), fallbacks
// to the mock, and operations called that the document lacks: what a spec owner fixes and a
// client team checks in CI (GET /__admin/drift, and a table at shutdown).
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';

export interface DriftReport {
  /** Per documented operation that saw an exchange, in the order first seen. */
  operations: Array<{
    operation: string;
    exchanges: number;
    /** Answered by the mock because the upstream lacked the operation or could not be reached. */
    fallbacks: number;
    /** Status -> how many answers had it, for statuses the document does not list for the operation. */
    undocumentedStatuses: Record<string, number>;
    /** JSON pointer (array items as `*`) -> how many answers had that undeclared field. */
    undeclaredFields: Record<string, number>;
    /** `request /tag: must be a string`, `response /id: must be an integer` -> how many times. */
    violations: Record<string, number>;
  }>;
  /** `GET /v2/status` -> how many times: requests of operations the document does not describe. */
  undocumented: Record<string, number>;
}

/** Distinct keys kept per count (paths of undocumented calls vary by id): memory stays bounded. */
const MAX_KEYS = 200;

type Row = DriftReport['operations'][number];

export class Drift {
  private rows = new Map<string, Row>();
  private undocumented: Record<string, number> = {};

  record(request: PlainRequest, response: EngineResponse): void {
    const note = response.proxy;
    if (!note) return;
    if (!response.operation) {
      bump(this.undocumented, `${request.method} ${request.path}`);
      return;
    }
    let row = this.rows.get(response.operation.key);
    if (!row) this.rows.set(response.operation.key, (row = { operation: response.operation.key, exchanges: 0, fallbacks: 0, undocumentedStatuses: {}, undeclaredFields: {}, violations: {} }));
    row.exchanges++;
    if (note.outcome.startsWith('fallback')) row.fallbacks++;
    if (note.outcome === 'forwarded' && response.documented === null && note.upstreamStatus !== undefined) bump(row.undocumentedStatuses, String(note.upstreamStatus));
    for (const violation of response.violations) bump(row.violations, `request ${violation}`);
    // The undocumented status is counted above; the rest are the answer's own violations.
    for (const violation of note.responseViolations) if (!violation.startsWith('status ')) bump(row.violations, `response ${violation}`);
    for (const pointer of note.undeclared) bump(row.undeclaredFields, pointer);
  }

  /** Adds another process's report to this one. */
  add(report: DriftReport): void {
    for (const row of report.operations) {
      let mine = this.rows.get(row.operation);
      if (!mine) this.rows.set(row.operation, (mine = { operation: row.operation, exchanges: 0, fallbacks: 0, undocumentedStatuses: {}, undeclaredFields: {}, violations: {} }));
      mine.exchanges += row.exchanges;
      mine.fallbacks += row.fallbacks;
      for (const key of ['undocumentedStatuses', 'undeclaredFields', 'violations'] as const) {
        for (const [name, n] of Object.entries(row[key])) bump(mine[key], name, n);
      }
    }
    for (const [call, n] of Object.entries(report.undocumented)) bump(this.undocumented, call, n);
  }

  reset(): void {
    this.rows = new Map();
    this.undocumented = {};
  }

  report(): DriftReport {
    return { operations: [...this.rows.values()].map((row) => structuredClone(row)), undocumented: { ...this.undocumented } };
  }
}

/** The sum of several processes' reports (--workers: the whole server's drift). */
export function addDrift(reports: DriftReport[]): DriftReport {
  const sum = new Drift();
  for (const report of reports) sum.add(report);
  return sum.report();
}

function bump(counts: Record<string, number>, key: string, by = 1): void {
  if (Object.hasOwn(counts, key)) counts[key] += by;
  else if (Object.keys(counts).length < MAX_KEYS) Object.defineProperty(counts, key, { value: by, enumerable: true, writable: true, configurable: true });
}

/**
 * The table printed at shutdown after proxying, one line per operation:
 * `  GET /plants/{id}  3 exchanges; response /id: must be an integer (1); undeclared /color (1)`.
 */
export function formatDrift(report: DriftReport, target: string): string {
  const lines = [`drift between the document and ${target} (GET /__admin/drift):`];
  const width = Math.max(0, ...report.operations.map((row) => row.operation.length));
  const counted = (counts: Record<string, number>, label: string) => Object.entries(counts).map(([key, n]) => `${label}${key} (${n})`);
  for (const row of report.operations) {
    const parts = [
      `${row.exchanges} exchange${row.exchanges === 1 ? '' : 's'}`,
      ...(row.fallbacks > 0 ? [`mock fallback (${row.fallbacks})`] : []),
      ...counted(row.undocumentedStatuses, 'undocumented status '),
      ...counted(row.violations, ''),
      ...counted(row.undeclaredFields, 'undeclared '),
    ];
    lines.push(`  ${row.operation.padEnd(width)}  ${parts.join('; ')}`);
  }
  const undocumented = counted(report.undocumented, '');
  if (undocumented.length > 0) lines.push(`  not in the document: ${undocumented.join(', ')}`);
  if (report.operations.length === 0 && undocumented.length === 0) lines.push('  no exchanges');
  return lines.join('\n');
}
