// Stateful mode's access to the stored resources: the pipeline reads them, and the change its
// answer makes is applied before the answer leaves, so the client's next request sees it; a change
// another process made first is answered again from the new state, and a change that could not be
// stored is never answered as stored. Also what the admin API does to the state.
import { Mutex } from 'async-mutex';
import type { ResolvedOptions } from '../config/options.js';
import { handleRequest, routeRequest, touchesState, type EngineState } from '../engine/pipeline.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals, stateRefusals } from '../engine/refusals.js';
import type { Refusal, StoredState } from '../engine/engine-types.js';
import type { Routed } from '../engine/route.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import { LocalStateStore, stateBytes, type Applied, type StateStore } from './state-store.js';
import { checkStateFile, readStateFile, StateFileWriter } from './state-file.js';
import { checkItem, exactTree, stateFromJson, stateToJson } from './state-document.js';
import { escapePointerToken } from '../common/json-pointer.js';
import type { Resource } from '../openapi/compile-resources.js';
import { seedState } from '../engine/seed-state.js';
import { ClusterWhole } from './cluster-whole.js';
import type { WholeServer } from './whole-server.js';
import type { ServedVersion } from './served-version.js';
import { DEFAULT_SESSION, sessionOf } from '../engine/sessions.js';

/**
 * How many times a request is answered again when another process changed the same item first.
 * The retries of one process run one at a time, so each one contends only with the other
 * processes' (at most one each): with 400 creates at once through two workers every one is stored.
 */
const RETRIES = 10;

/**
 * Sessions with a store of their own at most (beyond, the one used least recently is forgotten),
 * and the bytes each may hold (within --max-state): a client inventing session names can make the
 * process hold at most their product, 256 MiB, beside the shared store.
 */
const MAX_SESSION_STORES = 32;
const MAX_SESSION_STORE_BYTES = 8 * 1024 * 1024;

export class StateAccess {
  /** Retries in this process, one at a time. */
  private readonly retries = new Mutex();
  /** A named session's own store (X-Mock-Session), seeded as the shared one was, in this process. */
  private readonly sessionStores = new Map<string, LocalStateStore>();

  private constructor(
    private readonly version: ServedVersion,
    private readonly store: StateStore,
    private readonly stateFile: StateFileWriter | null,
    private readonly maxBytes: number,
    private readonly seedItems: number,
  ) {}

  /**
   * The whole server's store when there is one (with --workers, a --state-file the primary read is
   * checked against the document here, since the primary has none), else one in this process,
   * loaded from --state-file now and written to it after changes.
   */
  static async open(options: ResolvedOptions, version: ServedVersion, whole: WholeServer | null, warn: (line: string) => void): Promise<StateAccess> {
    const resources = version.current.resources!;
    if (whole instanceof ClusterWhole) {
      const text = await whole.stateFileText();
      if (text !== null) await whole.adoptStateFile(checkStateFile(options.stateFile!, text, resources));
    }
    // The first data (the list examples, --seed-items): each store takes it only where it holds no
    // state, once (a shared store: the first process to start seeds it).
    const seed = seedState(version.current.compiled.operations, resources, options.seedItems);
    if (whole) {
      await whole.store.seed(seed);
      return new StateAccess(version, whole.store, null, options.maxStateBytes, options.seedItems);
    }
    let stateFile: StateFileWriter | null = null;
    const store = new LocalStateStore(() => stateFile?.changed(), options.maxStateBytes);
    const loaded = options.stateFile === undefined ? null : readStateFile(options.stateFile, resources);
    if (loaded !== null) store.replace(loaded);
    store.seed(seed);
    if (options.stateFile !== undefined) stateFile = new StateFileWriter(options.stateFile, () => store.read(), warn);
    return new StateAccess(version, store, stateFile, options.maxStateBytes, options.seedItems);
  }

