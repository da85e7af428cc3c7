// --workers N: one port served by N processes through node:cluster, acting as one server. The
// primary holds what they share (stateful mode's store, --state-file) and relays the admin API's
// questions: a worker asked for the journal or coverage gets every worker's, an admin change
// (sticky scenario, reload, journal reset) reaches every worker. A worker that dies is replaced
// and logged; when they keep dying the primary exits non-zero, so a supervisor restarts the stub.
// At shutdown each worker hands its coverage to the primary as it exits, and the primary writes
// --coverage-out (and the coverage table) once, for the whole server.
import cluster, { type Worker } from 'node:cluster';
import { DEFAULTS, resolveOptions, type StubOptions } from '../config/options.js';
import { addReports, type CoverageReport } from '../record/coverage.js';
import { addDrift, type DriftReport } from '../record/drift.js';
import { ClusterHub } from '../stub/cluster-hub.js';
import { ClusterLink } from '../stub/cluster-link.js';
import { startStub } from './server.js';
import { startBanner } from './start-banner.js';
import type { LoadingSpeaker } from '../stub/stub.js';

/** More deaths than this within DEATH_WINDOW_MS and the primary gives up (exit 1). */
export const MAX_DEATHS = 5;
export const DEATH_WINDOW_MS = 60_000;
/** After SIGTERM, workers that have not finished their 5 s grace by then are killed. */
const STOP_TIMEOUT_MS = 10_000;
/** How the primary tells a worker what it says of loading (the environment of its fork). */
const SPEAKER_ENV = 'PLANT_STORE_STUB_LOADING_SPEAKER';

/** What the primary does with the whole server's coverage (and --proxy's drift) at shutdown: the CLI's --coverage-out and tables. */
export type CoverageAtExit = (report: CoverageReport, drift: DriftReport) => Promise<void>;

export async function runWorkers(count: number, options: StubOptions, exitWithError: (message: string) => never, coverageAtExit: CoverageAtExit): Promise<void> {
  if (cluster.isPrimary) runPrimary(count, options, exitWithError, coverageAtExit);
  else await runWorker(options, count);
}

function runPrimary(count: number, options: StubOptions, exitWithError: (message: string) => never, coverageAtExit: CoverageAtExit): void {
  // Options are checked here before any worker starts: one message, not one per worker.
  const { maxStateBytes } = resolveOptions(options);
  const primary = new Primary(count, options, openHub(options, maxStateBytes, exitWithError), exitWithError, coverageAtExit);
  cluster.on('exit', (worker, code, signal) => primary.workerExited(worker, code, signal));
  process.on('SIGTERM', primary.stop);
  process.on('SIGINT', primary.stop);
  primary.startWorkers();
}

