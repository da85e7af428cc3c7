// --workers N with stateful mode: a worker's store is the cluster primary's, asked over IPC, so
// every worker reads and changes one set of resources.
import type { StateChange, StoredState } from '../engine/engine-types.js';
import type { ClusterLink } from './cluster-link.js';
import { fromEntries, toEntries, type StateEntries, type StateStore } from './state-store.js';

export class LinkedStateStore implements StateStore {
  constructor(private readonly link: ClusterLink) {}

  async read(): Promise<StoredState> {
    return fromEntries((await this.link.ask('state.read')) as StateEntries);
  }

  async apply(change: StateChange): Promise<boolean> {
    return (await this.link.ask('state.apply', change)) as boolean;
  }

  async replace(state: StoredState): Promise<void> {
    await this.link.ask('state.replace', { entries: toEntries(state) });
  }
}
