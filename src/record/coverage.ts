// Coverage: for every operation, which documented statuses and which scenarios a request has
// exercised since the last reset, so a CI job can show the error paths its client never tried.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { ScenarioTable } from '../engine/scenario.js';
import type { EngineResponse } from '../engine/engine-response.js';

export interface CoverageReport {
  operations: Array<{
    operation: string;
    operationId: string | null;
    /** With several documents on one port: the one the operation is from. */
    document?: string;
    /** `exercised`: whether any request got this response since the last reset; `hits`: how many. */
    responses: Array<{ status: string; exercised: boolean; hits: number }>;
    scenarios: Array<{ name: string; status: number; exercised: boolean; hits: number }>;
  }>;
  summary: CoverageSummary;
  /** With several documents on one port: each one's summary, in the order they were given. */
  documents?: Array<{ document: string } & CoverageSummary>;
}

export interface CoverageSummary {
  exercised: number;
  total: number;
  ratio: number;
}

/** A coverage's hits as plain rows (operation, status key or scenario name, hits), to add up those of several processes. */
export interface CoverageCounts {
  statuses: Array<[string, string, number]>;
  scenarios: Array<[string, string, number]>;
}

/** The sum of several processes' counts (--workers: the whole server's coverage). */
export function addCounts(parts: CoverageCounts[]): CoverageCounts {
  const sum = new Coverage();
  for (const part of parts) sum.add(part);
  return sum.counts();
}

/** A documented status delivered, or a scenario that served an answer. */
export type CoverageKind = 'status' | 'scenario';

/**
 * What an answer counts for, told to `hit` (this process's tables, or Redis's hashes for the whole
 * server): the same rule wherever coverage is kept. The stub's own answers count for nothing; an
 * injected fault or an abandoned delay never delivered its status, but its scenario was exercised.
 */
export function countCoverage(response: EngineResponse, hit: (kind: CoverageKind, operation: string, key: string) => void): void {
  const { operation } = response;
  if (!operation || response.ownAnswer) return;
  if (!response.fault && !response.abandoned && response.documented) hit('status', operation.key, response.documented.key);
  if (response.scenario !== null) hit('scenario', operation.key, response.scenario);
}

export class Coverage {
  /** `POST /plants` -> documented status key or scenario name -> hits. */
  private statusHits = new Map<string, Map<string, number>>();
  private scenarioHits = new Map<string, Map<string, number>>();

  record(response: EngineResponse): void {
    countCoverage(response, this.hit);
  }

  private readonly hit = (kind: CoverageKind, operation: string, key: string): void => bump(kind === 'status' ? this.statusHits : this.scenarioHits, operation, key);

  reset(): void {
    this.statusHits.clear();
    this.scenarioHits.clear();
  }

  counts(): CoverageCounts {
    return { statuses: rows(this.statusHits), scenarios: rows(this.scenarioHits) };
  }

  add({ statuses, scenarios }: CoverageCounts): void {
    for (const [operation, key, hits] of statuses) bump(this.statusHits, operation, key, hits);
    for (const [operation, name, hits] of scenarios) bump(this.scenarioHits, operation, name, hits);
  }

  report(operations: CompiledOperation[], scenarios: ScenarioTable): CoverageReport {
    return this.reportFor({
      operations: operations.map((operation) => ({
        operation: operation.key,
        operationId: operation.operationId,
        ...(operation.document === null ? {} : { document: operation.document }),
        responses: [...operation.responses.keys()].map((status) => ({ status, exercised: false, hits: 0 })),
        scenarios: [...(scenarios.get(operation.key)?.values() ?? [])].map(({ name, status }) => ({ name, status, exercised: false, hits: 0 })),
      })),
    });
  }