function warn(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** What the workers share (stateful mode's store, --state-file); a state file that cannot be read stops the start. */
function openHub(options: StubOptions, maxStateBytes: number, exitWithError: (message: string) => never): ClusterHub {
  try {
    return new ClusterHub({ stateFile: options.stateFile, journalLimit: options.journalLimit ?? DEFAULTS.journalLimit, maxStateBytes, warn });
  } catch (error) {
    exitWithError(`${options.stateFile}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** One message a worker sends the primary: that it listens (with the banner), its coverage or drift at exit; any other is a question for the hub (cluster-link.ts). */
type WorkerMessage = { listening?: string; banner?: string; coverage?: CoverageReport; drift?: DriftReport };

/** The primary's life: starting the workers, replacing one that dies (or giving up when they keep dying), and stopping them all. */
class Primary {
  /** Each exiting worker's coverage; a worker that crashed took its hits with it. */
  private readonly coverages: CoverageReport[] = [];
  private readonly drifts: DriftReport[] = [];
  private readonly listening = new Set<number>();
  /** When workers died, within the last DEATH_WINDOW_MS. */
  private readonly deaths: number[] = [];
  /** The worker that says what loading and reloads find, for the whole server (see LoadingSpeaker). */
  private speaker: number | null = null;
  private announced = false;
  private stopping = false;
  private finishing = false;
  /** 0 after SIGTERM, 1 when the workers kept dying. */
  private exitCode = 0;

  constructor(
    private readonly count: number,
    private readonly options: StubOptions,
    private readonly hub: ClusterHub,
    private readonly exitWithError: (message: string) => never,
    private readonly coverageAtExit: CoverageAtExit,
  ) {}

  startWorkers(): void {
    for (let i = 0; i < this.count; i++) this.fork(i === 0 ? 'start and reloads' : 'nothing');
  }

  /** SIGTERM or SIGINT: every worker asked to stop, and killed once its drain and grace are over. */
  readonly stop = (): void => {
    if (this.stopping) return;
    this.stopping = true;
    stopAll();
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
    }, (this.options.drainMs ?? 0) + STOP_TIMEOUT_MS).unref();
  };

  /** A worker gone: the last one of a stopping server finishes it; one that dies while serving is replaced, unless they keep dying. */
  workerExited(worker: Worker, code: number, signal: string): void {
    this.hub.leave(worker.id);
    this.listening.delete(worker.id);
    if (this.stopping) {
      if (noWorkerAlive()) this.finish(this.exitCode);
      return;
    }
    if (!this.announced) this.exitWithError('a worker failed to start (see its message above)');
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const died = this.diedLately();
    if (died > MAX_DEATHS) return this.giveUp(`worker ${worker.process.pid} ${how}; ${died} workers died within ${DEATH_WINDOW_MS / 1000} s, so the stub stops (exit code 1) for a supervisor to restart it`);
    warn(`worker ${worker.process.pid} ${how}; starting another in its place`);
    // The speaker's replacement takes over its reloads (what it finds starting was said already).
    this.fork(worker.id === this.speaker ? 'reloads' : 'nothing');
  }

  private fork(speaks: LoadingSpeaker): Worker {
    const worker = cluster.fork({ [SPEAKER_ENV]: speaks });
    if (speaks !== 'nothing') this.speaker = worker.id;
    const link = this.hub.join(worker.id, (message) => worker.send(message));
    worker.on('message', (message: WorkerMessage) => {
      if (message?.drift !== undefined) this.drifts.push(message.drift);
      if (message?.coverage !== undefined) return void this.coverages.push(message.coverage);
      if (message?.listening === undefined) return link.receive(message);
      this.workerListens(worker, message);
    });
    return worker;
  }

  /** A worker serves: once all do, the banner is printed; a replacement says it serves in its place. */
  private workerListens(worker: Worker, message: WorkerMessage): void {
    this.listening.add(worker.id);
    // A replacement says when it serves: until then the others answer alone.
    if (this.announced) warn(`worker ${worker.process.pid} serves in its place`);
    if (!this.announced && this.listening.size === this.count) {
      this.announced = true;
      // The last worker to listen prints the banner for all (they serve the same files), in one
      // write: a reader of the listening line has the rest with it.
      process.stdout.write(message.banner ?? `stub listening on ${message.listening} with ${this.count} workers\n`);
    }
  }

  /** A death counted: how many workers died within DEATH_WINDOW_MS, this one included. */
  private diedLately(): number {
    const now = Date.now();
    this.deaths.push(now);
    while (this.deaths[0] < now - DEATH_WINDOW_MS) this.deaths.shift();
    return this.deaths.length;
  }

  /** The workers keep dying: all are stopped and the primary exits 1. */
  private giveUp(why: string): void {
    warn(why);
    this.stopping = true;
    this.exitCode = 1;
    process.exitCode = 1; // however the process ends from here, a supervisor sees the failure
    stopAll();
    setTimeout(() => this.finish(this.exitCode), STOP_TIMEOUT_MS).unref();
    if (noWorkerAlive()) this.finish(this.exitCode);
  }

  /** Once: the hub's state written, the whole server's coverage handed to the CLI, then exit. */
  private finish(code: number): void {
    if (this.finishing) return;
    this.finishing = true;
    this.hub.flush();
    void this.coverageAtExit(addReports(this.coverages), addDrift(this.drifts)).finally(() => process.exit(code));
  }
}

/**
 * node:cluster drops a worker from cluster.workers only once it has both exited and disconnected,
 * in either order: at the last 'exit' the dead worker may still be listed. Ask each worker instead,
 * or the primary waits for an event that never comes and exits 0.
 */
function noWorkerAlive(): boolean {
  return Object.values(cluster.workers ?? {}).every((worker) => !worker || worker.isDead());
}

function stopAll(): void {
  for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
}

async function runWorker(options: StubOptions, count: number): Promise<void> {
  // The stub answers the primary's questions once it has started (Stub.create).
  const link = new ClusterLink((message) => process.send!(message));
  process.on('message', (message) => link.receive(message));
  process.on('disconnect', () => link.closed());
  // The primary writes the whole server's --coverage-out; a worker only hands over its own hits.
  // One worker speaks for all about loading and reloads (the same files, the same findings), as
  // the primary said when it started this one. Request-time warnings come from every worker.
  const speaks = (process.env[SPEAKER_ENV] ?? 'nothing') as LoadingSpeaker;
  const running = await startStub({ ...options, coverageOut: undefined }, { link, speaks });
  process.send?.({ listening: running.url, banner: startBanner(running, count) });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    // Exit once the message is out: process.exit would drop it from the IPC channel's queue.
    if (process.connected) await new Promise<void>((resolve) => process.send!({ coverage: running.coverage(), drift: running.drift() }, undefined, {}, () => resolve()));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
