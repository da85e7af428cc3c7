// The application around the engine, apart from any transport: it loads and compiles the spec
// and fixtures, holds the state the pipeline reads, records what happened to each request
// (journal, coverage, log: all at one point, after the answer), and reloads when files change.
import { DEFAULTS, type ResolvedOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import { loadFixtures } from '../scenarios/load-fixtures.js';
import { formatSelfCheck, requestLineFormatter, type RequestLineFormatter } from '../record/request-log.js';
import { Coverage, type CoverageReport } from '../record/coverage.js';
import { Journal, type JournalEntry, type JournalFilter } from '../record/journal.js';
import { compileSteps } from '../openapi/compile-operations.js';
import { loadDocument } from '../openapi/load-document.js';
import { loadDocumentOffThread } from '../openapi/load-off-thread.js';
import { runAtOnce, runInSlices } from '../common/slices.js';
import { summarizeWarnings } from '../openapi/document-warnings.js';
import { handleRequest, type EngineState } from '../engine/pipeline.js';
import type { StubRequest } from '../common/plain-http.js';
import type { StubResponse } from '../engine/stub-response.js';
import { watchFiles, type FileWatch, type WatchTargets } from './watch-files.js';
import { loadGeneratorLibraries } from '../generate/generator-libraries.js';
import { compileResources } from '../openapi/compile-resources.js';
import type { StoredState } from '../engine/engine-types.js';
import { LocalStateStore, type StateStore } from './state-store.js';
import { checkStateFile, readStateFile, StateFileWriter } from './state-file.js';
import { stateFromJson, stateToJson } from './state-document.js';
import type { ClusterLink } from './cluster-link.js';
import { ClusterWhole } from './cluster-whole.js';
import type { AdminChange, WholeServer } from './whole-server.js';
import { stringifyExact } from '../common/exact-json.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals } from '../engine/refusals.js';
import { Outbound, type DeliveryOutcome } from '../deliver/outbound.js';
import { requestFor } from '../engine/plan-deliveries.js';
import { parseExactJson } from '../common/exact-json.js';


export interface JournalWatcher {
  entry(entry: JournalEntry): void;
  end(): void;
}

export class Stub {
  readonly journal: Journal;
  readonly coverage = new Coverage();
  private fileWatch: FileWatch | null = null;
  /** The files the spec was last read from (itself and what it reaches by `$ref`): what the watch follows. */
  private specFiles: string[] = [];
  /** The reload under way (every caller since it began shares its outcome); null when none is. */
  private reloading: Promise<boolean> | null = null;
  /** Reloads asked for so far: a reload under way that is no longer the newest is abandoned. */
  private reloadsAsked = 0;
  private reloadAbort: AbortController | null = null;
  private readonly watchers = new Set<JournalWatcher>();
  private readonly formatLine: RequestLineFormatter;
  /** Stateful mode's resources; null when stateful mode is off. */
  private store: StateStore | null = null;
  private stateFile: StateFileWriter | null = null;
  /** Webhooks and callbacks on their way out, with their targets and last outcomes. */
  readonly outbound: Outbound;
  /** What makes several processes one server (--workers, --state-store); null in a single process. */
  private whole: WholeServer | null = null;

  private constructor(readonly options: ResolvedOptions, public state: EngineState, private readonly warn: (line: string) => void) {
    this.formatLine = requestLineFormatter(options.logFormat);
    this.journal = new Journal(options.journalLimit);
    this.outbound = new Outbound(warn);
  }

  /** Loads everything; a broken spec or fixture rejects with a ConfigError naming the file. */
  static async create(options: ResolvedOptions, link: ClusterLink | null = null): Promise<Stub> {
    // Warnings (fixtures, reloads, self-check) are never silenced: without a log they go to stderr.
    const warn = options.log ?? ((line: string) => void process.stderr.write(line + '\n'));
    if (options.bundled) warn(`no ${DEFAULTS.spec} in ${process.cwd()}: serving the bundled Plant Store document (${options.spec}); pass --spec (startStub: the spec option) to serve yours`);
    let specFiles: string[] = [];
    const stub = new Stub(options, await loadState(options, warn, (files) => (specFiles = files)), warn);
    stub.specFiles = specFiles;
    if (options.stateStore !== undefined) {
      // The Redis client takes a while to load (0.1 s and more): only a stub that uses it pays.
      const { RedisWhole } = await import('./redis-whole.js');
      const redis = await RedisWhole.connect({ url: options.stateStore, journalLimit: options.journalLimit, changeHere: (change) => stub.changeHere(change), warn });
      stub.whole = redis;
      const sticky = await redis.sticky();
      if (sticky !== null) stub.useScenario(sticky);
    } else if (link) {
      stub.whole = new ClusterWhole(link);
    }
    if (options.stateful) await stub.openStore();
    for (const [name, url] of Object.entries(options.webhooks)) {
      if (!stub.state.compiled.webhooks.has(name)) throw new ConfigError('webhooks', `${name}: the document has no such webhook; known: ${[...stub.state.compiled.webhooks.keys()].join(', ') || 'none'}`);
      stub.outbound.setTarget(name, url);
    }
    if (options.watch) stub.fileWatch = watchFiles(stub.watchTargets(), () => void stub.reload());
    return stub;
  }

  /**
   * Runs the pipeline: everything it needs was loaded and compiled before the first request. In
   * stateful mode the pipeline reads the stored resources, and the change its answer makes is
   * applied before the answer leaves, so the client's next request sees it.
   */
  handle(request: StubRequest): StubResponse | Promise<StubResponse> {
    if (this.store === null || !this.touchesState(request)) return handleRequest(this.state, request);
    const stored = this.store.read();
    if (!(stored instanceof Promise)) return this.handleWith(request, stored);
    return stored.then((state) => this.handleWith(request, state)).catch((error: unknown) => storeUnavailable(error));
  }

  /**
   * Whether the request is for an operation of a resource. Only those read the store, so an
   * outage of a shared store (Redis) leaves every other operation answering; the route is looked
   * up once more for this, in stateful mode only.
   */
  private touchesState(request: StubRequest): boolean {
    const match = this.state.compiled.routes.match(request.method, request.path);
    return match.kind === 'operation' && this.state.resources!.actions.has(match.operation.key);
  }

  private handleWith(request: StubRequest, stored: StoredState, tries = 3): StubResponse | Promise<StubResponse> {
    const response = handleRequest(this.state, request, stored);
    if (!response.stateChange) return response;
    // Another process may have changed the same item since this one read the state (two workers
    // creating one id): the store refuses the change, and the request is answered again from
    // the state as it is now.
    const retry = (applied: boolean) => applied || tries <= 1 ? response : this.handleAgain(request, tries - 1);
    const applied = this.store!.apply(response.stateChange);
    return applied instanceof Promise ? applied.then(retry) : retry(applied);
  }

  private async handleAgain(request: StubRequest, tries: number): Promise<StubResponse> {
    return this.handleWith(request, await this.store!.read(), tries);
  }

  /**
   * Stateful mode's store: the whole server's when there is one (with --workers, a --state-file the
   * primary read is checked against the document here, since the primary has none), else one in
   * this process, loaded from --state-file now and written to it after changes.
   */
  private async openStore(): Promise<void> {
    if (this.whole instanceof ClusterWhole) {
      const text = await this.whole.stateFileText();
      if (text !== null) await this.whole.adoptStateFile(checkStateFile(this.options.stateFile!, text, this.state.resources!));
    }
    if (this.whole) {
      this.store = this.whole.store;
      return;
    }
    const file = this.options.stateFile;
    const store = new LocalStateStore(() => this.stateFile?.changed());
    if (file !== undefined) {
      store.replace(readStateFile(file, this.state.resources!));
      this.stateFile = new StateFileWriter(file, () => store.read(), this.warn);
    }
    this.store = store;
  }

  /** True in stateful mode. */
  get stateful(): boolean {
    return this.store !== null;
  }

  /** The stored resources as JSON (GET /__admin/state); null when stateful mode is off. */
  async stateJson(): Promise<string | null> {
    return this.store === null ? null : stateToJson(await this.store.read());
  }

  /** Replaces the stored resources with a state document; its violations when it is not one. */
  async replaceState(text: string): Promise<string[]> {
    const state = stateFromJson(text, this.state.resources!);
    if (Array.isArray(state)) return state;
    await this.store!.replace(state);
    return [];
  }

  async clearState(): Promise<void> {
    await this.store?.replace(new Map());
  }

  /** Makes an admin change in this process; false when it could not be made (an unknown scenario, a broken reload). */
  async changeHere(change: AdminChange): Promise<boolean> {
    switch (change.kind) {
      case 'sticky':
        if (change.name === null) this.clearScenario();
        return change.name === null || this.useScenario(change.name);
      case 'reset':
        this.reset();
        return true;
      case 'reload':
        return this.reload();
      case 'webhook':
        this.outbound.setTarget(change.name, change.url);
        return true;
    }
  }

  /** The document's webhooks with their targets, and the last deliveries' outcomes (GET /__admin/webhooks). */
  webhooks(): { webhooks: Array<{ name: string; target: string | null }>; deliveries: DeliveryOutcome[] } {
    const names = [...this.state.compiled.webhooks.keys()];
    return { webhooks: names.map((name) => ({ name, target: this.outbound.targetOf(name) })), deliveries: this.outbound.recent() };
  }

  /**
   * Sends a webhook now (POST /__admin/webhooks/NAME/fire). `text`, when not empty, is the payload
   * and must fit the webhook's schema: its violations are returned and nothing is sent. Without
   * it, the payload is the documented example, else generated data.
   */
  fireWebhook(name: string, text: string): string[] {
    const plan = this.state.compiled.webhooks.get(name)!;
    let body = null;
    if (text.trim() !== '') {
      try {
        body = parseExactJson(text);
      } catch (error) {
        return [`/: ${(error as Error).message}`];
      }
      const violations = plan.validate?.(body.value, body.rawNumbers) ?? [];
      if (violations.length > 0) return violations;
    }
    this.outbound.send([{ kind: 'webhook', name, url: null, ...requestFor(plan, null, body) }]);
    return [];
  }

  /** Makes an admin change in the whole server: every worker with --workers, else this process. */
  async changeEverywhere(change: AdminChange): Promise<boolean> {
    return this.whole ? this.whole.changeEverywhere(change) : this.changeHere(change);
  }

  /** The whole server's journal as GET /__admin/requests answers it (JSON text, numbers exact). */
  async wholeJournal(filter: JournalFilter): Promise<string> {
    return this.whole ? this.whole.journal(filter) : stringifyExact({ requests: this.requests(filter) }, true);
  }

  /** The whole server's coverage: every worker's hits added up with --workers. */
  async wholeCoverage(): Promise<CoverageReport> {
    if (!this.whole) return this.coverageReport();
    const sum = new Coverage();
    sum.add(await this.whole.coverage());
    return sum.report(this.state.compiled.operations, this.state.scenarios);
  }

  /** Answers the cluster primary's questions to this worker (its part of the journal and coverage, an admin change). */
  answerPrimary(op: string, arg: unknown): unknown {
    switch (op) {
      case 'journal.list':
        return this.requests(arg as JournalFilter).map((entry) => [entry.time, stringifyExact(entry, true)]);
      case 'coverage.counts':
        return this.coverage.counts();
      case 'do':
        return this.changeHere(arg as AdminChange);
      default:
        throw new Error(`unknown question ${op}`);
    }
  }

  /** Called once per answered request, after it was sent. */
  record(request: StubRequest, response: StubResponse, durationMs: number): void {
    this.journal.record(request, response, durationMs);
    if (this.watchers.size > 0) {
      const entry = this.journal.latest(this.state.compiled.secrets);
      if (entry) for (const watcher of this.watchers) watcher.entry(entry);
    }
    this.coverage.record(response);
    // Sent only now, after the answer: a receiver never delays the client.
    if (response.deliveries && !response.fault && !response.abandoned) this.outbound.send(response.deliveries);
    this.whole?.record?.(this.journal.latest(this.state.compiled.secrets), response);
    if (response.selfCheck.length > 0) this.warn(formatSelfCheck(request, response));
    if (this.options.log) this.options.log(this.formatLine(request, response, durationMs));
  }

  /**
   * Follows the journal live (the admin page's event stream): `entry` runs for each request as it
   * is recorded, `end` when the stub shuts down. Returns the unsubscribe function.
   */
  watchJournal(watcher: JournalWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Ends every live journal stream, so open pages never hold a shutdown up. */
  endJournalWatchers(): void {
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  requests(filter?: JournalFilter): JournalEntry[] {
    return this.journal.list(filter, this.state.compiled.secrets);
  }

  /** Empties the journal and resets coverage. */
  reset(): void {
    this.journal.clear();
    this.coverage.reset();
  }

  coverageReport(): CoverageReport {
    return this.coverage.report(this.state.compiled.operations, this.state.scenarios);
  }

  /** Makes `name` the scenario for requests without a selection header; false if no operation has it. */
  useScenario(name: string): boolean {
    const known = [...this.state.scenarios.values()].some((scenarios) => scenarios.has(name));
    if (known) this.state = { ...this.state, sticky: name };
    return known;
  }

  clearScenario(): void {
    this.state = { ...this.state, sticky: null };
  }

  /** Every scenario name of every operation, once each. */
  scenarioNames(): string[] {
    return [...new Set([...this.state.scenarios.values()].flatMap((scenarios) => [...scenarios.keys()]))];
  }

  /**
   * Reloads spec and fixtures beside the version serving, which keeps answering until the new one
   * replaces it whole; on failure the last good version keeps serving. Resolves with whether the
   * files as they were when asked (or newer) are served.
   */
  reload(): Promise<boolean> {
    // The newest wins, and never two at once: a reload asked for while one is under way abandons
    // it (the files changed again, its work is stale) and one more starts when it has stopped.
    this.reloadsAsked++;
    this.reloadAbort?.abort();
    return (this.reloading ??= this.reloadUntilCurrent());
  }

  private async reloadUntilCurrent(): Promise<boolean> {
    for (;;) {
      const asked = this.reloadsAsked;
      const abort = (this.reloadAbort = new AbortController());
      const reloaded = await this.reloadNow(abort.signal);
      if (asked === this.reloadsAsked) {
        this.reloading = this.reloadAbort = null;
        return reloaded;
      }
    }
  }

  private async reloadNow(signal: AbortSignal): Promise<boolean> {
    const started = performance.now();
    try {
      const loaded = await loadState(this.options, this.warn, (files) => (this.specFiles = files), signal);
      // The sticky scenario is decided now, against the current state: a PUT or DELETE of
      // /__admin/scenario made while the files were loading is kept.
      this.state = { ...loaded, sticky: this.keptSticky(loaded) };
      this.warn(`reloaded ${this.options.spec} and ${this.options.fixtures} in ${Math.round(performance.now() - started)} ms`);
      return true;
    } catch (error) {
      if (signal.aborted) return false; // a newer reload takes over (or the stub is closing)
      const message = error instanceof ConfigError ? error.message : `reload failed: ${(error as Error).message}`;
      this.warn(`reload refused, still serving the last good version: ${message}`);
      return false;
    } finally {
      // The $ref'd files may have changed, and a fixtures folder made after the start is watched
      // from here on (the watch also notices one by itself).
      this.fileWatch?.update(this.watchTargets());
    }
  }

  private watchTargets(): WatchTargets {
    return { files: [this.options.spec, ...this.specFiles], folder: this.options.fixtures };
  }

  private keptSticky(loaded: EngineState): string | null {
    const sticky = this.state.sticky;
    if (sticky === null) return null;
    if ([...loaded.scenarios.values()].some((scenarios) => scenarios.has(sticky))) return sticky;
    // A client relying on the sticky scenario suddenly gets the default answer: say why.
    this.warn(`warning: the sticky scenario "${sticky}" is no longer in the fixtures; it was cleared`);
    return null;
  }

  close(): void {
    this.reloadAbort?.abort();
    this.endJournalWatchers();
    this.fileWatch?.close();
    this.stateFile?.flush();
    void this.whole?.close();
    this.outbound.close();
  }
}

/**
 * Loads spec and fixtures; `specFilesRead` hears which files the spec was read from, even if a
 * later step fails. At start-up (no `signal`) the document is read and compiled at once: nothing
 * waits for an answer yet, and that is the fastest way. A reload (`signal` given, aborted when it
 * is abandoned) reads it in a worker thread and compiles it in slices, so that the version still
 * serving answers between them.
 */
async function loadState(options: ResolvedOptions, log: (line: string) => void, specFilesRead: (files: string[]) => void, signal?: AbortSignal): Promise<EngineState> {
  const { spec, validationCopy } = signal ? await loadDocumentOffThread(options.spec, signal) : { spec: await loadDocument(options.spec), validationCopy: undefined };
  specFilesRead(spec.files);
  // The generator's libraries take about 25 ms to load; loading them before compiling means no
  // request (and no compile step that samples headers) ever waits for them or runs twice.
  await loadGeneratorLibraries();
  const steps = compileSteps(spec, { tokens: options.tokens, seed: options.seed, strict: options.strict, validationCopy });
  const compiled = signal ? await runInSlices(steps, signal) : runAtOnce(steps);
  if (spec.convertedFrom === 'Swagger 2.0') log(`note: ${options.spec} is Swagger 2.0; served as OpenAPI 3.0 (converted on load by swagger2openapi)`);
  if (spec.convertedFrom === 'OpenAPI 3.2') log(`note: ${options.spec} is OpenAPI 3.2; served with 3.1's schema rules, \`query\` and \`additionalOperations\` included`);
  if (!compiled.compiledWhole) log(`note: ${compiled.operations.length} operations: each operation's validators are compiled on first use and its response examples checked then (what that finds is added to GET /__admin/warnings)`);
  for (const line of summarizeWarnings(compiled.warnings)) log(line);
  const fixtures = await loadFixtures(options.fixtures, compiled);
  for (const warning of fixtures.warnings) log(`warning: ${warning}`);
  const resources = options.stateful ? compileResources(spec, compiled.operations) : null;
  return { compiled, scenarios: fixtures.scenarios, triggers: fixtures.triggers, sticky: null, defaultDelayMs: options.delayMs, resources };
}

/** A shared store (Redis) that did not answer: the client may retry; the outage itself is logged once. */
function storeUnavailable(error: unknown): StubResponse {
  return refusalResponse(serverRefusals.storeUnavailable((error as Error).message ?? String(error)), null);
}
