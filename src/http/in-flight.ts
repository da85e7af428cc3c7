// Tracks answers the server still owes (delayed ones, held ones), so a graceful shutdown can let
// delayed answers finish and release held sockets instead of waiting forever.
import type { ServerResponse } from 'node:http';

export class InFlight {
  /** Delayed answers not sent yet: their timer and the send it will run. */
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  private readonly held = new Set<ServerResponse>();

  /** Runs `send` after `ms`; a client that goes away cancels it. Never blocks other requests. */
  delay(ms: number, send: () => void, res: ServerResponse): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      send();
    }, ms);
    this.pending.set(timer, send);
    res.on('close', () => {
      if (this.pending.delete(timer)) clearTimeout(timer);
    });
  }

  /** Keeps a response open without answering (the `timeout` fault). */
  hold(res: ServerResponse): void {
    this.held.add(res);
    res.on('close', () => this.held.delete(res));
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
