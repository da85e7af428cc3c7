// What the admin API reads and changes of stateful mode's shared store (GET/PUT /__admin/state,
// /__admin/resources/{name}/items): the items as a state document, a page of one resource, one
// item put or deleted, a resource put back to its first data. Apart from state-access.ts, which
// answers requests in every host, since only the server has an admin API.
import { serverRefusals, stateRefusals } from '../engine/refusals.js';
import { stateBytes } from './state-store.js';
import { scopeOfItem, placedState } from '../engine/state-question.js';
import { checkItem, exactTree, stateFromJson, stateToJson } from './state-document.js';
import { escapePointerToken } from '../common/json-pointer.js';
import type { Resource } from '../openapi/compile-resources.js';
import type { StateAccess } from './state-access.js';
import { RETRIES } from './ask-elsewhere.js';

/** A state document is read up to this size at least (what PUT /__admin/state always took). */
export const SMALLEST_STATE_DOCUMENT = 16 * 1024 * 1024;

/** GET /__admin/resources/{name}/items: the items as their stored JSON text. */
export interface ItemsPage {
  items: string[];
  total: number;
  bytes: number;
  maxBytes: number;
}

export class StoredItems {
  constructor(private readonly access: StateAccess) {}

  private get store() {
    return this.access.shared;
  }

  /** The stored resources as JSON (GET /__admin/state). */
  async json(): Promise<string> {
    return stateToJson(await this.store.dump());
  }

  /**
   * The largest state document read whole (PUT /__admin/state): twice the items' bytes the store
   * keeps, room for the document's own layout (indents, names), and never less than 16 MiB.
   */
  documentLimit(): number {
    return Math.max(SMALLEST_STATE_DOCUMENT, 2 * this.access.maxBytes);
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replace(text: string): Promise<string[]> {
    const resources = this.access.version.current.resources!;
    const state = stateFromJson(text, resources);
    if (Array.isArray(state)) return state;
    const placed = placedState(resources, state);
    const bytes = stateBytes(placed);
    if (bytes > this.access.maxBytes) return [`/: the items take ${bytes} bytes, more than the ${this.access.maxBytes} the store keeps (--max-state)`];
    await this.store.replace(placed);
    return [];
  }

  async clear(): Promise<void> {
    await this.store.replace(new Map());
  }

  /**
   * A page of one resource's items, newest first, with their count and the store's bytes against
   * its cap. A nested resource's items are listed under each parent apart, so its page is cut
   * from the whole resource.
   */
  async page(resource: Resource, offset: number, limit: number): Promise<ItemsPage> {
    const maxBytes = this.access.maxBytes;
    const bytes = (await this.store.sizes()).reduce((sum, size) => sum + size.bytes, 0);
    if (resource.scope.length > 0) {
      const texts = [...((await this.store.dump()).get(resource.name)?.values() ?? [])].reverse();
      return { items: texts.slice(offset, offset + limit), total: texts.length, bytes, maxBytes };
    }
    const total = (await this.store.answer({ resource: resource.name, count: true })).count ?? 0;
    const end = Math.max(0, total - offset);
    const start = Math.max(0, end - limit);
    const { page } = await this.store.answer({ resource: resource.name, page: { scope: '', start: { offset: start }, limit: end - start } });
    return { items: [...(page?.items ?? [])].reverse(), total, bytes, maxBytes };
  }

  /**
   * Stores `text` as the item `id` of `resource`, checked as a state document's items are (its
   * schema, its identity, which must be `id`): the violations, or none once stored.
   */
  async putItem(resource: Resource, id: string, text: string): Promise<string[]> {
    const tree = exactTree(text);
    if (tree instanceof Error) return [`/: ${tree.message}`];
    const checked = checkItem(resource, tree);
    if (Array.isArray(checked)) return checked;
    if (checked.id !== id) return [`/${escapePointerToken(resource.idField)}: is ${checked.id}, but the path names the item ${id}`];
    // Another process may create or delete the same item between the read and the change: read again.
    for (let tries = 0; tries < RETRIES; tries++) {
      const exists = (await this.store.answer({ resource: resource.name, item: id })).item != null;
      const applied = await this.store.apply({ action: exists ? 'replace' : 'create', resource: resource.name, id, item: checked.text, scope: scopeOfItem(resource, tree) });
      if (applied === 'applied') return [];
      if (applied === 'full') return [`/: ${stateRefusals.bytesFull(this.access.maxBytes).message}`];
    }
    return [`/: ${serverRefusals.storeBusy(RETRIES).message}`];
  }

  /** Deletes the item `id` of `resource`; false when it held none. */
  async deleteItem(resource: Resource, id: string): Promise<boolean> {
    if ((await this.store.answer({ resource: resource.name, item: id })).item == null) return false;
    return (await this.store.apply({ action: 'delete', resource: resource.name, id, item: null })) === 'applied';
  }

  /** Puts one resource back to its first data (the list example's items and --seed-items), the others as they are. */
  async reset(resource: Resource): Promise<void> {
    const seed = this.access.seedOf(this.access.version.current);
    await this.store.replace(new Map([[resource.name, seed.get(resource.name) ?? new Map()]]), [resource.name]);
  }
}
