// --workers N: what the cluster primary keeps so the workers act as one server. It holds stateful
// mode's store (and writes --state-file), and answers a worker that asks for the whole server's
// journal or coverage, or for an admin change on every worker, by asking each worker in turn.
// Each worker keeps recording its own requests: the hot path sends nothing over IPC.
import { readFileSync } from 'node:fs';
import type { StateChange, StateQuestion } from '../engine/engine-types.js';
import { ClusterLink, ToPrimary, ToWorker, type Op, type Send } from './cluster-link.js';
import { fromEntries, type StateEntries } from './state-store.js';
import { LocalStateStore } from './local-state-store.js';
import { StateFileWriter } from './state-file.js';
import { addCounts, type CoverageCounts } from '../record/coverage.js';
import { addDrift, type DriftReport } from '../record/drift.js';
import { metricsText, type MetricsJson } from '../record/metrics.js';
import type { JournalFilter } from '../record/journal.js';
import { filterForWorkers, mergeJournalParts, type JournalPart } from './cluster-journal.js';

export interface HubOptions {
  stateFile: string | undefined;
  journalLimit: number;
  /** --max-state: the most bytes of stored items the primary's store keeps. */
  maxStateBytes: number;
  warn: (line: string) => void;
}

export class ClusterHub {
  private readonly store: LocalStateStore;
  private readonly file: StateFileWriter | null;
  /** The state file's text until a worker has checked it against the document and stored it. */
  private unchecked: string | null;
  private readonly links = new Map<number, ClusterLink>();
  /** Workers whose journal is followed live (their admin page is open). */
  private readonly followers = new Set<number>();

  constructor(private readonly options: HubOptions) {
    this.store = new LocalStateStore(() => this.file?.changed(), options.maxStateBytes);
    this.file = options.stateFile === undefined ? null : new StateFileWriter(options.stateFile, () => this.store.dump(), options.warn);
    this.unchecked = options.stateFile === undefined ? null : readIfThere(options.stateFile);
  }

  /** A new worker: its link (feed it the worker's messages with `receive`). */
  join(workerId: number, send: Send): ClusterLink {
    const link = new ClusterLink(send, (op, arg) => this.answerWorker(workerId, op, arg));
    this.links.set(workerId, link);
    return link;
  }

  leave(workerId: number): void {
    this.links.get(workerId)?.closed();
    this.links.delete(workerId);
    if (this.followers.delete(workerId)) this.tellSharing();
  }

  /** Writes a waiting --state-file change now (at shutdown). */
  flush(): void {
    this.file?.flush();
  }

  /** The live journal's questions need to know who asks; every other question is the same from any worker. */
  private answerWorker(workerId: number, op: Op, arg: unknown): unknown {
    if (op === ToPrimary.following) {
      const before = this.followers.size > 0;
      if (arg === true) this.followers.add(workerId);
      else this.followers.delete(workerId);
      if (before !== this.followers.size > 0) this.tellSharing();
      return this.followers.size > 0;
    }
    if (op === ToPrimary.liveEntry) {
      // Relayed to the followers but the worker that recorded it (its page has it already); no one waits on it.
      for (const follower of this.followers) if (follower !== workerId) this.links.get(follower)?.ask(ToWorker.liveEntry, arg).catch(() => {});
      return true;
    }
    return this.answer(op, arg);
  }

  /** Tells every worker whether to hand over its entries: only while some journal is followed. */
  private tellSharing(): void {
    for (const link of this.links.values()) link.ask(ToWorker.share, this.followers.size > 0).catch(() => {});
  }

  private async answer(op: Op, arg: unknown): Promise<unknown> {
    switch (op) {
      case ToPrimary.stateInit:
        return this.unchecked;
      case ToPrimary.stateAnswer:
        // A new counted id is handed out once: two workers creating at once never draw the same.
        return this.store.answer(arg as StateQuestion, true);
      case ToPrimary.stateApply:
        return this.store.apply(arg as StateChange);
      case ToPrimary.stateDump:
        return [...this.store.dump()].map(([name, items]) => [name, [...items]]);
      case ToPrimary.stateSizes:
        return this.store.sizes();
      case ToPrimary.stateReplace: {
        const { entries, initial, only } = arg as { entries: StateEntries; initial?: boolean; only?: string[] };
        // Every starting worker checks the file; the first to store it wins, later ones change nothing.
        if (initial && this.unchecked === null) return false;
        if (initial) this.unchecked = null;
        this.store.replace(fromEntries(entries), only);
        return true;
      }
      case ToPrimary.stateSeed:
        this.store.seed(fromEntries(arg as StateEntries));
        return true;
      case ToPrimary.journal:
        return this.journal(arg as JournalFilter);
      case ToPrimary.coverage:
        return addCounts((await this.fromEach(ToWorker.coverageCounts)) as CoverageCounts[]);
      case ToPrimary.drift:
        return addDrift((await this.fromEach(ToWorker.driftReport)) as DriftReport[]);
      case ToPrimary.metrics:
        return metricsText((await this.fromEach(ToWorker.metricsJson)) as MetricsJson[]);
      case ToPrimary.everywhere:
        return this.fromEach(ToWorker.change, arg);
      default:
        throw new Error(`unknown question ${op}`);
    }
  }

  /** Every worker's answer; a worker that cannot answer (it just died) is left out. */
  private async fromEach(op: Op, arg?: unknown): Promise<unknown[]> {
    const answers = await Promise.allSettled([...this.links.values()].map((link) => link.ask(op, arg)));
    return answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
  }

  /** The workers' journals as one listing's JSON text (cluster-journal.ts). */
  private async journal(filter: JournalFilter): Promise<string> {
    const parts = (await this.fromEach(ToWorker.journalList, filterForWorkers(filter))) as JournalPart[];
    return mergeJournalParts(parts, filter, this.options.journalLimit);
  }
}

function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
