// Stateful mode's store in this process (one process, a session's own store, and the cluster
// primary's for --workers). It answers the engine's questions at once and exactly: an item by id
// from a map, a page from the list's order index (seeking its rank), the count it keeps, and a new
// counted id from the largest integer-like id it keeps per resource. Nothing is copied whole per
// request, so a request costs the same at 100 items as at 50,000.
import type { PlacedState, StateChange, StateFacts, StateQuestion, StoredItem, StoredPage, StoredState } from '../engine/engine-types.js';
import { idNumber } from '../engine/new-identity.js';
import { OrderIndex } from './order-index.js';
import { byteLength, type Applied, type ResourceSize, type StateStore } from './state-store.js';

/** One resource as kept here. */
class Kept {
  readonly items = new Map<string, StoredItem>();
  /** Each scope's items in the order they were created (a top-level resource has one scope, ''). */
  readonly orders = new Map<string, OrderIndex>();
  /** The largest integer-like id the resource has held: counted ids go on from it. */
  largest = 0;
  /** The largest counted id handed out for a create not stored yet (the cluster primary's questions). */
  reserved = 0;
  bytes = 0;

  put(id: string, item: StoredItem): void {
    const before = this.items.get(id);
    if (before && before.scope !== item.scope) this.orders.get(before.scope)?.remove(id);
    this.items.set(id, item);
    this.bytes += byteLength(item.text) - (before ? byteLength(before.text) : 0);
    this.largest = Math.max(this.largest, idNumber(id) ?? 0);
    let order = this.orders.get(item.scope);
    if (!order) this.orders.set(item.scope, (order = new OrderIndex()));
    order.add(id);
  }

  remove(id: string): void {
    const before = this.items.get(id);
    if (!before) return;
    this.items.delete(id);
    this.bytes -= byteLength(before.text);
    const order = this.orders.get(before.scope);
    order?.remove(id);
    if (order?.size === 0) this.orders.delete(before.scope);
  }

  page(scope: string, start: NonNullable<StateQuestion['page']>): StoredPage {
    const order = this.orders.get(scope);
    const total = order?.size ?? 0;
    const from = 'after' in start.start ? (order?.rankOf(start.start.after) ?? total - 1) + 1 : start.start.offset;
    const ids = order ? order.page(from, start.limit ?? Infinity) : [];
    return { total, start: Math.min(from, total), ids, items: ids.map((id) => this.items.get(id)!.text) };
  }
}

export class LocalStateStore implements StateStore {
  private resources = new Map<string, Kept>();
  /** The UTF-8 bytes of every stored item's JSON text. */
  private bytes = 0;
  /** Whether a seed was offered already: only the first is taken. */
  private seeded = false;

  /**
   * `changed` runs after every change (to schedule a --state-file write); `maxBytes` caps the
   * bytes of the items' JSON (--max-state). A state put in whole (replace) is checked before.
   */
  constructor(private readonly changed: () => void = () => {}, private readonly maxBytes = Infinity) {}

  /**
   * The parts of the state a request asks for. `reserve`: a new counted id is handed out once
   * (the cluster primary answers several workers, whose creates are stored later).
   */
  answer(question: StateQuestion, reserve = false): StateFacts {
    const kept = this.resources.get(question.resource);
    const facts: StateFacts = {};
    if (question.item !== undefined) facts.item = kept?.items.get(question.item)?.text ?? null;
    if (question.page) facts.page = kept ? kept.page(question.page.scope, question.page) : { total: 0, start: 0, ids: [], items: [] };
    if (question.count) facts.count = kept?.items.size ?? 0;
    if (question.taken) facts.taken = question.taken.filter((id) => kept?.items.has(id) === true);
    if (question.newNumber) facts.newNumber = reserve ? this.reserve(question.resource) : (kept?.largest ?? 0) + 1;
    return facts;
  }

  apply({ action, resource, id, item, scope = '' }: StateChange): Applied {
    let kept = this.resources.get(resource);
    if (!kept) this.resources.set(resource, (kept = new Kept()));
    const before = kept.items.get(id);
    if ((before !== undefined) === (action === 'create')) return 'conflict';
    const delta = (item === null ? 0 : byteLength(item)) - (before === undefined ? 0 : byteLength(before.text));
    if (delta > 0 && this.bytes + delta > this.maxBytes) return 'full';
    this.bytes += delta;
    if (item === null) kept.remove(id);
    else kept.put(id, { text: item, scope });
    this.changed();
    return 'applied';
  }

  replace(state: PlacedState, only?: readonly string[]): void {
    const names = only ?? [...new Set([...this.resources.keys(), ...state.keys()])];
    for (const name of names) {
      const kept = new Kept();
      for (const [id, item] of state.get(name) ?? []) kept.put(id, item);
      this.bytes += kept.bytes - (this.resources.get(name)?.bytes ?? 0);
      if (kept.items.size > 0 || state.has(name)) this.resources.set(name, kept);
      else this.resources.delete(name);
    }
    this.changed();
  }

  /** The seed, when this store has taken none yet and holds no items at all (a --state-file that holds state wins whole). */
  seed(state: PlacedState): void {
    if (this.seeded) return;
    this.seeded = true;
    if (this.bytes === 0 && [...this.resources.values()].every((kept) => kept.items.size === 0)) this.replace(state);
  }

  dump(): StoredState {
    return new Map([...this.resources].map(([name, kept]) => [name, new Map([...kept.items].map(([id, item]) => [id, item.text]))]));
  }

  sizes(): ResourceSize[] {
    return [...this.resources].map(([resource, kept]) => ({ resource, items: kept.items.size, bytes: kept.bytes }));
  }

  private reserve(resource: string): number {
    let kept = this.resources.get(resource);
    if (!kept) this.resources.set(resource, (kept = new Kept()));
    kept.reserved = Math.max(kept.reserved, kept.largest) + 1;
    return kept.reserved;
  }
}
