// Tracks answers the server still owes (delayed ones, held ones), so a graceful shutdown can let
// delayed answers finish and release held sockets instead of waiting forever, and so no client can
// make the server hold more of them than it can afford.
import type { ServerResponse } from 'node:http';

/** Delayed plus held answers at once; beyond this a request asking for more is refused (429). */
export const MAX_OWED = 10_000;
/** A `timeout` fault holds its socket this long at most, then drops it (still without an answer). */
export const MAX_HOLD_MS = 120_000;

export class InFlight {
  /** Delayed answers not sent yet: their timer and the send it will run. */
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  private readonly held = new Set<ServerResponse>();

  /**
   * Runs `send` after `ms`; a client that goes away cancels it and `abandoned` runs instead.
   * Never blocks other requests.
   */
  delay(ms: number, send: () => void, res: ServerResponse, abandoned: () => void): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      send();
    }, ms);
    this.pending.set(timer, send);
    res.on('close', () => {
      if (!this.pending.delete(timer)) return;
      clearTimeout(timer);
      abandoned();
    });
  }

  /** Keeps a response open without answering (the `timeout` fault). */
  hold(res: ServerResponse): void {
    this.held.add(res);
    const release = setTimeout(() => res.socket?.destroy(), MAX_HOLD_MS);
    release.unref();
    res.on('close', () => {
      clearTimeout(release);
      this.held.delete(res);
    });
  }

  /** True when taking on one more delayed or held answer would pass MAX_OWED. */
  get full(): boolean {
    return this.pending.size + this.held.size >= MAX_OWED;
  }

  /** Sends every delayed answer now (the grace period ran out); true if there were any. */
  sendDelayedNow(): boolean {
    const any = this.pending.size > 0;
    for (const [timer, send] of this.pending) {
      clearTimeout(timer);
      send();
    }
    this.pending.clear();
    return any;
  }

  /** Drops the sockets held without an answer. */
  releaseHeld(): void {
    for (const res of this.held) res.socket?.destroy();
    this.held.clear();
  }
}
