// Where stateful mode's resources live. The engine reads the resources as they are and returns the
// change its answer makes; a store hands out the first and applies the second. This one keeps them
// in this process, so reading costs nothing and an applied change is seen by the next request.
import type { StateChange, StoredState } from '../engine/answer-from-state.js';

export interface StateStore {
  /** The resources now; a store in this process answers at once, so the request never waits. */
  read(): StoredState | Promise<StoredState>;
  apply(change: StateChange): void | Promise<void>;
  /** Replaces every resource (PUT and DELETE /__admin/state, a state file at start). */
  replace(state: StoredState): void | Promise<void>;
}

export class LocalStateStore implements StateStore {
  private state = new Map<string, Map<string, string>>();

  /** `changed` runs after every change (to schedule a --state-file write). */
  constructor(private readonly changed: () => void = () => {}) {}

  read(): StoredState {
    return this.state;
  }

  apply({ resource, id, item }: StateChange): void {
    let items = this.state.get(resource);
    if (!items) this.state.set(resource, (items = new Map()));
    if (item === null) items.delete(id);
    else items.set(id, item);
    this.changed();
  }

  replace(state: StoredState): void {
    this.state = new Map([...state].map(([name, items]) => [name, new Map(items)]));
    this.changed();
  }
}
