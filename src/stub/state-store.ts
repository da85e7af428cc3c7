// Where stateful mode's resources live. The engine asks for what one request needs (an item, a
// page, a count, a new id: a StateQuestion) and returns the change its answer makes; a store
// answers the first and applies the second, exactly, so neither grows with what the store holds.
// Three stores implement it: one in this process (local-state-store.ts), the cluster primary's
// over IPC (linked-state-store.ts) and Redis (redis-state-store.ts).
import type { PlacedState, StateChange, StateFacts, StateQuestion, StoredItem, StoredState } from '../engine/engine-types.js';

/**
 * What applying a change did: `applied`; `conflict` when another process got there first since
 * the state was read (a create of an identity now taken, an update or delete of one now gone);
 * `full` when the items would take more bytes than the store keeps. Only `applied` changed anything.
 */
export type Applied = 'applied' | 'conflict' | 'full';

/** One resource's items and the bytes of their JSON (the metrics). */
export interface ResourceSize {
  resource: string;
  items: number;
  bytes: number;
}

export interface StateStore {
  /** The parts of the state a request asks for; a store in this process answers at once, so the request never waits. */
  answer(question: StateQuestion): StateFacts | Promise<StateFacts>;
  /** Applies a change unless it conflicts or would overfill the store (see Applied). */
  apply(change: StateChange): Applied | Promise<Applied>;
  /**
   * Replaces every resource (PUT and DELETE /__admin/state, a state file at start), or only the
   * resources `only` names (one resource put back to its seed).
   */
  replace(state: PlacedState, only?: readonly string[]): void | Promise<void>;
  /**
   * Stateful mode's first data (the list examples, --seed-items), offered by every process that
   * starts: stored once for the store's life, and never over state it already holds (see each store).
   */
  seed(state: PlacedState): void | Promise<void>;
  /** Every item, for what shows or writes the state whole (GET /__admin/state, --state-file); never a request's answer. */
  dump(): StoredState | Promise<StoredState>;
  /** Each resource's items and bytes (the metrics). */
  sizes(): ResourceSize[] | Promise<ResourceSize[]>;
}

const UTF8 = new TextEncoder();

/** A text's length in UTF-8 bytes (what --max-state counts). */
export function byteLength(text: string): number {
  return UTF8.encode(text).byteLength;
}

/** The UTF-8 bytes of every item's JSON text in the state. */
export function stateBytes(state: PlacedState): number {
  let total = 0;
  for (const items of state.values()) for (const item of items.values()) total += byteLength(item.text);
  return total;
}

/** The state as plain arrays, for a message between processes or a script: `[[resource, [[id, text, scope], …]], …]`. */
export type StateEntries = Array<[string, Array<[string, string, string]>]>;

export function toEntries(state: PlacedState): StateEntries {
  return [...state].map(([name, items]) => [name, [...items].map(([id, { text, scope }]): [string, string, string] => [id, text, scope])]);
}

export function fromEntries(entries: StateEntries): PlacedState {
  return new Map(entries.map(([name, items]) => [name, new Map(items.map(([id, text, scope]): [string, StoredItem] => [id, { text, scope }]))]));
}
