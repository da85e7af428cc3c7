// Coverage: for every operation, which documented statuses and which scenarios a request has
// exercised since the last reset, so a CI job can show the error paths its client never tried.
import type { CompiledOperation } from '../spec/compile-operations.js';
import type { ScenarioTable } from '../engine/scenario.js';
import type { StubResponse } from '../engine/types.js';

export interface CoverageReport {
  operations: Array<{
    operation: string;
    operationId: string | null;
    responses: Array<{ status: string; exercised: number }>;
    scenarios: Array<{ name: string; status: number; exercised: number }>;
  }>;
  summary: { exercised: number; total: number; ratio: number };
}

export class Coverage {
  /** `POST /plants` -> documented status key or scenario name -> hits. */
  private statusHits = new Map<string, Map<string, number>>();
  private scenarioHits = new Map<string, Map<string, number>>();

  record(operation: CompiledOperation | undefined, response: StubResponse): void {
    if (!operation || response.fromStub) return;
    const key = documentedKey(operation, response.status);
    if (key) bump(this.statusHits, operation.key, key);
    if (response.scenario !== null) bump(this.scenarioHits, operation.key, response.scenario);
  }

  reset(): void {
    this.statusHits.clear();
    this.scenarioHits.clear();
  }

  report(operations: CompiledOperation[], scenarios: ScenarioTable): CoverageReport {
    let exercised = 0;
    let total = 0;
    const count = (hits: number) => {
      total++;
      if (hits > 0) exercised++;
      return hits;
    };
    const rows = operations.map((operation) => ({
      operation: operation.key,
      operationId: operation.operationId,
      responses: [...operation.responses.keys()].map((status) => ({
        status,
        exercised: count(this.statusHits.get(operation.key)?.get(status) ?? 0),
      })),
      scenarios: [...(scenarios.get(operation.key)?.values() ?? [])].map((scenario) => ({
        name: scenario.name,
        status: scenario.status,
        exercised: count(this.scenarioHits.get(operation.key)?.get(scenario.name) ?? 0),
      })),
    }));
    return { operations: rows, summary: { exercised, total, ratio: total === 0 ? 1 : Math.round((exercised / total) * 1000) / 1000 } };
  }
}

/** The documented response key a status counts for: exact, then `NXX`, then `default`. */
function documentedKey(operation: CompiledOperation, status: number): string | null {
  const exact = String(status);
  if (operation.responses.has(exact)) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  if (operation.responses.has(range)) return range;
  return operation.responses.has('default') ? 'default' : null;
}

function bump(table: Map<string, Map<string, number>>, operation: string, key: string): void {
  let row = table.get(operation);
  if (!row) table.set(operation, (row = new Map()));
  row.set(key, (row.get(key) ?? 0) + 1);
}

/** A short text table for the CLI's shutdown summary. */
export function formatCoverage(report: CoverageReport): string {
  const lines = [`coverage: ${report.summary.exercised}/${report.summary.total} (${Math.round(report.summary.ratio * 100)}%)`];
  for (const op of report.operations) {
    lines.push(`  ${op.operation}`);
    for (const r of op.responses) lines.push(`    ${r.exercised > 0 ? '✓' : '✗'} ${r.status}${r.exercised > 0 ? ` (${r.exercised})` : ''}`);
    for (const s of op.scenarios) lines.push(`    ${s.exercised > 0 ? '✓' : '✗'} scenario ${s.name} -> ${s.status}${s.exercised > 0 ? ` (${s.exercised})` : ''}`);
  }
  return lines.join('\n');
}