  /**
   * Runs the pipeline, with the stored resources for the requests that touch them. Only those
   * read the store, so an outage of a shared store (Redis) leaves every other operation
   * answering; the request is routed once, here, and the pipeline takes the route it found.
   * One version answers the whole request, retries included, even when a reload lands meanwhile.
   */
  handle(request: PlainRequest): EngineResponse | Promise<EngineResponse> {
    const version = this.version.current;
    const routed = routeRequest(version, request);
    if (!touchesState(version, routed)) return handleRequest(version, request, undefined, routed);
    const session = sessionOf(request.headers['x-mock-session']);
    const store = session === DEFAULT_SESSION ? this.store : this.sessionStore(session, version);
    const stored = store.read();
    if (!(stored instanceof Promise)) return this.handleWith(store, version, request, routed, stored);
    return stored.then((state) => this.handleWith(store, version, request, routed, state)).catch((error: unknown) => storeUnavailable(error));
  }

  /** A session's own store, seeded as the shared one was when it is first used. */
  private sessionStore(session: string, version: EngineState): LocalStateStore {
    let store = this.sessionStores.get(session);
    if (store) {
      this.sessionStores.delete(session);
    } else {
      store = new LocalStateStore(() => {}, Math.min(this.maxBytes, MAX_SESSION_STORE_BYTES));
      store.seed(copied(this.seedOf(version)));
      if (this.sessionStores.size >= MAX_SESSION_STORES) this.sessionStores.delete(this.sessionStores.keys().next().value!);
    }
    this.sessionStores.set(session, store);
    return store;
  }

  /** The first data of a version, made once: a new session's store is a copy of it, not made again. */
  private readonly seeds = new WeakMap<EngineState, StoredState>();

  private seedOf(version: EngineState): StoredState {
    let seed = this.seeds.get(version);
    if (!seed) this.seeds.set(version, (seed = seedState(version.compiled.operations, version.resources!, this.seedItems)));
    return seed;
  }

  /** Forgets a session's own store (its next request starts from the seed again), or every session's. */
  forgetSessions(session?: string): void {
    if (session === undefined) this.sessionStores.clear();
    else this.sessionStores.delete(session);
  }

  private handleWith(store: StateStore, version: EngineState, request: PlainRequest, routed: Routed | Refusal, stored: StoredState): EngineResponse | Promise<EngineResponse> {
    const response = handleRequest(version, request, stored, routed);
    if (!response.stateChange) return response;
    // Another process may have changed the same item since this one read the state (two workers
    // creating one id): the store refuses the change, and the request is answered again.
    const applied = store.apply(response.stateChange);
    if (!(applied instanceof Promise)) return this.answerFor(store, applied, response, version, request, routed);
    return applied.then((done) => this.answerFor(store, done, response, version, request, routed));
  }

  /** The answer once the store has taken (or refused) its change. */
  private answerFor(store: StateStore, applied: Applied, response: EngineResponse, version: EngineState, request: PlainRequest, routed: Routed | Refusal): EngineResponse | Promise<EngineResponse> {
    if (applied === 'applied') return response;
    return applied === 'full' ? this.full(store) : this.retry(store, version, request, routed);
  }

  /**
   * Answers the request again from the state as it is now, until its change is stored; after
   * RETRIES a 503 says nothing was stored (the answer built from a stale state is never sent).
   */
  private retry(store: StateStore, version: EngineState, request: PlainRequest, routed: Routed | Refusal): Promise<EngineResponse> {
    return this.retries.runExclusive(async () => {
      for (let tries = 0; tries < RETRIES; tries++) {
        const response = handleRequest(version, request, await store.read(), routed);
        const applied = response.stateChange ? await store.apply(response.stateChange) : 'applied';
        if (applied === 'full') return this.full(store);
        if (applied === 'applied') return response;
      }
      return refusalResponse(serverRefusals.storeBusy(RETRIES), null);
    });
  }

