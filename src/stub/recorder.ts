// Recording at one life-cycle point, after each answer is sent: one "answered" event that every
// record subscribes to (as MSW's `request:end`), each handed the same record of the answer
// (record/answered.ts). Here: the journal, the coverage, the self-check's warnings and the request
// log line, and the records a host adds with `keep` (the server's --proxy drift report); the
// server's stub adds the live followers (journal-followers.ts), the webhooks and callbacks the
// answer sends out, the metrics, and the whole server's records when they live outside this process. The records are kept here and read only through this class, which brings
// them up to date first: no caller has to know that recording waits for the turn's end.
import type { ResolvedOptions } from '../config/options.js';
import { formatSelfCheck, requestLineFormatter, type RequestLineFormatter } from '../record/request-log.js';
import { Coverage, type CoverageCounts, type CoverageReport } from '../record/coverage.js';
import { Journal, type JournalEntry, type JournalFilter, type JournalPage } from '../record/journal.js';
import type { Answered, AnsweredListener } from '../record/answered.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineState } from '../engine/pipeline.js';

export type { Answered, AnsweredListener } from '../record/answered.js';

/** What the recorder reads of the version served (served-state.ts, served-version.ts). */
export interface RecordedVersion {
  readonly current: Pick<EngineState, 'compiled' | 'scenarios'>;
}

/** A record a host keeps beside the journal and coverage. */
export interface KeptRecord {
  record(answered: Answered): void;
  reset(): void;
}

export class Recorder {
  private readonly journal: Journal;
  private readonly coverage = new Coverage();
  /** Records a host adds beside the journal and coverage (the server's --proxy drift), reset with them. */
  private readonly kept: KeptRecord[] = [];
  private readonly listeners: AnsweredListener[] = [];
  /** Listeners that threw once: said in the log the first time, not on every answer after. */
  private readonly failed = new WeakSet<AnsweredListener>();

  /** Answers sent this event-loop turn whose records wait for the turn's end (`answeredSoon`). */
  private pending: Answered[] = [];
  private spare: Answered[] = [];
  private settleScheduled = false;
  /** The journal entry made last from a record, for every reader of the same record (followers, the whole server). */
  private described: Answered | null = null;
  private describedEntry: JournalEntry | undefined;
  /** Whether records may wait for the turn's end; off while another process reads them as they happen (--state-store). */
  recordsMayWait = true;

  constructor(options: Pick<ResolvedOptions, 'journalLimit' | 'log' | 'logFormat'>, private readonly version: RecordedVersion, private readonly warn: (line: string) => void) {
    this.journal = new Journal(options.journalLimit);
    this.onAnswered((answered) => this.journal.record(answered));
    this.onAnswered(({ response }) => this.coverage.record(response));
    this.onAnswered(({ request, response }) => {
      if (response.selfCheck.length > 0) warn(formatSelfCheck(request, response));
    });
    const { log } = options;
    if (log) {
      const formatLine: RequestLineFormatter = requestLineFormatter(options.logFormat);
      this.onAnswered(({ request, response, durationMs }) => log(formatLine(request, response, durationMs)));
    }
  }

  /** Keeps one more record of every answer, emptied by `reset` as the journal and coverage are. */
  keep(record: KeptRecord): void {
    this.kept.push(record);
    this.onAnswered((answered) => record.record(answered));
  }

  /** Subscribes to the answered event; returns the unsubscribe function. Listeners hear each answer in no promised order. */
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
    this.notify({ request, response, durationMs, time: Date.now() });
  }

  /**
   * The answered event for a server's answer, run at the end of this event-loop turn (setImmediate)
   * with every other answer of the turn: under load many requests finish per turn, and recording
   * them one after another, away from Node's HTTP code, costs less CPU than recording each between
   * two answers (docs/benchmark.md, "Why the hot path reads as it does"). Every read of the
   * records below settles them first, so no reader sees them late; a client that has its answer
   * can only ask in a later turn.
   */
  answeredSoon(request: PlainRequest, response: EngineResponse, durationMs: number): void {
    if (!this.recordsMayWait) return this.answered(request, response, durationMs);
    this.pending.push({ request, response, durationMs, time: Date.now() });
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
  private settle(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    // Swapped first: a listener that reads the records settles again, finding nothing.
    this.pending = this.spare;
    for (let at = 0; at < batch.length; at++) this.notify(batch[at]);
    batch.length = 0;
    this.spare = batch;
  }

  /**
   * Hands the record to every listener. One that throws (a `log` function given to startStub, a
   * record's bug) loses its own part of this answer only: the others still record it, and the
   * answers after it are recorded too.
   */
  private notify(answered: Answered): void {
    for (const listener of this.listeners) {
      try {
        listener(answered);
      } catch (error) {
        this.listenerFailed(listener, error);
      }
    }
  }

  private listenerFailed(listener: AnsweredListener, error: unknown): void {
    if (this.failed.has(listener)) return;
    this.failed.add(listener);
    const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
    try {
      this.warn(`warning: recording an answer failed in one of its records, which skips each answer it fails on (said once; the journal and the others keep them): ${why}`);
    } catch {
      // A warn that throws too has nowhere left to say it.
    }
  }

  /**
   * The journal entry of an answered request, credentials redacted, made from the record itself
   * (not read back from the journal, so it does not matter which listener ran first); made once
   * for every reader of the same record. Undefined when the journal keeps nothing.
   */
  entryOf(answered: Answered): JournalEntry | undefined {
    if (answered !== this.described) {
      this.describedEntry = this.journal.entryOf(answered, this.version.current.compiled.secrets);
      this.described = answered;
    }
    return this.describedEntry;
  }

  /** With --workers or --state-store: the process's name on each of its journal entries (`host:pid`). */
  nameInstance(instance: string): void {
    this.journal.instance = instance;
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

  /** How many entries this process's journal holds. */
  journalSize(): number {
    this.settle();
    return this.journal.size;
  }

  /** Empties the journal and resets coverage. */
  reset(): void {
    this.settle();
    this.journal.clear();
    this.coverage.reset();
    for (const record of this.kept) record.reset();
  }

  coverageReport(): CoverageReport {
    this.settle();
    const { compiled, scenarios } = this.version.current;
    return this.coverage.report(compiled.operations, scenarios);
  }

  /** This process's coverage as plain rows, for the whole server's (--workers). */
  coverageCounts(): CoverageCounts {
    this.settle();
    return this.coverage.counts();
  }

  /**
   * Reads a record kept outside this class that listens to the answered event (the metrics) once
   * every answer still waiting is in it.
   */
  settled<T>(read: () => T): T {
    this.settle();
    return read();
  }
}
