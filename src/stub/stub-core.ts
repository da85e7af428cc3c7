// The stub every host assembles, needing nothing of Node: what is served (served-state.ts, or the
// server's served-version.ts with its files and reloads), the recorder, stateful mode's access to
// a store (state-access.ts: the shared store the host opens, and sessions' own stores), and
// `handle`, which answers a request with the one catch around it. The server's Stub puts Node's
// providers around it (files, --state-file, --workers, Redis, webhooks, metrics, --proxy, the
// admin API); the fetch handler assembles it from values.
import type { ResolvedOptions } from '../config/options.js';
import { handleRequest } from '../engine/pipeline.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { PlainRequest } from '../common/plain-http.js';
import { failedAnswer, type ReportBug } from './failed-answer.js';
import { Recorder } from './recorder.js';
import type { ServedState } from './served-state.js';
import { StateAccess, type StateSettings, type StoreProvider } from './state-access.js';

/** What the recorder is told: how many journal entries to keep, and where request lines go. */
export type RecordSettings = Pick<ResolvedOptions, 'journalLimit' | 'log' | 'logFormat'>;

/** What stateful mode's store does at a reset, where there is one. */
export interface StateResets {
  /** Puts the store back to its seeded start (sessions' own stores included). */
  all(): Promise<void>;
  /** Forgets a session's own store, or every session's. */
  sessions(session?: string): void;
}

export class StubCore<Served extends ServedState = ServedState> {
  /** The journal, coverage, self-check warnings and log lines; its answered event is called once per answer. */
  readonly recorder: Recorder;
  /** Stateful mode's store; null when stateful mode is off. */
  state: StateAccess | null = null;

  /** `reportBug`: where the stack of a bug goes (the server's stderr, the fetch handler's `log`). */
  constructor(readonly version: Served, records: RecordSettings, warn: (line: string) => void, private readonly reportBug?: ReportBug) {
    this.recorder = new Recorder(records, version, warn);
  }

  /** Stateful mode from now on, with the shared store the host opens. */
  async openState(settings: StateSettings, provide: StoreProvider): Promise<void> {
    this.state = await StateAccess.open(this.version, settings, this.failed, provide);
  }

  /**
   * Answers a request: the pipeline, everything it needs loaded and compiled before the first
   * request; in stateful mode the stored resources take part. Never throws nor rejects: whatever
   * answering throws is the one catch's answer.
   */
  handle(request: PlainRequest): EngineResponse | Promise<EngineResponse> {
    try {
      const answer = this.state === null ? handleRequest(this.version.current, request) : this.state.handle(request);
      return answer instanceof Promise ? answer.catch((error: unknown) => this.failed(request, error, null)) : answer;
    } catch (error) {
      return this.failed(request, error, null);
    }
  }

  /**
   * The one catch: a store in another process that did not answer is a 503 in plain words,
   * anything else a bug, a 500 holding nothing of it, its stack reported (failed-answer.ts).
   */
  readonly failed = (request: PlainRequest, error: unknown, operation: CompiledOperation | null = null): EngineResponse => failedAnswer(request, error, operation, this.reportBug);

  /** Whether any operation's path matches the request (a method it lacks is still the API's: 405). */
  knows(method: string, path: string): boolean {
    return this.version.current.compiled.routes.match(method, path).kind !== 'not-found';
  }

  /** What a reset does to stateful mode's stores (nothing when it is off). */
  readonly stateResets: StateResets = {
    all: async () => {
      await this.state?.resetAll();
    },
    sessions: (session) => this.state?.forgetSessions(session),
  };
}
