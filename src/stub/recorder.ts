// Recording at one life-cycle point, after each answer is sent: one "answered" event that every
// record subscribes to (as MSW's `request:end`). Here: the journal and its live followers, the
// coverage, the drift report (--proxy), the self-check's warnings and the request log line; the
// stub adds the webhooks and callbacks the answer sends out, and the whole server's records when
// they live outside this process.
import type { ResolvedOptions } from '../config/options.js';
import { formatSelfCheck, requestLineFormatter, type RequestLineFormatter } from '../record/request-log.js';
import { Coverage, type CoverageReport } from '../record/coverage.js';
import { Drift } from '../record/drift.js';
import { Journal, type JournalEntry, type JournalFilter } from '../record/journal.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineState } from '../engine/pipeline.js';

export interface JournalWatcher {
  entry(entry: JournalEntry): void;
  end(): void;
}

/** What the recorder reads of the version served (served-version.ts; the fetch handler's in-memory stub). */
export interface RecordedVersion {
  readonly current: Pick<EngineState, 'compiled' | 'scenarios'>;
}

/** Hears of each answered request once its answer was sent. */
export type AnsweredListener = (request: PlainRequest, response: EngineResponse, durationMs: number) => void;

export class Recorder {
  readonly journal: Journal;
  readonly coverage = new Coverage();
  /** --proxy: where the real API and the document disagree. */
  readonly drift = new Drift();
  private readonly listeners: AnsweredListener[] = [];
  private readonly watchers = new Set<JournalWatcher>();

  constructor(options: Pick<ResolvedOptions, 'journalLimit' | 'log' | 'logFormat'>, private readonly version: RecordedVersion, warn: (line: string) => void) {
    this.journal = new Journal(options.journalLimit);
    // The journal first: its live followers and the whole server read the entry it has just made.
    this.onAnswered((request, response, durationMs) => this.journal.record(request, response, durationMs));
    this.onAnswered((_request, response) => this.coverage.record(response));
    this.onAnswered((request, response) => {
      if (response.proxy) this.drift.record(request, response);
    });
    this.onAnswered((request, response) => {
      if (response.selfCheck.length > 0) warn(formatSelfCheck(request, response));
    });
    // One entry, redacted once, for every live follower (the admin page's event streams).
    this.onAnswered(() => {
      if (this.watchers.size === 0) return;
      const entry = this.latestEntry();
      if (entry) for (const watcher of this.watchers) watcher.entry(entry);
    });
    const { log } = options;
    if (log) {
      const formatLine: RequestLineFormatter = requestLineFormatter(options.logFormat);
      this.onAnswered((request, response, durationMs) => log(formatLine(request, response, durationMs)));
    }
  }

  /** Subscribes to the answered event; returns the unsubscribe function. */
  onAnswered(listener: AnsweredListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  /** The answered event: called once per request, after its answer was sent. */
  answered(request: PlainRequest, response: EngineResponse, durationMs: number): void {
    for (const listener of this.listeners) listener(request, response, durationMs);
  }

  /** The journal's entry for the request answered last, credentials redacted. */
  latestEntry(): JournalEntry | undefined {
    return this.journal.latest(this.version.current.compiled.secrets);
  }

  /**
   * Follows the journal live (the admin page's event stream): `entry` runs for each request as it
   * is recorded, `end` when the stub shuts down. Returns the unsubscribe function.
   */
  watchJournal(watcher: JournalWatcher): () => void {
    this.watchers.add(watcher);
    return () => void this.watchers.delete(watcher);
  }

  /** Ends every live journal stream, so open pages never hold a shutdown up. */
  endJournalWatchers(): void {
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  /** This process's journal, credentials redacted. */
  requests(filter?: JournalFilter): JournalEntry[] {
    return this.journal.list(filter, this.version.current.compiled.secrets);
  }

  /** Empties the journal and resets coverage. */
  reset(): void {
    this.journal.clear();
    this.coverage.reset();
    this.drift.reset();
  }

  coverageReport(): CoverageReport {
    const { compiled, scenarios } = this.version.current;
    return this.coverage.report(compiled.operations, scenarios);
  }
}
