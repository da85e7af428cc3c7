// Recording, at one point after each answer is sent: the journal (and its live followers), the
// coverage, the webhooks and callbacks the answer sends out, the whole server's records when they
// live outside this process, the self-check's warnings and the request log line.
import type { ResolvedOptions } from '../config/options.js';
import { formatSelfCheck, requestLineFormatter, type RequestLineFormatter } from '../record/request-log.js';
import { Coverage, type CoverageReport } from '../record/coverage.js';
import { Drift } from '../record/drift.js';
import { Journal, type JournalEntry, type JournalFilter } from '../record/journal.js';
import type { Outbound } from '../deliver/outbound.js';
import type { StubResponse } from '../engine/stub-response.js';
import type { StubRequest } from '../common/plain-http.js';
import type { ServedVersion } from './served-version.js';
import type { WholeServer } from './whole-server.js';

export interface JournalWatcher {
  entry(entry: JournalEntry): void;
  end(): void;
}

export class Recorder {
  readonly journal: Journal;
  readonly coverage = new Coverage();
  /** --proxy: where the real API and the document disagree. */
  readonly drift = new Drift();
  private readonly watchers = new Set<JournalWatcher>();
  private readonly formatLine: RequestLineFormatter;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly version: ServedVersion,
    private readonly outbound: Outbound,
    private readonly warn: (line: string) => void,
    /** What makes several processes one server; null in a single process. */
    private readonly whole: () => WholeServer | null,
  ) {
    this.formatLine = requestLineFormatter(options.logFormat);
    this.journal = new Journal(options.journalLimit);
  }

  /** Called once per answered request, after it was sent. */
  record(request: StubRequest, response: StubResponse, durationMs: number): void {
    this.journal.record(request, response, durationMs);
    const { secrets } = this.version.current.compiled;
    if (this.watchers.size > 0) {
      const entry = this.journal.latest(secrets);
      if (entry) for (const watcher of this.watchers) watcher.entry(entry);
    }
    this.coverage.record(response);
    if (response.proxy) this.drift.record(request, response);
    // Sent only now, after the answer: a receiver never delays the client.
    if (response.deliveries && !response.fault && !response.abandoned) this.outbound.send(response.deliveries);
    this.whole()?.record?.(this.journal.latest(secrets), response);
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
