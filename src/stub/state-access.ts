// Stateful mode's access to the stored resources, for every host (needs nothing of Node): which
// store answers a request (the shared one, or a named session's own, X-Mock-Session, seeded as the
// shared one was and capped), and how: a store in this process at once (answer-here.ts), one
// another process shares over IPC or Redis by asking it (ask-elsewhere.ts: retries, its verdict).
// Either way the change an answer makes is applied before the answer leaves, and a change that
// could not be stored is never answered as stored. Where the shared store comes from is the
// host's business (server-state-store.ts: --state-file, --workers, Redis; the page: memory).
import { ConfigError } from '../config/config-error.js';
import { handleRequest, routeRequest, touchesState, type EngineState } from '../engine/pipeline.js';
import type { AskElsewhere } from './ask-elsewhere.js';
import type { PlacedState } from '../engine/engine-types.js';
import type { Routed } from '../engine/route.js';
import type { FailedAnswer } from './failed-answer.js';
import { answerHere } from './answer-here.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import { stateBytes, type ResourceSize, type StateStore } from './state-store.js';
import { LocalStateStore } from './local-state-store.js';
import { placedState } from '../engine/state-question.js';
import { seedState } from '../engine/seed-state.js';
import type { ServedState } from './served-state.js';
import { DEFAULT_SESSION, sessionOf } from '../engine/sessions.js';

/**
 * Sessions with a store of their own at most (beyond, the one used least recently is forgotten),
 * and the bytes each may hold (within --max-state): a client inventing session names can make the
 * process hold at most their product, 256 MiB, beside the shared store.
 */
const MAX_SESSION_STORES = 32;
const MAX_SESSION_STORE_BYTES = 8 * 1024 * 1024;

/** The engine options stateful mode reads: the shared store's cap and how many items to seed. */
export interface StateSettings {
  maxBytes: number;
  seedItems: number;
}

/**
 * The shared store as the host opened it: a store in this process, or one another process shares
 * with how it is asked (`elsewhere`, which only the server has, so a page never downloads it);
 * `flush` writes a waiting change out (--state-file).
 */
export type OpenedStore = { store: LocalStateStore; elsewhere?: undefined; flush?: () => void } | { store: StateStore; elsewhere: AskElsewhere; flush?: () => void };

/** How a host opens the shared store, handed the first data to seed it with where it holds none. */
export type StoreProvider = (seed: PlacedState) => OpenedStore | Promise<OpenedStore>;

/** The shared store in this process's memory, capped at `maxBytes` (the fetch handler's). */
export function inMemoryStore(maxBytes: number): StoreProvider {
  return (seed) => {
    const store = new LocalStateStore(() => {}, maxBytes);
    store.seed(seed);
    return { store };
  };
}

export class StateAccess {
  /** A named session's own store (X-Mock-Session), seeded as the shared one was, in this process. */
  private readonly sessionStores = new Map<string, LocalStateStore>();
  /** The store every request without a session reads and changes (GET/PUT /__admin/state). */
  readonly shared: StateStore;
  /** The bytes the shared store keeps (--max-state). */
  readonly maxBytes: number;

  private constructor(
    readonly version: ServedState,
    private readonly opened: OpenedStore,
    private readonly settings: StateSettings,
    private readonly failed: FailedAnswer,
  ) {
    this.shared = opened.store;
    this.maxBytes = settings.maxBytes;
  }

  /**
   * The first data (the list examples, `seedItems`) checked against the cap, then the host's
   * store opened with it: each store takes it only where it holds no state, once (a shared store:
   * the first process to start seeds it).
   */
  static async open(version: ServedState, settings: StateSettings, failed: FailedAnswer, provide: StoreProvider): Promise<StateAccess> {
    const seed = firstData(version.current, settings.seedItems);
    const seedBytes = stateBytes(seed);
    if (seedBytes > settings.maxBytes) throw new ConfigError('seedItems', `the first data takes ${seedBytes} bytes, more than the ${settings.maxBytes} the store keeps (--max-state); seed fewer items or raise --max-state`);
    const access = new StateAccess(version, await provide(seed), settings, failed);
    access.seeds.set(version.current, seed);
    return access;
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
    const store = session === DEFAULT_SESSION ? this.shared : this.sessionStore(session, version);
    // A store in this process answers at once and nothing changes it meanwhile (answer-here.ts).
    if (store instanceof LocalStateStore) return answerHere(version, request, store, this.capOf(store), routed);
    return this.opened.elsewhere!.answer(version, request, routed as Routed, store, this.maxBytes, this.failed);
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

  seedOf(version: EngineState): PlacedState {
    let seed = this.seeds.get(version);
    if (!seed) this.seeds.set(version, (seed = firstData(version, this.settings.seedItems)));
    return seed;
  }

  /** Forgets a session's own store (its next request starts from the seed again), or every session's. */
  forgetSessions(session?: string): void {
    if (session === undefined) this.sessionStores.clear();
    else this.sessionStores.delete(session);
  }

  /** The bytes a store may hold: --max-state, and less for a session's own (its refusal names this cap). */
  private capOf(store: StateStore): number {
    return store === this.shared ? this.maxBytes : Math.min(this.maxBytes, MAX_SESSION_STORE_BYTES);
  }

  /** Each resource with its items and their bytes (the stored JSON text), for the metrics. */
  async sizes(): Promise<ResourceSize[]> {
    return this.shared.sizes();
  }

  /** Puts every resource back to its first data, sessions' own stores forgotten (`stub.reset({ state: true })`). */
  async resetAll(): Promise<void> {
    this.forgetSessions();
    await this.shared.replace(this.seedOf(this.version.current));
  }

  /** Writes a waiting change out now (--state-file, at shutdown). */
  flush(): void {
    this.opened.flush?.();
  }
}

/** A version's first data: the list examples' items and `seedItems` generated ones, placed. */
function firstData(version: EngineState, seedItems: number): PlacedState {
  return placedState(version.resources!, seedState(version.compiled.operations, version.resources!, seedItems));
}
