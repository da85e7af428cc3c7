// The default server: node:http in front, API paths straight to the engine adapter, /__admin to
// the Express app. Shutdown is graceful: not ready, serve on for the drain period, stop accepting,
// let owed answers finish within a grace period, then write the coverage report.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolveOptions, type ResolvedOptions, type StubOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import { Stub, type LoadingSpeaker } from '../stub/stub.js';
import { controlOf, type StubControl } from '../stub/stub-control.js';
import type { ClusterLink } from '../stub/cluster-link.js';
import type { CoverageReport } from '../record/coverage.js';
import { InFlight } from './in-flight.js';
import { serveRequest, toOriginForm, type ServeSettings } from './serve-request.js';
import { handleClientError, MAX_HEADER_LINES, refuseConnect, tooManyHeaders } from './client-error.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';

/**
 * The running server: the stub's controls (StubControl: journal, coverage, drift, warnings, sticky
 * scenario, what is served) on the value itself, plus where it listens and a graceful close.
 */
export interface RunningStub extends Omit<StubControl, 'close'> {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Whether /__admin is served (off only in Prism mode bound beyond loopback without an admin token). */
  adminApi: boolean;
  /** The same controls on their own, as `createStubApp()` hands them out (`app.stub`). */
  stub: StubControl;
  server: Server;
  /**
   * Turns GET /__admin/ready to 503, keeps serving for `drainMs`, then stops accepting, lets
   * in-flight answers finish (up to `graceMs`) and writes --coverage-out.
   */
  close(graceMs?: number): Promise<void>;
}

/** The admin app failed to load (a broken install): say so instead of leaving the request hanging. */
function adminUnavailable(res: ServerResponse, error: unknown): void {
  process.stderr.write(`the admin API could not be loaded: ${(error as Error).message}\n`);
  sendProblem(res, adminRefusals.adminUnavailable());
}

/** Writes --coverage-out. The report is never lost: if its file cannot be written at shutdown, it goes to stderr. */
export async function writeCoverage(file: string, coverage: CoverageReport): Promise<void> {
  const report = JSON.stringify(coverage, null, 2) + '\n';
  try {
    await writeFile(file, report);
  } catch (error) {
    process.stderr.write(`could not write the coverage report to ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); here it is:\n${report}`);
  }
}

/** What `--workers` adds to a worker's stub; not part of the public API. */
export interface WorkerInternals {
  /** The line to the cluster primary that makes the workers one server. */
  link?: ClusterLink;
  /** What loading and reloading say is said by one worker for the whole server; the others keep quiet about it. */
  speaks?: LoadingSpeaker;
}

/**
 * Starts the stub and resolves once it listens.
 * @example
 *   const stub = await startStub({ spec: 'openapi.yaml', port: 0 });
 *   await fetch(`${stub.url}/plants`, { ... });
 *   await stub.close();
 */
