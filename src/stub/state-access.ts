// Stateful mode's access to the stored resources: the pipeline reads them, and the change its
// answer makes is applied before the answer leaves, so the client's next request sees it; a change
// another process made first is retried. Also what the admin API does to the state.
import type { ResolvedOptions } from '../config/options.js';
import { handleRequest } from '../engine/pipeline.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals } from '../engine/refusals.js';
import type { StoredState } from '../engine/engine-types.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import { LocalStateStore, type StateStore } from './state-store.js';
import { checkStateFile, readStateFile, StateFileWriter } from './state-file.js';
import { stateFromJson, stateToJson } from './state-document.js';
import { ClusterWhole } from './cluster-whole.js';
import type { WholeServer } from './whole-server.js';
import type { ServedVersion } from './served-version.js';

/** How many times a request is answered again when another process changed the same item first. */
const TRIES = 3;

export class StateAccess {
  private constructor(
    private readonly version: ServedVersion,
    private readonly store: StateStore,
    private readonly stateFile: StateFileWriter | null,
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
    if (whole) return new StateAccess(version, whole.store, null);
    let stateFile: StateFileWriter | null = null;
    const store = new LocalStateStore(() => stateFile?.changed());
    if (options.stateFile !== undefined) {
      store.replace(readStateFile(options.stateFile, resources));
      stateFile = new StateFileWriter(options.stateFile, () => store.read(), warn);
    }
    return new StateAccess(version, store, stateFile);
  }

  /** Runs the pipeline, with the stored resources for the requests that touch them. */
  handle(request: PlainRequest): EngineResponse | Promise<EngineResponse> {
    if (!this.touchesState(request)) return handleRequest(this.version.current, request);
    const stored = this.store.read();
    if (!(stored instanceof Promise)) return this.handleWith(request, stored, TRIES);
    return stored.then((state) => this.handleWith(request, state, TRIES)).catch((error: unknown) => storeUnavailable(error));
  }

  /**
   * Whether the request is for an operation of a resource. Only those read the store, so an
   * outage of a shared store (Redis) leaves every other operation answering; the route is looked
   * up once more for this, in stateful mode only.
   */
  private touchesState(request: PlainRequest): boolean {
    const { compiled, resources } = this.version.current;
    const match = compiled.routes.match(request.method, request.path);
    return match.kind === 'operation' && resources!.actions.has(match.operation.key);
  }

  private handleWith(request: PlainRequest, stored: StoredState, tries: number): EngineResponse | Promise<EngineResponse> {
    const response = handleRequest(this.version.current, request, stored);
    if (!response.stateChange) return response;
    // Another process may have changed the same item since this one read the state (two workers
    // creating one id): the store refuses the change, and the request is answered again from
    // the state as it is now.
    const retry = (applied: boolean) => applied || tries <= 1 ? response : this.handleAgain(request, tries - 1);
    const applied = this.store.apply(response.stateChange);
    return applied instanceof Promise ? applied.then(retry) : retry(applied);
  }

  private async handleAgain(request: PlainRequest, tries: number): Promise<EngineResponse> {
    return this.handleWith(request, await this.store.read(), tries);
  }

  /** The stored resources as JSON (GET /__admin/state). */
  async json(): Promise<string> {
    return stateToJson(await this.store.read());
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replace(text: string): Promise<string[]> {
    const state = stateFromJson(text, this.version.current.resources!);
    if (Array.isArray(state)) return state;
    await this.store.replace(state);
    return [];
  }

  async clear(): Promise<void> {
    await this.store.replace(new Map());
  }

  /** Writes a waiting --state-file change now (at shutdown). */
  flush(): void {
    this.stateFile?.flush();
  }
}

/** A shared store (Redis) that did not answer: the client may retry; the outage itself is logged once. */
function storeUnavailable(error: unknown): EngineResponse {
  return refusalResponse(serverRefusals.storeUnavailable((error as Error).message ?? String(error)), null);
}
