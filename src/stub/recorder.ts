// Recording at one life-cycle point, after each answer is sent: one "answered" event that every
// record subscribes to (as MSW's `request:end`). Here: the journal and its live followers, the
// coverage, the drift report (--proxy), the self-check's warnings and the request log line; the
// stub adds the webhooks and callbacks the answer sends out, and the whole server's records when
// they live outside this process.
import type { ResolvedOptions } from '../config/options.js';
import { formatSelfCheck, requestLineFormatter, type RequestLineFormatter } from '../record/request-log.js';
import { Coverage, type CoverageReport } from '../record/coverage.js';
import { Drift } from '../record/drift.js';
import { Journal, type JournalEntry, type JournalFilter, type JournalPage } from '../record/journal.js';
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
  private readonly followedListeners: Array<(followed: boolean) => void> = [];

  /**
   * Answers sent this event-loop turn whose records wait for the turn's end (`answeredSoon`), as
   * flat quadruples (request, response, duration, time) so that waiting allocates nothing per request.
   */
  private pending: unknown[] = [];
  private spare: unknown[] = [];
  private settleScheduled = false;
  /** When the answer being recorded was sent (ms since the epoch): the journal's time, whenever its record runs. */
  private answeredAt = 0;
  /** Whether records may wait for the turn's end; off while another process reads them as they happen (--state-store). */
  recordsMayWait = true;

  constructor(options: Pick<ResolvedOptions, 'journalLimit' | 'log' | 'logFormat'>, private readonly version: RecordedVersion, warn: (line: string) => void) {
    this.journal = new Journal(options.journalLimit);
    // The journal first: its live followers and the whole server read the entry it has just made.
    this.onAnswered((request, response, durationMs) => this.journal.record(request, response, durationMs, this.answeredAt));
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

  /** The answered event: called once per request, after its answer was sent. Records waiting for the turn's end go first, in order. */
  answered(request: PlainRequest, response: EngineResponse, durationMs: number): void {
    if (this.pending.length > 0) this.settle();
    this.notify(request, response, durationMs, Date.now());
  }

  /**
   * The answered event for a server's answer, run at the end of this event-loop turn (setImmediate)
   * with every other answer of the turn: under load many requests finish per turn, and recording
   * them one after another, away from Node's HTTP code, costs less CPU than recording each between
   * two answers (docs/benchmark.md, "Why the hot path reads as it does"). Whatever reads the
   * records (the journal, coverage, drift, metrics, live followers) calls `settle` first, so no
   * reader sees them late; a client that has its answer can only ask in a later turn.
   */
  answeredSoon(request: PlainRequest, response: EngineResponse, durationMs: number): void {
    if (!this.recordsMayWait) return this.answered(request, response, durationMs);
    this.pending.push(request, response, durationMs, Date.now());
    if (!this.settleScheduled) {
      this.settleScheduled = true;
      setImmediate(this.settleAtTurnEnd);
    }
  }

  private readonly settleAtTurnEnd = (): void => {
    this.settleScheduled = false;
    this.settle();
  };

  /** Runs the answered event of every answer still waiting (answeredSoon), oldest first. */
  settle(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    // Swapped first: a record that reads the journal (the whole server's) settles again, finding nothing.
    this.pending = this.spare;
    for (let at = 0; at < batch.length; at += 4) this.notify(batch[at] as PlainRequest, batch[at + 1] as EngineResponse, batch[at + 2] as number, batch[at + 3] as number);
    batch.length = 0;
    this.spare = batch;
  }

  private notify(request: PlainRequest, response: EngineResponse, durationMs: number, time: number): void {
    this.answeredAt = time;
    for (const listener of this.listeners) listener(request, response, durationMs);
  }

  /** The journal's entry for the request answered last, credentials redacted. */
  latestEntry(): JournalEntry | undefined {
    this.settle();
    return this.journal.latest(this.version.current.compiled.secrets);
  }

  /**
   * Follows the journal live (the admin page's event stream): `entry` runs for each request as it
   * is recorded, `end` when the stub shuts down. Returns the unsubscribe function.
   */
  watchJournal(watcher: JournalWatcher): () => void {
    this.watchers.add(watcher);
    if (this.watchers.size === 1) for (const listener of this.followedListeners) listener(true);
    return () => {
      if (this.watchers.delete(watcher) && this.watchers.size === 0) for (const listener of this.followedListeners) listener(false);
    };
  }

  /** Hears when the journal gains its first live follower (true) and loses its last (false). */
  onFollowed(listener: (followed: boolean) => void): void {
    this.followedListeners.push(listener);
  }

  /** Whether anyone follows the journal live now. */
  get followed(): boolean {
    return this.watchers.size > 0;
  }

  /** An entry another process of the same server recorded, for this process's live followers. */
  relay(entry: JournalEntry): void {
    for (const watcher of this.watchers) watcher.entry(entry);
  }

  /** Ends every live journal stream, so open pages never hold a shutdown up. */
  endJournalWatchers(): void {
    this.settle();
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  /** This process's journal, credentials redacted. */
  requests(filter?: JournalFilter): JournalEntry[] {
    return this.requestsPage(filter).requests;
  }

  /** This process's journal as a page (GET /__admin/requests?limit&offset), credentials redacted. */
  requestsPage(filter?: JournalFilter): JournalPage {
    this.settle();
    return this.journal.page(filter, this.version.current.compiled.secrets);
  }

  /** Empties the journal and resets coverage. */
  reset(): void {
    this.settle();
    this.journal.clear();
    this.coverage.reset();
    this.drift.reset();
  }

  coverageReport(): CoverageReport {
    this.settle();
    const { compiled, scenarios } = this.version.current;
    return this.coverage.report(compiled.operations, scenarios);
  }
}
