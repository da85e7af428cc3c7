// --workers N with stateful mode: a worker's store is the cluster primary's, asked over IPC, so
// every worker reads and changes one set of resources.
import type { StateChange, StoredState } from '../engine/engine-types.js';
import { ToPrimary, type ClusterLink } from './cluster-link.js';
import { fromEntries, toEntries, type Applied, type StateEntries, type StateStore } from './state-store.js';

export class LinkedStateStore implements StateStore {
  constructor(private readonly link: ClusterLink) {}

  async read(): Promise<StoredState> {
    return fromEntries((await this.link.ask(ToPrimary.stateRead)) as StateEntries);
  }

  async apply(change: StateChange): Promise<Applied> {
    return (await this.link.ask(ToPrimary.stateApply, change)) as Applied;
  }

  async replace(state: StoredState): Promise<void> {
    await this.link.ask(ToPrimary.stateReplace, { entries: toEntries(state) });
  }

  /** The primary takes the first worker's seed, when it holds no state (its --state-file's wins). */
  async seed(state: StoredState): Promise<void> {
    await this.link.ask(ToPrimary.stateSeed, toEntries(state));
  }
}
