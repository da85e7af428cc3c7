// Where stateful mode's resources live. The engine reads the resources as they are and returns the
// change its answer makes; a store hands out the first and applies the second. This one keeps them
// in this process, so reading costs nothing and an applied change is seen by the next request.
// Stores shared with other processes (the cluster primary, Redis) implement the same interface.
import type { StateChange, StoredState } from '../engine/engine-types.js';

export interface StateStore {
  /** The resources now; a store in this process answers at once, so the request never waits. */
  read(): StoredState | Promise<StoredState>;
  /**
   * Applies a change unless another process got there first since the state was read (a create of
   * an identity now taken, an update or delete of one now gone): false then, and nothing changed.
   */
  apply(change: StateChange): boolean | Promise<boolean>;
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

  apply({ action, resource, id, item }: StateChange): boolean {
    let items = this.state.get(resource);
    if (!items) this.state.set(resource, (items = new Map()));
    if (items.has(id) === (action === 'create')) return false;
    if (item === null) items.delete(id);
    else items.set(id, item);
    this.changed();
    return true;
  }

  replace(state: StoredState): void {
    this.state = new Map([...state].map(([name, items]) => [name, new Map(items)]));
    this.changed();
  }
}

/** The state as plain arrays, for a message between processes: `[[resource, [[id, item], …]], …]`. */
export type StateEntries = Array<[string, Array<[string, string]>]>;

export function toEntries(state: StoredState): StateEntries {
  return [...state].map(([name, items]) => [name, [...items]]);
}

export function fromEntries(entries: StateEntries): StoredState {
  return new Map(entries.map(([name, items]) => [name, new Map(items)]));
}
