// The order a store in this process keeps a list's items in (the order they were created):
// adding, removing, the item at a rank and the rank of an item each take time in the logarithm of
// the count (a Fenwick tree over slots), so a page deep in a long list costs what the first does
// and no page copies every id.

/** Removed slots left in place before the slots are packed again (and at least as many as the ids). */
const PACK_AFTER = 1_024;

export class OrderIndex {
  /** The ids in the order they were added; undefined where one was removed. */
  private slots: Array<string | undefined> = [];
  private readonly slotOf = new Map<string, number>();
  /** Fenwick tree over the slots (1-based): how many ids each range of slots holds. */
  private tree = new Int32Array(2);
  private removed = 0;

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds `id` last (an id already held keeps its place). */
  add(id: string): void {
    if (this.slotOf.has(id)) return;
    if (this.slots.length + 1 >= this.tree.length) this.rebuild(this.slots.length + 1);
    const slot = this.slots.length;
    this.slots.push(id);
    this.slotOf.set(id, slot);
    this.count(slot, 1);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slots[slot] = undefined;
    this.slotOf.delete(id);
    this.count(slot, -1);
    if (++this.removed > PACK_AFTER && this.removed > this.slotOf.size) this.rebuild(this.slotOf.size);
  }

  /** The rank of `id` (0 for the first); undefined when it is not held. */
  rankOf(id: string): number | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.before(slot);
  }

  /** At most `limit` ids from rank `start` on. */
  page(start: number, limit: number): string[] {
    const ids: string[] = [];
    if (start >= this.size || limit <= 0) return ids;
    for (let slot = this.slotAt(start); slot < this.slots.length && ids.length < limit; slot++) {
      const id = this.slots[slot];
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  /** Every id, in order. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (const id of this.slots) if (id !== undefined) yield id;
  }

  /** How many ids the slots before `slot` hold. */
  private before(slot: number): number {
    let sum = 0;
    for (let i = slot; i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }

  /** The slot of the id at `rank` (the rank exists). */
  private slotAt(rank: number): number {
    let position = 0;
    let left = rank;
    for (let step = highestBit(this.tree.length - 1); step > 0; step >>= 1) {
      const next = position + step;
      if (next < this.tree.length && this.tree[next] <= left) {
        position = next;
        left -= this.tree[next];
      }
    }
    return position;
  }

  private count(slot: number, delta: number): void {
    for (let i = slot + 1; i < this.tree.length; i += i & -i) this.tree[i] += delta;
  }

  /** Packs the ids into the first slots and sizes the tree for at least `room` of them, twice over. */
  private rebuild(room: number): void {
    const ids = this.slots.filter((id): id is string => id !== undefined);
    this.slots = ids;
    this.removed = 0;
    this.slotOf.clear();
    this.tree = new Int32Array(Math.max(2, 2 ** Math.ceil(Math.log2(room * 2 + 1))) + 1);
    ids.forEach((id, slot) => {
      this.slotOf.set(id, slot);
      this.tree[slot + 1] = 1;
    });
    for (let i = 1; i < this.tree.length; i++) {
      const parent = i + (i & -i);
      if (parent < this.tree.length) this.tree[parent] += this.tree[i];
    }
  }
}

function highestBit(n: number): number {
  return n <= 0 ? 0 : 2 ** Math.floor(Math.log2(n));
}
