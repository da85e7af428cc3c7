// createFetchHandler: the stub as a function from a standard Request to a Response, for any
// runtime with fetch (a browser page, a service worker, MSW, Node, Deno, edge workers). It answers
// as the HTTP server answers the same request: same engine, same document, same bytes.
import type { JournalEntry, JournalFilter } from '../record/journal.js';
import type { CoverageReport } from '../record/coverage.js';
import { refusalResponse } from '../engine/refusal.js';
import { routeRefusals } from '../engine/refusals.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import { resolveFetchOptions, type FetchHandlerOptions, type ResolvedFetchOptions } from './fetch-options.js';
import { locate, toPlainRequest } from './fetch-request.js';
import { never, sendsEvents, toResponse, waitFor } from './fetch-response.js';
import { loadValues } from './load-values.js';
import { recordsControl, type SessionControl } from '../stub/stub-control.js';
import { StubCore } from '../stub/stub-core.js';
import { ServedState } from '../stub/served-state.js';
import { inMemoryStore } from '../stub/state-access.js';
import type { AddedScenario } from '../stub/added-scenarios.js';

export interface FetchHandler {
  /**
   * The answer to `request`; `undefined` (with `passthrough`) when no operation of the document
   * is at its URL. Rejects only when the request cannot be had whole: its client aborts it while
   * its answer waits, or its body stream errors (the error of the stream, as fetch would give it).
   */
  (request: Request): Promise<Response | undefined>;
  /** The base URL as given ('' when none), for building request URLs: `${handle.url}/plants`. */
  url: string;
  /** Journal entries, oldest first (as the server's `GET /__admin/requests`). */
  requests(filter?: JournalFilter): JournalEntry[];
  /**
   * Empties the journal, resets coverage, and forgets sticky scenarios, sequence positions, counts,
   * added scenarios and sessions' own stores; `state: true` also puts stateful mode's store back to
   * its seeded start (as the server's `stub.reset`).
   */
  reset(options?: { state?: boolean }): Promise<void>;
  /** Adds a scenario, checked as a fixture's is (throws a ConfigError naming the pointer); returns its name (as the server's `stub.use`). */
  use(scenario: AddedScenario): string;
  removeScenario(name: string): boolean;
  /** The same control scoped to one session (requests sending `session.headers`). */
  session(name: string): SessionControl;
  /** Per operation, each documented status and scenario with its hits (as `GET /__admin/coverage`). */
  coverage(): CoverageReport;
  /** Makes a scenario the default for requests without selection headers (throws if unknown). */
  useScenario(name: string): void;
  clearScenario(): void;
}

/**
 * Opens the document and fixtures and resolves to the handler; a broken document or fixture
 * rejects with a ConfigError naming it (`document: /paths/~1plants/post/...: ...`).
 * @example
 *   const handle = await createFetchHandler({ document: yamlText, seed: 1 });
 *   const response = await handle(new Request('http://localhost/plants', { method: 'POST', ... }));
 */
export async function createFetchHandler(options: FetchHandlerOptions): Promise<FetchHandler> {
  const resolved = resolveFetchOptions(options);
  const stub = await inMemoryStub(resolved);
  const handler = async (request: Request): Promise<Response | undefined> => {
    const started = performance.now();
    // 1. Read: the path under the base URL (from the URL alone: a request let through keeps its
    //    body for whoever handles it next), then the body (bounded) and multipart parts.
    const target = locate(request, resolved.base);
    if (resolved.passthrough && (target === null || !stub.knows(request.method, target.path))) return undefined;
    const plainRequest = target && (await toPlainRequest(request, target, resolved.maxBodyBytes, resolved.base.path));
    // 2. Answer: the engine's pipeline (or the stub's 404 for a URL outside the base URL).
    const seen = plainRequest ?? outside(request);
    const response = plainRequest ? await stub.handle(plainRequest) : refusalResponse(routeRefusals.noOperation(request.method, request.url), null);
    // 3. Deliver: after its delay, or never (the timeout fault); recorded once, as the server does.
    const done = (delivered: EngineResponse) => stub.recorder.answered(seen, delivered, performance.now() - started);
    try {
      if (response.fault === 'timeout') {
        done(response);
        return await never(request.signal);
      }
      await waitFor(response.delayMs, request.signal);
    } catch (reason) {
      if (response.fault !== 'timeout') done({ ...response, abandoned: true });
      throw reason;
    }
    let answer: Response;
    let delivered = response;
    // A stream is journaled once it ends, with the events the client read (as the server does).
    const ended = (sent: string) => done({ ...response, body: sent });
    try {
      answer = toResponse(response, request.method, ended);
    } catch (error) {
      delivered = stub.failed(seen, error);
      answer = toResponse(delivered, request.method);
    }
    if (delivered !== response || !sendsEvents(response, request.method)) done(delivered);
    return answer;
  };
  return Object.assign(handler, { url: resolved.baseUrl, ...recordsControl(stub.recorder, stub.version, stub.stateResets) });
}

/**
 * The core the server's stub is built on (stub-core.ts), assembled from values: no files, no
 * reloads, stateful mode's shared store in memory, a bug's stack reported through `log`.
 */
async function inMemoryStub(options: ResolvedFetchOptions): Promise<StubCore> {
  const served = new ServedState(await loadValues(options), options.warn);
  const stub = new StubCore(served, { journalLimit: options.journalLimit, log: options.log, logFormat: 'text' }, options.warn, options.warn);
  if (options.stateful) await stub.openState({ maxBytes: options.maxStateBytes, seedItems: options.seedItems }, inMemoryStore(options.maxStateBytes));
  return stub;
}

/** A request outside the base URL, journaled as it came. */
function outside(request: Request): PlainRequest {
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname, rawQuery: url.search.slice(1), headers: {}, body: new Uint8Array(0) };
}
