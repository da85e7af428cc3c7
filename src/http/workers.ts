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
  const warn = (line: string) => void process.stderr.write(`${line}\n`);
  /** Each exiting worker's coverage; a worker that crashed took its hits with it. */
  const coverages: CoverageReport[] = [];
  const drifts: DriftReport[] = [];
  let hub: ClusterHub;
  try {
    hub = new ClusterHub({ stateFile: options.stateFile, journalLimit: options.journalLimit ?? DEFAULTS.journalLimit, maxStateBytes, warn });
  } catch (error) {
    exitWithError(`${options.stateFile}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let announced = false;
  let stopping = false;
  /** 0 after SIGTERM, 1 when the workers kept dying. */
  let exitCode = 0;
  const listening = new Set<number>();
  const deaths: number[] = [];

  /** The worker that says what loading and reloads find, for the whole server (see LoadingSpeaker). */
  let speaker: number | null = null;
  const fork = (speaks: LoadingSpeaker): Worker => {
    const worker = cluster.fork({ [SPEAKER_ENV]: speaks });
    if (speaks !== 'nothing') speaker = worker.id;
    const link = hub.join(worker.id, (message) => worker.send(message));
    worker.on('message', (message: { listening?: string; banner?: string; coverage?: CoverageReport; drift?: DriftReport }) => {
      if (message?.drift !== undefined) drifts.push(message.drift);
      if (message?.coverage !== undefined) return void coverages.push(message.coverage);
      if (message?.listening === undefined) return link.receive(message);
      listening.add(worker.id);
      // A replacement says when it serves: until then the others answer alone.
      if (announced) warn(`worker ${worker.process.pid} serves in its place`);
      if (!announced && listening.size === count) {
        announced = true;
        // The last worker to listen prints the banner for all (they serve the same files), in one
        // write: a reader of the listening line has the rest with it.
        process.stdout.write(message.banner ?? `stub listening on ${message.listening} with ${count} workers\n`);
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    hub.leave(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      if (noWorkerAlive()) finish(exitCode);
      return;
    }
    if (!announced) exitWithError('a worker failed to start (see its message above)');
    const now = Date.now();
    deaths.push(now);
    while (deaths[0] < now - DEATH_WINDOW_MS) deaths.shift();
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (deaths.length > MAX_DEATHS) {
      warn(`worker ${worker.process.pid} ${how}; ${deaths.length} workers died within ${DEATH_WINDOW_MS / 1000} s, so the stub stops (exit code 1) for a supervisor to restart it`);
      stopping = true;
      exitCode = 1;
      process.exitCode = 1; // however the process ends from here, a supervisor sees the failure
      stopAll();
      setTimeout(() => finish(exitCode), STOP_TIMEOUT_MS).unref();
      if (noWorkerAlive()) finish(exitCode);
      return;
    }
    warn(`worker ${worker.process.pid} ${how}; starting another in its place`);
    // The speaker's replacement takes over its reloads (what it finds starting was said already).
    fork(worker.id === speaker ? 'reloads' : 'nothing');
  });

  // node:cluster drops a worker from cluster.workers only once it has both exited and
  // disconnected, in either order: at the last 'exit' the dead worker may still be listed. Ask
  // each worker instead, or the primary waits for an event that never comes and exits 0.
  const noWorkerAlive = () => Object.values(cluster.workers ?? {}).every((worker) => !worker || worker.isDead());
  const stopAll = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  };
  let finishing = false;
  const finish = (code: number) => {
    if (finishing) return;
    finishing = true;
    hub.flush();
    void coverageAtExit(addReports(coverages), addDrift(drifts)).finally(() => process.exit(code));
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    stopAll();
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
    }, (options.drainMs ?? 0) + STOP_TIMEOUT_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (let i = 0; i < count; i++) fork(i === 0 ? 'start and reloads' : 'nothing');
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
