// --workers N: a worker's view of the whole server, through the cluster primary. The primary
// holds the state and asks every worker for its journal and coverage; each worker keeps recording
// its own requests, so the hot path sends nothing over IPC.
import type { JournalFilter } from '../record/journal.js';
import type { CoverageCounts } from '../record/coverage.js';
import type { DriftReport } from '../record/drift.js';
import { ToPrimary, type ClusterLink } from './cluster-link.js';
import { LinkedStateStore } from './linked-state-store.js';
import type { AdminChange, WholeServer } from './whole-server.js';
import type { PlacedState } from '../engine/engine-types.js';
import { toEntries } from './state-store.js';

export class ClusterWhole implements WholeServer {
  readonly store: LinkedStateStore;

  constructor(private readonly link: ClusterLink) {
    this.store = new LinkedStateStore(link);
  }

  async journal(filter: JournalFilter): Promise<string> {
    return (await this.link.ask(ToPrimary.journal, filter)) as string;
  }

  async coverage(): Promise<CoverageCounts> {
    return (await this.link.ask(ToPrimary.coverage)) as CoverageCounts;
  }

  async metrics(): Promise<string> {
    return (await this.link.ask(ToPrimary.metrics)) as string;
  }

  async drift(): Promise<DriftReport> {
    return (await this.link.ask(ToPrimary.drift)) as DriftReport;
  }

  async changeEverywhere(change: AdminChange): Promise<boolean> {
    return ((await this.link.ask(ToPrimary.everywhere, change)) as boolean[]).every(Boolean);
  }

  /** The text of the --state-file the primary read, until a worker has checked and stored it; else null. */
  async stateFileText(): Promise<string | null> {
    return (await this.link.ask(ToPrimary.stateInit)) as string | null;
  }

  /** Stores the checked state file at the primary (the first worker to do so wins). */
  async adoptStateFile(state: PlacedState): Promise<void> {
    await this.link.ask(ToPrimary.stateReplace, { entries: toEntries(state), initial: true });
  }

  async close(): Promise<void> {
    // The primary owns the state; nothing to close here.
  }
}
