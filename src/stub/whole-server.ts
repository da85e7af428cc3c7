// What makes several processes one server: the stateful store they share, and the admin API's
// whole-server reads and changes (journal, coverage, sticky scenario, reset, reload). Two ways:
// --workers through the cluster primary (cluster-whole.ts), and --state-store through Redis
// (redis-whole.ts). A single process has none of this: its own journal and coverage are the whole.
import type { JournalFilter } from '../record/journal.js';
import type { CoverageCounts } from '../record/coverage.js';
import type { DriftReport } from '../record/drift.js';
import type { StateStore } from './state-store.js';

/**
 * An admin change that reaches every process (PUT/DELETE /__admin/scenario, DELETE /__admin/requests,
 * POST /__admin/reset, POST/DELETE /__admin/scenarios, POST /__admin/reload). `scripts`: forget what
 * scripted answers remember (one session's, or every session's); `use`/`unuse`: an added scenario.
 */
export type AdminChange =
  | { kind: 'sticky'; name: string | null; session?: string }
  | { kind: 'reset' }
  | { kind: 'scripts'; session?: string }
  | { kind: 'use'; scenario: Record<string, unknown> & { name: string } }
  | { kind: 'unuse'; name: string; session?: string }
  | { kind: 'reload' }
  | { kind: 'webhook'; name: string; url: string | null };

export interface WholeServer {
  /** The state every process reads and changes (stateful mode). */
  store: StateStore;
  /** The whole server's journal as GET /__admin/requests answers it (JSON text, numbers exact). */
  journal(filter: JournalFilter): Promise<string>;
  coverage(): Promise<CoverageCounts>;
  /** --proxy's drift report of every process; absent where only each process's own is kept (Redis). */
  drift?(): Promise<DriftReport>;
  /** Makes the change in every process; false when one of them could not. */
  changeEverywhere(change: AdminChange): Promise<boolean>;
  /**
   * Null while the shared state can be reached, else why not in plain words (GET /__admin/health);
   * absent where it shares the process's fate (--workers: the primary).
   */
  problem?(): Promise<string | null>;
  /** --workers: every worker's metrics as one server's (text format); absent where each instance answers for itself (Redis). */
  metrics?(): Promise<string>;
  close(): Promise<void>;
}
