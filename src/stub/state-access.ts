// Stateful mode's access to the stored resources: the pipeline asks the store what a request needs
// (at once in this process, or over IPC or Redis), and the change its answer makes is applied
// before the answer leaves, so the client's next request sees it; a change another process made
// first is answered again from the store as it is then, and a change that could not be stored is
// never answered as stored. Also what the admin API does to the state.
import { Mutex } from 'async-mutex';
import { ConfigError } from '../config/config-error.js';
import type { ResolvedOptions } from '../config/options.js';
import { askingRequest, handleRequest, routeRequest, touchesState, type EngineState, type StateAsked } from '../engine/pipeline.js';
import { isAsked } from '../engine/state-asked.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals, stateRefusals } from '../engine/refusals.js';
import type { PlacedState } from '../engine/engine-types.js';
import type { Routed } from '../engine/route.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { failedAnswer } from './failed-answer.js';
import { answerHere } from './answer-here.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import { stateBytes, type ResourceSize, type StateStore } from './state-store.js';
import { LocalStateStore } from './local-state-store.js';
import { placedState, scopeOfItem } from '../engine/state-question.js';
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
      if (text !== null) await whole.adoptStateFile(placedState(resources, checkStateFile(options.stateFile!, text, resources)));
    }
    // The first data (the list examples, --seed-items): each store takes it only where it holds no
    // state, once (a shared store: the first process to start seeds it).
    const seed = placedState(resources, seedState(version.current.compiled.operations, resources, options.seedItems));
    const seedBytes = stateBytes(seed);
    if (seedBytes > options.maxStateBytes) throw new ConfigError('seedItems', `the first data takes ${seedBytes} bytes, more than the ${options.maxStateBytes} the store keeps (--max-state); seed fewer items or raise --max-state`);
    if (whole) {
      await whole.store.seed(seed);
      return new StateAccess(version, whole.store, null, options.maxStateBytes, options.seedItems);
    }
    let stateFile: StateFileWriter | null = null;
    const store = new LocalStateStore(() => stateFile?.changed(), options.maxStateBytes);
    const loaded = options.stateFile === undefined ? null : readStateFile(options.stateFile, resources);
    if (loaded !== null) store.replace(placedState(resources, loaded));
    store.seed(seed);
    if (options.stateFile !== undefined) stateFile = new StateFileWriter(options.stateFile, () => store.dump(), warn);
    return new StateAccess(version, store, stateFile, options.maxStateBytes, options.seedItems);
  }

  /**
   * Runs the pipeline; the requests of a resource's operations ask the store for what they need
   * once authenticated and valid, so an outage of a shared store (Redis) leaves every other
   * operation answering; the request is routed once, here, and the pipeline takes the route it
   * found. One version answers the whole request, retries included, even when a reload lands meanwhile.
   */
  handle(request: PlainRequest): EngineResponse | Promise<EngineResponse> {
    const version = this.version.current;
    const routed = routeRequest(version, request);
    if (!touchesState(version, routed)) return handleRequest(version, request, undefined, routed);
    const session = sessionOf(request.headers['x-mock-session']);
    const store = session === DEFAULT_SESSION ? this.store : this.sessionStore(session, version);
    // A store in this process answers at once and nothing changes it meanwhile (answer-here.ts).
    if (store instanceof LocalStateStore) return answerHere(version, request, store, this.capOf(store), routed);
    const asked = askingRequest(version, request, routed);
    if (!isAsked(asked)) return asked;
    const operation = (routed as Routed).operation;
    return this.handleAsked(store, asked, operation).catch((error: unknown) => failedAnswer(request, error, operation));
  }

  /**
   * A store another process shares: another process may have changed the same item since this one
   * asked (two instances creating one id), so the store refuses the change and the request is
   * answered again from the store as it is then.
   */
  private async handleAsked(store: StateStore, asked: StateAsked, operation: CompiledOperation): Promise<EngineResponse> {
    const response = await answered(store, asked, operation);
    if (!response.stateChange) return response;
    const applied = await store.apply(response.stateChange);
    if (applied === 'applied') return response;
    return applied === 'full' ? this.full(store, operation) : this.retry(store, asked, operation);
  }

  /** A session's own store, seeded as the shared one was when it is first used. */
  private sessionStore(session: string, version: EngineState): LocalStateStore {
    let store = this.sessionStores.get(session);
    if (store) {
      this.sessionStores.delete(session);
    } else {
      store = new LocalStateStore(() => {}, Math.min(this.maxBytes, MAX_SESSION_STORE_BYTES));
      store.seed(this.seedOf(version));
      if (this.sessionStores.size >= MAX_SESSION_STORES) this.sessionStores.delete(this.sessionStores.keys().next().value!);
    }
    this.sessionStores.set(session, store);
    return store;
  }

  /** The first data of a version, made once: a new session's store takes its items from it, not made again. */
  private readonly seeds = new WeakMap<EngineState, PlacedState>();

  private seedOf(version: EngineState): PlacedState {
    let seed = this.seeds.get(version);
    if (!seed) this.seeds.set(version, (seed = placedState(version.resources!, seedState(version.compiled.operations, version.resources!, this.seedItems))));
    return seed;
  }

  /** Forgets a session's own store (its next request starts from the seed again), or every session's. */
  forgetSessions(session?: string): void {
    if (session === undefined) this.sessionStores.clear();
    else this.sessionStores.delete(session);
  }

  /**
   * Answers the request again from the state as it is now, until its change is stored; after
   * RETRIES a 503 says nothing was stored (the answer built from a stale state is never sent).
   */
  private retry(store: StateStore, asked: StateAsked, operation: CompiledOperation): Promise<EngineResponse> {
    return this.retries.runExclusive(async () => {
      for (let tries = 0; tries < RETRIES; tries++) {
        const response = await answered(store, asked, operation);
        const applied = response.stateChange ? await store.apply(response.stateChange) : 'applied';
        if (applied === 'full') return this.full(store, operation);
        if (applied === 'applied') return response;
      }
      return refusalResponse(serverRefusals.storeBusy(RETRIES), operation);
    });
  }

  private full(store: StateStore, operation: CompiledOperation | null): EngineResponse {
    return refusalResponse(stateRefusals.bytesFull(this.capOf(store)), operation);
  }

  /** The bytes a store may hold: --max-state, and less for a session's own (its refusal names this cap). */
  private capOf(store: StateStore): number {
    return store === this.store ? this.maxBytes : Math.min(this.maxBytes, MAX_SESSION_STORE_BYTES);
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
    return Math.max(16 * 1024 * 1024, 2 * this.maxBytes);
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replace(text: string): Promise<string[]> {
    const resources = this.version.current.resources!;
    const state = stateFromJson(text, resources);
    if (Array.isArray(state)) return state;
    const placed = placedState(resources, state);
    const bytes = stateBytes(placed);
    if (bytes > this.maxBytes) return [`/: the items take ${bytes} bytes, more than the ${this.maxBytes} the store keeps (--max-state)`];
    await this.store.replace(placed);
    return [];
  }

  /** Each resource with its items and their bytes (the stored JSON text), for the metrics. */
  async sizes(): Promise<ResourceSize[]> {
    return this.store.sizes();
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
    const bytes = (await this.store.sizes()).reduce((sum, size) => sum + size.bytes, 0);
    if (resource.scope.length > 0) {
      const texts = [...((await this.store.dump()).get(resource.name)?.values() ?? [])].reverse();
      return { items: texts.slice(offset, offset + limit), total: texts.length, bytes, maxBytes: this.maxBytes };
    }
    const total = (await this.store.answer({ resource: resource.name, count: true })).count ?? 0;
    const end = Math.max(0, total - offset);
    const start = Math.max(0, end - limit);
    const { page } = await this.store.answer({ resource: resource.name, page: { scope: '', start: { offset: start }, limit: end - start } });
    return { items: [...(page?.items ?? [])].reverse(), total, bytes, maxBytes: this.maxBytes };
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
      if (applied === 'full') return [`/: ${stateRefusals.bytesFull(this.maxBytes).message}`];
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
    const seed = this.seedOf(this.version.current);
    await this.store.replace(new Map([[resource.name, seed.get(resource.name) ?? new Map()]]), [resource.name]);
  }

  /** Puts every resource back to its first data (`stub.reset({ state: true })`). */
  async resetAll(): Promise<void> {
    this.forgetSessions();
    await this.store.replace(this.seedOf(this.version.current));
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

/**
 * The answer once the store has answered the request's questions (a drawn id may need a second);
 * a store that keeps changing under it is answered as busy.
 */
async function answered(store: StateStore, asked: StateAsked, operation: CompiledOperation): Promise<EngineResponse> {
  let step: EngineResponse | StateAsked = asked;
  for (let questions = 0; questions < MAX_QUESTIONS; questions++) {
    if (!isAsked(step)) return step;
    step = step.resume(await store.answer(step.question));
  }
  return isAsked(step) ? refusalResponse(serverRefusals.storeBusy(MAX_QUESTIONS), operation) : step;
}

/** Questions one answer may ask: one, and a few more for a drawn id whose first draws are taken. */
const MAX_QUESTIONS = 30;

