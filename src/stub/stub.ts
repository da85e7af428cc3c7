// The server's stub: the core every host assembles (stub-core.ts: what is served, the recorder,
// stateful mode's access, `handle` with the one catch) with Node's providers around it: the
// version served from files and reloaded (served-version.ts), the shared store kept in a
// --state-file, across --workers or in Redis (server-state-store.ts, whole-server.ts), webhooks
// and callbacks sent, the metrics, --proxy and the admin API's façade (admin-facade.ts).
import { hostname } from 'node:os';
import { resourcesSummary } from './resources-report.js';
import { DEFAULTS, type ResolvedOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import type { JournalEntry, JournalFilter } from '../record/journal.js';
import { journalPart } from './cluster-journal.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';
import { stringifyExact } from '../common/exact-json.js';
import { Drift, type DriftReport } from '../record/drift.js';
import { Outbound } from '../outbound/outbound.js';
import { isLoopbackName } from '../common/loopback.js';
import { ToPrimary, ToWorker, type ClusterLink, type Op } from './cluster-link.js';
import { ClusterWhole } from './cluster-whole.js';
import type { AdminChange, WholeServer } from './whole-server.js';
import { ServedVersion } from './served-version.js';
import { serverStateStore } from './server-state-store.js';
import type { Recorder } from './recorder.js';
import { StubCore } from './stub-core.js';
import { JournalFollowers } from './journal-followers.js';
import { Metrics, type MetricsJson } from '../record/metrics.js';
import { StubAdmin } from './admin-facade.js';
import { createProxy, type ProxySetup } from '../proxy/proxy-setup.js';
import { decide, type ProxyDecision } from '../proxy/proxy-decision.js';

/** What the stub serves, for a listing (the CLI's start-up lines). */
export interface ServedSummary {
  title: string;
  operations: Array<{ method: string; path: string; operationId: string | null }>;
  /** Stateful mode's one line on what it made stateful; null when it is off. */
  stateful: string | null;
  /** With several documents on one port, each one's name, mount path and file; empty with one. */
  documents: ReadonlyArray<{ name: string; mount: string; file: string }>;
}

/**
 * With --workers, what one worker says of loading: the first says all; the one started in place
 * of a speaker that died says what reloads find (its start would repeat what was said); the others
 * nothing.
 */
export type LoadingSpeaker = 'start and reloads' | 'reloads' | 'nothing';

export class Stub {
  /** What every host assembles: the served version, the recorder, stateful mode's access, `handle`. */
  readonly core: StubCore<ServedVersion>;
  readonly recorder: Recorder;
  readonly version: ServedVersion;
  /** The admin page's live event streams of the journal. */
  readonly followers: JournalFollowers;
  /** Webhooks and callbacks on their way out, with their targets and last outcomes. */
  readonly outbound: Outbound;
  readonly admin: StubAdmin;
  /** --proxy: where the real API and the document disagree, since the last reset. */
  private readonly drift = new Drift();
  /** GET /__admin/metrics: counted from the answered event, the deliveries and the reloads. */
  readonly metrics: Metrics;
  /** What makes several processes one server (--workers, --state-store); null in a single process. */
  private whole: WholeServer | null = null;
  /** --proxy: the real API requests are forwarded to; null without it. */
  readonly proxy: ProxySetup | null;
  /** Set once shutdown begins: GET /__admin/ready answers 503 from then on. */
  private shutdownBegun = false;

  private constructor(readonly options: ResolvedOptions, version: ServedVersion, warn: (line: string) => void) {
    this.core = new StubCore(version, options, warn);
    this.version = version;
    this.recorder = this.core.recorder;
    this.followers = new JournalFollowers(this.recorder);
    this.recorder.keep({
      record: ({ request, response }) => {
        if (response.proxy) this.drift.record(request, response);
      },
      reset: () => this.drift.reset(),
    });
    this.outbound = new Outbound(warn, { callbackHosts: options.callbackHosts, loopbackOnly: isLoopbackName(options.host) });
    // Webhooks and callbacks leave only once the answer is out: a receiver never delays the client.
    this.recorder.onAnswered(({ response }) => {
      if (response.deliveries && !response.fault && !response.abandoned) this.outbound.send(response.deliveries);
    });
    const metrics = (this.metrics = new Metrics({
      journalEntries: () => this.recorder.journalSize(),
      deliveryQueue: () => this.outbound.depth,
      stored: async () => (await this.core.state?.sizes()) ?? [],
    }));
    this.recorder.onAnswered(({ response, durationMs }) => metrics.answered(response, durationMs));
    this.outbound.onOutcome((outcome) => metrics.delivered(outcome));
    version.onReloaded = (ok, durationMs) => metrics.reloaded(ok, durationMs);
    this.admin = new StubAdmin({ version, recorder: this.recorder, followers: this.followers, outbound: this.outbound, metrics, state: () => this.core.state, drift: () => this.driftReport(), whole: () => this.whole, shuttingDown: () => this.shutdownBegun, token: tryToken(options) });
    this.proxy = createProxy(options, () => version.current.compiled.secrets, warn);
  }

  /** Loads everything; a broken spec or fixture rejects with a ConfigError naming the file. */
  /** `speaks`: with --workers, what this worker says of loading (see LoadingSpeaker); alone, all of it. */
  static async create(options: ResolvedOptions, link: ClusterLink | null = null, speaks: LoadingSpeaker = 'start and reloads'): Promise<Stub> {
    // Without a log nothing is printed (`log: false` is silence); the document's warnings stay at
    // GET /__admin/warnings. The CLI's --quiet sends them to stderr through `warn`.
    const warn = options.warn ?? (() => {});
    // With --workers every worker loads the same files: one of them says what loading found.
    const quiet = () => {};
    const startWarn = speaks === 'start and reloads' ? warn : quiet;
    const reloadWarn = speaks === 'nothing' ? quiet : warn;
    if (options.bundled) startWarn(`no ${DEFAULTS.spec} in ${process.cwd()}: serving the bundled Plant Store document (${options.spec}); pass --spec (startStub: the spec option) to serve yours`);
    const stub = new Stub(options, await ServedVersion.load(options, reloadWarn, startWarn), warn);
    if (options.stateStore !== undefined) {
      // The Redis client takes a while to load (0.1 s and more): only a stub that uses it pays.
      const { RedisWhole } = await import('./redis-whole.js');
      const instance = instanceName();
      const redis = await RedisWhole.connect({
        url: options.stateStore, journalLimit: options.journalLimit, maxStateBytes: options.maxStateBytes, changeHere: (change) => stub.admin.changeHere(change), warn,
        // The admin page of any instance follows every instance's requests.
        followed: () => stub.followers.followed,
        liveEntry: (entry) => {
          if (entry.instance !== instance) stub.followers.relay(entry);
        },
      });
      stub.whole = redis;
      stub.recorder.nameInstance(instance);
      // Other instances read the journal and coverage from Redis as soon as a client has its answer.
      stub.recorder.recordsMayWait = false;
      // The whole server's journal and coverage live in Redis: each answer is added there too.
      stub.recorder.onAnswered((answered) => redis.record(answered, stub.recorder.entryOf(answered)));
      const sticky = await redis.sticky();
      if (sticky !== null) stub.version.useScenario(sticky);
    } else if (link) {
      stub.whole = new ClusterWhole(link);
      stub.recorder.nameInstance(instanceName());
      link.answerWith((op, arg) => stub.answerPrimary(op, arg));
      stub.shareLiveEntries(link);
    }
    if (options.stateful) await stub.core.openState({ maxBytes: options.maxStateBytes, seedItems: options.seedItems }, serverStateStore(options, stub.version, stub.whole, warn));
    const { webhooks } = stub.version.current.compiled;
    for (const [name, url] of Object.entries(options.webhooks)) {
      if (!webhooks.has(name)) throw new ConfigError('webhooks', `${name}: the document has no such webhook; known: ${[...webhooks.keys()].join(', ') || 'none'}`);
      stub.outbound.setTarget(name, url);
    }
    if (options.watch) stub.version.watch();
    return stub;
  }

  /** Answers a request, never throwing (stub-core.ts). */
  handle(request: PlainRequest): EngineResponse | Promise<EngineResponse> {
    return this.core.handle(request);
  }

  /** --proxy: whether the mock or the real API answers this request, and how it is forwarded. */
  decideProxy(request: PlainRequest): ProxyDecision {
    return decide(this.version.current, request, this.proxy!.refuseInvalid);
  }

  /** With --workers: whether to hand the primary each entry recorded, for other workers' open admin pages. */
  private sharing = false;

  /**
   * With --workers, every worker's admin page follows the whole server's requests: a worker tells
   * the primary when its journal gains or loses its live followers, and while any worker has
   * some, each worker hands the primary every entry it records, to be relayed to them.
   */
  private shareLiveEntries(link: ClusterLink): void {
    const ask = (op: Op, arg: unknown) => link.ask(op, arg).catch(() => undefined);
    this.followers.onFollowed((followed) => void ask(ToPrimary.following, followed).then((sharing) => (this.sharing = sharing === true)));
    void ask(ToPrimary.following, false).then((sharing) => (this.sharing = sharing === true));
    this.recorder.onAnswered((answered) => {
      if (!this.sharing) return;
      const entry = this.recorder.entryOf(answered);
      if (entry) void ask(ToPrimary.liveEntry, stringifyExact(entry, true));
    });
  }

  /** Answers the cluster primary's questions to this worker (its part of the journal and coverage, an admin change). */
  private answerPrimary(op: Op, arg: unknown): unknown {
    switch (op) {
      case ToWorker.journalList:
        return journalPart(this.recorder.requestsPage(arg as JournalFilter));
      case ToWorker.coverageCounts:
        return this.recorder.coverageCounts();
      case ToWorker.driftReport:
        return this.driftReport();
      case ToWorker.metricsJson:
        return this.recorder.settled(() => this.metrics.json()) satisfies Promise<MetricsJson>;
      case ToWorker.change:
        return this.admin.changeHere(arg as AdminChange);
      case ToWorker.share:
        this.sharing = arg === true;
        return true;
      case ToWorker.liveEntry:
        this.followers.relay(JSON.parse(arg as string) as JournalEntry);
        return true;
      default:
        throw new Error(`unknown question ${op}`);
    }
  }

  /** This process's --proxy drift report. */
  driftReport(): DriftReport {
    return this.recorder.settled(() => this.drift.report());
  }

  served(): ServedSummary {
    const { compiled, resources } = this.version.current;
    const operations = compiled.operations.map(({ method, path, operationId }) => ({ method, path, operationId }));
    return { title: compiled.title, operations, stateful: resources ? resourcesSummary(resources) : null, documents: compiled.mounted };
  }

  /** Ends every live journal stream, so open pages never hold a shutdown up. */
  endJournalWatchers(): void {
    this.followers.endAll();
  }

  /** Shutdown has begun: not ready for new work (the server still serves through its drain period). */
  beginShutdown(): void {
    this.shutdownBegun = true;
  }

  close(): void {
    this.version.close();
    this.followers.endAll();
    this.core.state?.flush();
    void this.whole?.close();
    this.outbound.close();
    this.proxy?.close();
  }
}

/** Stubs of a server of several started in this process so far (tests start more than one). */
let started = 0;

/**
 * How an instance names itself in the journal of a server of several: `host:pid` (the host tells
 * a fleet's machines apart, the pid the workers of one), `host:pid/2` for a second one in the same
 * process.
 */
function instanceName(): string {
  started++;
  return `${hostname()}:${process.pid}${started > 1 ? `/${started}` : ''}`;
}

/**
 * The bearer token the page's "Try it" fills in: none needed when any token is accepted; the first
 * --token only where an admin token guards the admin API (else any local page could read it).
 */
function tryToken(options: ResolvedOptions): string | undefined {
  if (options.tokens.length === 0) return undefined;
  return options.adminToken !== undefined ? options.tokens[0] : '<one of the --token values>';
}