  /** The rows of `shape` (operations, statuses, scenarios) with this coverage's hits, and their summary. */
  reportFor(shape: Pick<CoverageReport, 'operations'>): CoverageReport {
    const whole = { exercised: 0, total: 0 };
    const perDocument = new Map<string, { exercised: number; total: number }>();
    const rows = shape.operations.map((op) => {
      const tallies = op.document === undefined ? [whole] : [whole, perDocument.get(op.document) ?? perDocument.set(op.document, { exercised: 0, total: 0 }).get(op.document)!];
      const count = (hits: number) => {
        for (const tally of tallies) {
          tally.total++;
          if (hits > 0) tally.exercised++;
        }
        return { exercised: hits > 0, hits };
      };
      return {
        operation: op.operation,
        operationId: op.operationId,
        ...(op.document === undefined ? {} : { document: op.document }),
        responses: op.responses.map(({ status }) => ({ status, ...count(this.statusHits.get(op.operation)?.get(status) ?? 0) })),
        scenarios: op.scenarios.map(({ name, status }) => ({ name, status, ...count(this.scenarioHits.get(op.operation)?.get(name) ?? 0) })),
      };
    });
    const report: CoverageReport = { operations: rows, summary: summaryOf(whole) };
    if (perDocument.size > 0) report.documents = [...perDocument].map(([document, tally]) => ({ document, ...summaryOf(tally) }));
    return report;
  }
}

function summaryOf({ exercised, total }: { exercised: number; total: number }): CoverageSummary {
  return { exercised, total, ratio: total === 0 ? 1 : Math.round((exercised / total) * 1000) / 1000 };
}

function bump(table: Map<string, Map<string, number>>, operation: string, key: string, hits = 1): void {
  let row = table.get(operation);
  if (!row) table.set(operation, (row = new Map()));
  row.set(key, (row.get(key) ?? 0) + hits);
}

function rows(table: Map<string, Map<string, number>>): Array<[string, string, number]> {
  return [...table].flatMap(([operation, row]) => [...row].map(([key, hits]): [string, string, number] => [operation, key, hits]));
}

/**
 * Several processes' reports of one document as one (--workers at shutdown): the hits of each row
 * added up, the summary counted again. Rows are matched by operation, status and scenario name.
 */
export function addReports(reports: CoverageReport[]): CoverageReport {
  const [first] = reports;
  if (first === undefined) return { operations: [], summary: { exercised: 0, total: 0, ratio: 1 } };
  const sum = new Coverage();
  for (const report of reports) {
    for (const op of report.operations) {
      sum.add({
        statuses: op.responses.map((r): [string, string, number] => [op.operation, r.status, r.hits]),
        scenarios: op.scenarios.map((s): [string, string, number] => [op.operation, s.name, s.hits]),
      });
    }
  }
  return sum.reportFor(first);
}

/**
 * Documents with more operations than this get a table of the operations called, and one line
 * counting the others: GitHub's whole table is 4,660 lines, nearly all of them operations nobody
 * called, and a terminal or CI log shows only its end.
 */
export const TABLED_OPERATIONS = 25;

/** A short text table for the CLI's shutdown summary. */
export function formatCoverage(report: CoverageReport): string {
  const lines = [`coverage: ${report.summary.exercised}/${report.summary.total} (${Math.round(report.summary.ratio * 100)}%)`];
  for (const part of report.documents ?? []) lines.push(`  ${part.document}: ${part.exercised}/${part.total} (${Math.round(part.ratio * 100)}%)`);
  const called = (op: CoverageReport['operations'][number]) => op.responses.some((r) => r.hits > 0) || op.scenarios.some((s) => s.hits > 0);
  const tabled = report.operations.length <= TABLED_OPERATIONS ? report.operations : report.operations.filter(called);
  for (const op of tabled) {
    lines.push(`  ${op.operation}`);
    for (const r of op.responses) lines.push(`    ${mark(r)} ${r.status}${hits(r)}`);
    for (const s of op.scenarios) lines.push(`    ${mark(s)} scenario ${s.name} -> ${s.status}${hits(s)}`);
  }
  const untabled = report.operations.length - tabled.length;
  if (untabled > 0) lines.push(`  … and ${untabled.toLocaleString('en-US')} operations not called (--coverage-out and GET /__admin/coverage list every one)`);
  return lines.join('\n');
}

const mark = (row: { exercised: boolean }) => (row.exercised ? '✓' : '✗');
const hits = (row: { hits: number }) => (row.hits > 0 ? ` (${row.hits})` : '');
