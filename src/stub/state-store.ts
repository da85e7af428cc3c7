// Where stateful mode's resources live. The engine reads the resources as they are and returns the
// change its answer makes; a store hands out the first and applies the second. This one keeps them
// in this process, so reading costs nothing and an applied change is seen by the next request.
// Stores shared with other processes (the cluster primary, Redis) implement the same interface.
import type { StateChange, StoredState } from '../engine/engine-types.js';

/**
 * What applying a change did: `applied`; `conflict` when another process got there first since
 * the state was read (a create of an identity now taken, an update or delete of one now gone);
 * `full` when the items would take more bytes than the store keeps. Only `applied` changed anything.
 */
export type Applied = 'applied' | 'conflict' | 'full';

export interface StateStore {
  /** The resources now; a store in this process answers at once, so the request never waits. */
  read(): StoredState | Promise<StoredState>;
  /** Applies a change unless it conflicts or would overfill the store (see Applied). */
  apply(change: StateChange): Applied | Promise<Applied>;
  /** Replaces every resource (PUT and DELETE /__admin/state, a state file at start). */
  replace(state: StoredState): void | Promise<void>;
  /**
   * Stateful mode's first data (the list examples, --seed-items), offered by every process that
   * starts: stored once for the store's life, and never over state it already holds (see each store).
   */
  seed(state: StoredState): void | Promise<void>;
}

export class LocalStateStore implements StateStore {
  private state = new Map<string, Map<string, string>>();
  /** The UTF-8 bytes of every stored item's JSON text. */
  private bytes = 0;
  /** Whether a seed was offered already: only the first is taken. */
  private seeded = false;

  /**
   * `changed` runs after every change (to schedule a --state-file write); `maxBytes` caps the
   * bytes of the items' JSON (--max-state). A state put in whole (replace) is checked before.
   */
  constructor(private readonly changed: () => void = () => {}, private readonly maxBytes = Infinity) {}

  read(): StoredState {
    return this.state;
  }

  apply({ action, resource, id, item }: StateChange): Applied {
    let items = this.state.get(resource);
    if (!items) this.state.set(resource, (items = new Map()));
    if (items.has(id) === (action === 'create')) return 'conflict';
    const before = items.get(id);
    const delta = (item === null ? 0 : byteLength(item)) - (before === undefined ? 0 : byteLength(before));
    if (delta > 0 && this.bytes + delta > this.maxBytes) return 'full';
    this.bytes += delta;
    if (item === null) items.delete(id);
    else items.set(id, item);
    this.changed();
    return 'applied';
  }

  replace(state: StoredState): void {
    this.state = new Map([...state].map(([name, items]) => [name, new Map(items)]));
    this.bytes = stateBytes(state);
    this.changed();
  }

  /** The seed, when this store has taken none yet and holds no items at all (a --state-file that holds state wins whole). */
  seed(state: StoredState): void {
    if (this.seeded) return;
    this.seeded = true;
    if ([...this.state.values()].every((items) => items.size === 0)) this.replace(state);
  }
}

const UTF8 = new TextEncoder();

/** A text's length in UTF-8 bytes (what --max-state counts). */
export function byteLength(text: string): number {
  return UTF8.encode(text).byteLength;
}

/** The UTF-8 bytes of every item's JSON text in the state. */
export function stateBytes(state: StoredState): number {
  let total = 0;
  for (const items of state.values()) for (const item of items.values()) total += byteLength(item);
  return total;
}

/** The state as plain arrays, for a message between processes: `[[resource, [[id, item], …]], …]`. */
export type StateEntries = Array<[string, Array<[string, string]>]>;

export function toEntries(state: StoredState): StateEntries {
  return [...state].map(([name, items]) => [name, [...items]]);
}

export function fromEntries(entries: StateEntries): StoredState {
  return new Map(entries.map(([name, items]) => [name, new Map(items)]));
}