  /** The refusal of a change past the store's cap: a session's own store holds less than the shared one. */
  private full(store: StateStore): EngineResponse {
    return refusalResponse(stateRefusals.bytesFull(store === this.store ? this.maxBytes : Math.min(this.maxBytes, MAX_SESSION_STORE_BYTES)), null);
  }

  /** The stored resources as JSON (GET /__admin/state). */
  async json(): Promise<string> {
    return stateToJson(await this.store.read());
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replace(text: string): Promise<string[]> {
    const state = stateFromJson(text, this.version.current.resources!);
    if (Array.isArray(state)) return state;
    const bytes = stateBytes(state);
    if (bytes > this.maxBytes) return [`/: the items take ${bytes} bytes, more than the ${this.maxBytes} the store keeps (--max-state)`];
    await this.store.replace(state);
    return [];
  }

  /** Each resource with its items and their bytes (the stored JSON text), for the metrics. */
  async sizes(): Promise<Array<{ resource: string; items: number; bytes: number }>> {
    return [...(await this.store.read())].map(([resource, items]) => {
      let bytes = 0;
      for (const text of items.values()) bytes += Buffer.byteLength(text);
      return { resource, items: items.size, bytes };
    });
  }

  async clear(): Promise<void> {
    await this.store.replace(new Map());
  }

  /** A page of one resource's items, newest first, with their count and the store's bytes against its cap. */
  async page(resource: Resource, offset: number, limit: number): Promise<ItemsPage> {
    const state = await this.store.read();
    const texts = [...(state.get(resource.name)?.values() ?? [])].reverse();
    return { items: texts.slice(offset, offset + limit), total: texts.length, bytes: stateBytes(state), maxBytes: this.maxBytes };
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
      const exists = (await this.store.read()).get(resource.name)?.has(id) ?? false;
      const applied = await this.store.apply({ action: exists ? 'replace' : 'create', resource: resource.name, id, item: checked.text });
      if (applied === 'applied') return [];
      if (applied === 'full') return [`/: ${stateRefusals.bytesFull(this.maxBytes).message}`];
    }
    return [`/: ${serverRefusals.storeBusy(RETRIES).message}`];
  }

  /** Deletes the item `id` of `resource`; false when it held none. */
  async deleteItem(resource: Resource, id: string): Promise<boolean> {
    if (!(await this.store.read()).get(resource.name)?.has(id)) return false;
    return (await this.store.apply({ action: 'delete', resource: resource.name, id, item: null })) === 'applied';
  }

  /** Puts one resource back to its first data (the list example's items and --seed-items), the others as they are. */
  async reset(resource: Resource): Promise<void> {
    const version = this.version.current;
    const seed = seedState(version.compiled.operations, version.resources!, this.seedItems);
    const state = new Map(await this.store.read());
    state.set(resource.name, seed.get(resource.name) ?? new Map());
    await this.store.replace(state);
  }

  /** Puts every resource back to its first data (`stub.reset({ state: true })`). */
  async resetAll(): Promise<void> {
    this.forgetSessions();
    const version = this.version.current;
    await this.store.replace(seedState(version.compiled.operations, version.resources!, this.seedItems));
  }

  /** Writes a waiting --state-file change now (at shutdown). */
  flush(): void {
    this.stateFile?.flush();
  }
}

/** GET /__admin/resources/{name}/items: the items as their stored JSON text. */
export interface ItemsPage {
  items: string[];
  total: number;
  bytes: number;
  maxBytes: number;
}

/** A shared store (Redis) that did not answer: the client may retry; the outage itself is logged once. */
function storeUnavailable(error: unknown): EngineResponse {
  return refusalResponse(serverRefusals.storeUnavailable((error as Error).message ?? String(error)), null);
}

/** A state whose maps are its own: a store changes the maps it holds. */
function copied(state: StoredState): StoredState {
  return new Map([...state].map(([resource, items]) => [resource, new Map(items)]));
}
