// --workers N: the line between one worker and the cluster primary, over node:cluster's IPC
// channel. A worker asks the primary (for the shared state, for the whole server's journal and
// coverage, to change every worker at once), and the primary asks each worker (for its part of the
// journal and coverage, to apply an admin change). Each question carries an id; its answer names it.
// A question that fails is a StoreUnavailable: the other process did not answer, in plain words.
import { StoreUnavailable } from './store-unavailable.js';

/** What a worker asks the cluster primary. */
export const ToPrimary = {
  /** The --state-file text the primary read, until a worker has checked it against the document. */
  stateInit: 'state.init',
  /** The parts of the state one request needs (a StateQuestion). */
  stateAnswer: 'state.answer',
  stateApply: 'state.apply',
  /** Every item (GET /__admin/state), and each resource's size (the metrics). */
  stateDump: 'state.dump',
  stateSizes: 'state.sizes',
  stateReplace: 'state.replace',
  stateSeed: 'state.seed',
  /** The whole server's journal: the primary asks every worker for its part. */
  journal: 'journal',
  coverage: 'coverage',
  /** --proxy's drift report: every worker's added up. */
  drift: 'drift',
  /** An admin change made in every worker. */
  everywhere: 'everywhere',
  /** The whole server's metrics: every worker's added up, as text. */
  metrics: 'metrics',
  /** Whether this worker's journal is followed live (its admin page is open); answered whether any worker's is. */
  following: 'following',
  /** A journal entry (JSON text) this worker recorded while some worker's journal is followed. */
  liveEntry: 'live.entry',
} as const;

/** What the cluster primary asks each worker. */
export const ToWorker = {
  journalList: 'journal.list',
  coverageCounts: 'coverage.counts',
  driftReport: 'drift.report',
  metricsJson: 'metrics.json',
  /** Make an admin change in this worker. */
  change: 'do',
  /** Whether to hand the primary each entry recorded (some worker's journal is followed live). */
  share: 'live.share',
  /** Another worker's journal entry (JSON text), for this worker's live followers. */
  liveEntry: 'live.relay',
} as const;

/** The op code of a question, as sent over the IPC channel. */
export type Op = (typeof ToPrimary)[keyof typeof ToPrimary] | (typeof ToWorker)[keyof typeof ToWorker];

/** What one side asks the other; `arg` is plain JSON. */
export interface Question {
  stub: 'ask';
  id: number;
  op: Op;
  arg?: unknown;
}

export interface Answer {
  stub: 'answer';
  id: number;
  result?: unknown;
  error?: string;
}

/** Sends one message to the other side (process.send in a worker, worker.send in the primary). */
export type Send = (message: Question | Answer) => void;
/** Answers a question; may be async. */
export type Responder = (op: Op, arg: unknown) => unknown;

/** How long a question may wait for its answer before it fails (a worker that died mid-question). */
const ANSWER_TIMEOUT_MS = 10_000;

export function isClusterMessage(message: unknown): message is Question | Answer {
  const marker = (message as { stub?: unknown } | null)?.stub;
  return marker === 'ask' || marker === 'answer';
}

/**
 * What the asking side is told when answering failed here: an outage in its own plain words; a
 * bug's message never leaves this process (it may hold internals), its stack is logged here.
 */
function answerFailed(op: string, error: unknown): string {
  if (error instanceof StoreUnavailable) return error.message;
  process.stderr.write(`internal error answering ${op} for another process: ${(error as Error)?.stack ?? String(error)}\n`);
  return `the other process failed to answer ${op}; its log says why`;
}

function notYet(): never {
  throw new StoreUnavailable('this worker is still starting');
}

/** One side of the conversation: asks questions, answers the other side's. */
export class ClusterLink {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  /** `respond` may be set later (answerWith): a worker's link exists before its stub can answer. */
  constructor(private readonly send: Send, private respond: Responder = notYet) {}

  /** Answers the other side's questions with `respond` from now on. */
  answerWith(respond: Responder): void {
    this.respond = respond;
  }

  ask(op: Op, arg?: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new StoreUnavailable(`no answer to ${op} within ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve, reject, timer });
      try {
        this.send({ stub: 'ask', id, op, arg });
      } catch (error) {
        clearTimeout(timer);
        this.waiting.delete(id);
        reject(new StoreUnavailable(`the other process cannot be reached (${(error as NodeJS.ErrnoException).code ?? 'its channel is closed'})`));
      }
    });
  }

  /** Feeds a message from the other side in; anything that is not ours is ignored. */
  receive(message: unknown): void {
    if (!isClusterMessage(message)) return;
    if (message.stub === 'answer') {
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      clearTimeout(waiter.timer);
      // The other side sends plain words only (answerFailed): said as they are.
      if (message.error !== undefined) waiter.reject(new StoreUnavailable(message.error));
      else waiter.resolve(message.result);
      return;
    }
    const { id, op, arg } = message;
    Promise.resolve()
      .then(() => this.respond(op, arg))
      .then(
        (result) => this.trySend({ stub: 'answer', id, result }),
        (error: unknown) => this.trySend({ stub: 'answer', id, error: answerFailed(op, error) }),
      );
  }

  /** The other side went away: every open question fails now instead of at its timeout. */
  closed(): void {
    for (const [id, waiter] of this.waiting) {
      clearTimeout(waiter.timer);
      waiter.reject(new StoreUnavailable('the other process is gone'));
      this.waiting.delete(id);
    }
  }

  private trySend(message: Answer): void {
    try {
      this.send(message);
    } catch {
      // The asker is gone; nobody waits for this answer.
    }
  }
}