export async function startStub(options: StubOptions = {}, internals: WorkerInternals = {}): Promise<RunningStub> {
  // 1. The options checked, and the stub loaded: the document, fixtures, stateful mode's store.
  const resolved = resolveOptions(options);
  const stub = await Stub.create(resolved, internals.link ?? null, internals.speaks);
  // 2. node:http in front: API paths straight to the engine adapter, /__admin to the Express app.
  const inFlight = new InFlight();
  const draining = { now: false };
  const server = createApiServer(resolved, routeRequests(stub, resolved, inFlight, draining));
  // 3. Listening, or a start refused in words for the port or host.
  await listen(server, resolved, stub);
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  // 4. What the caller holds: the stub's controls, where it listens, a graceful close.
  const close = gracefulClose({ server, stub, inFlight, resolved, draining });
  const control = controlOf(stub);
  return { ...control, url: `http://${host}:${port}`, port, adminApi: resolved.adminApi, stub: control, server, close };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Each request to its handler: /__admin to the admin app (unless it is off), every other path to the engine adapter. */
function routeRequests(stub: Stub, resolved: ResolvedOptions, inFlight: InFlight, draining: { now: boolean }): Handler {
  const admin = adminOnFirstUse(stub, resolved, inFlight);
  const settings: ServeSettings = { maxBodyBytes: resolved.maxBodyBytes, cors: resolved.cors, inFlight };
  return (req: IncomingMessage, res: ServerResponse): void => {
    // From shutdown on: every answer closes its connection, so keep-alive clients reconnect elsewhere.
    if (draining.now) res.setHeader('connection', 'close');
    // Node keeps the first MAX_HEADER_LINES header lines and drops the rest without a word; a
    // request that reached the limit may have lost some (a late Content-Length), so it is refused.
    if (req.rawHeaders.length >= 2 * MAX_HEADER_LINES) return tooManyHeaders(res);
    // With the admin API off, /__admin is a path like any other (404 unless the document has it).
    if (toOriginForm(req).startsWith('/__admin') && resolved.adminApi) admin(req, res);
    else serveRequest(stub, req, res, settings);
  };
}

/**
 * The admin app, loaded on the first admin request. Express serves only /__admin here, and
 * loading it is a noticeable wait of the main thread (docs/benchmark.md): done at start it would
 * delay the API's first answer by as much. The first admin request waits for it; later ones are served synchronously
 * like the API.
 */
function adminOnFirstUse(stub: Stub, resolved: ResolvedOptions, inFlight: InFlight): Handler {
  let loaded: Promise<void> | null = null;
  const load = () => (loaded ??= import('./express-app.js').then(
    ({ buildApp }) => void (admin = buildApp(stub, resolved, inFlight)),
    (error: unknown) => void (admin = (_req, res) => adminUnavailable(res, error)),
  ));
  let admin: Handler = (req, res) => void load().then(() => admin(req, res));
  return (req, res) => admin(req, res);
}

/** The node:http server, its limits set, refusing what never reaches a handler (broken requests, CONNECT). */
function createApiServer(resolved: ResolvedOptions, dispatch: Handler): Server {
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }, dispatch);
  // `Expect: 100-continue` with a body over the limit gets its 413 at once, never a 100 Continue
  // inviting the client to send what will be refused.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers['content-length']) > resolved.maxBodyBytes)) res.writeContinue();
    dispatch(req, res);
  });
  server.maxHeadersCount = MAX_HEADER_LINES;
  server.on('clientError', handleClientError);
  server.on('connect', refuseConnect);
  return server;
}

/** Resolves once the server listens; a port taken or refused, or a host not of this machine, rejects with a ConfigError saying so. */
function listen(server: Server, resolved: ResolvedOptions, stub: Stub): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      stub.close();
      reject(error.code === 'EADDRINUSE' ? new ConfigError(`port ${resolved.port}`, `already in use on ${resolved.host}; pick another with --port`)
        : error.code === 'EACCES' ? new ConfigError(`port ${resolved.port}`, 'permission denied; pick a port above 1023')
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' ? new ConfigError(`host ${resolved.host}`, 'is not an address of this machine')
        : error);
    });
    server.listen(resolved.port, resolved.host, () => resolve());
  });
}

interface Running {
  server: Server;
  stub: Stub;
  inFlight: InFlight;
  resolved: ResolvedOptions;
  draining: { now: boolean };
}

/** RunningStub's close: once, however often it is called. */
function gracefulClose({ server, stub, inFlight, resolved, draining }: Running): (graceMs?: number) => Promise<void> {
  let closing: Promise<void> | null = null;
  return (graceMs = 5_000) => (closing ??= (async () => {
    // Not ready from now on; keep serving what arrives for the drain period, so a load balancer
    // polling GET /__admin/ready stops sending here before the port closes.
    stub.beginShutdown();
    draining.now = true;
    if (resolved.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, resolved.drainMs));
    // Stop accepting. A connection is idle once its answer is out, so closing idle connections
    // until none is left waits for exactly the requests still owed, without per-request counting.
    const allClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    stub.endJournalWatchers(); // open admin pages' event streams would otherwise hold the grace period
    inFlight.releaseHeld(); // `timeout` faults would never be answered
    const sweep = setInterval(() => server.closeIdleConnections(), 20);
    server.closeIdleConnections();
    const graceOver = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([allClosed, graceOver]);
    // Out of time: send what is still delayed now, give it a moment to leave, then hang up.
    if (inFlight.sendDelayedNow()) await new Promise((resolve) => setTimeout(resolve, 50));
    clearInterval(sweep);
    server.closeAllConnections();
    stub.close();
    if (resolved.coverageOut) await writeCoverage(resolved.coverageOut, stub.recorder.coverageReport());
  })());
}
