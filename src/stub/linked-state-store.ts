// --workers N with stateful mode: a worker's store is the cluster primary's, asked over IPC, so
// every worker reads and changes one set of resources. A request sends its question (one item, one
// page, a count, a new id) and gets only that back: what crosses IPC does not grow with the store.
import type { PlacedState, StateChange, StateFacts, StateQuestion, StoredState } from '../engine/engine-types.js';
import { ToPrimary, type ClusterLink } from './cluster-link.js';
import { StoreUnavailable } from './store-unavailable.js';
import { toEntries, type Applied, type ResourceSize, type StateStore } from './state-store.js';

export class LinkedStateStore implements StateStore {
  constructor(private readonly link: ClusterLink) {}

  async answer(question: StateQuestion): Promise<StateFacts> {
    return (await this.asked(ToPrimary.stateAnswer, question)) as StateFacts;
  }

  async apply(change: StateChange): Promise<Applied> {
    return (await this.asked(ToPrimary.stateApply, change)) as Applied;
  }

  /**
   * A request's question to the primary: a primary that does not answer (gone, too slow) or
   * fails is the store's outage for this worker, said in plain words.
   */
  private async asked(op: typeof ToPrimary.stateAnswer | typeof ToPrimary.stateApply, arg: unknown): Promise<unknown> {
    try {
      return await this.link.ask(op, arg);
    } catch {
      throw new StoreUnavailable('the cluster primary did not answer');
    }
  }

  async replace(state: PlacedState, only?: readonly string[]): Promise<void> {
    await this.link.ask(ToPrimary.stateReplace, { entries: toEntries(state), only });
  }

  /** The primary takes the first worker's seed, when it holds no state (its --state-file's wins). */
  async seed(state: PlacedState): Promise<void> {
    await this.link.ask(ToPrimary.stateSeed, toEntries(state));
  }

  async dump(): Promise<StoredState> {
    const entries = (await this.link.ask(ToPrimary.stateDump)) as Array<[string, Array<[string, string]>]>;
    return new Map(entries.map(([name, items]) => [name, new Map(items)]));
  }

  async sizes(): Promise<ResourceSize[]> {
    return (await this.link.ask(ToPrimary.stateSizes)) as ResourceSize[];
  }
}
