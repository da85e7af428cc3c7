// Tracks answers the server still owes (delayed ones, held ones), so a graceful shutdown can let
// delayed answers finish and release held sockets instead of waiting forever.
import type { ServerResponse } from 'node:http';

export class InFlight {
  private readonly delayed = new Set<NodeJS.Timeout>();
  private readonly held = new Set<ServerResponse>();
  private readonly pendingSends = new Map<NodeJS.Timeout, () => void>();

  /** Runs `send` after `ms`; a client that goes away cancels it. Never blocks other requests. */
  delay(ms: number, send: () => void, res: ServerResponse): void {
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      this.pendingSends.delete(timer);
      send();
    }, ms);
    this.delayed.add(timer);
    this.pendingSends.set(timer, send);
    res.on('close', () => {
      if (this.delayed.delete(timer)) {
        clearTimeout(timer);
        this.pendingSends.delete(timer);
      }
    });
  }

  /** Keeps a response open without answering (the `timeout` fault). */
  hold(res: ServerResponse): void {
    this.held.add(res);
    res.on('close', () => this.held.delete(res));
  }

  get count(): number {
    return this.delayed.size;
  }

  /** Sends every delayed answer now (the grace period ran out) and drops held sockets. */
  flush(): void {
    for (const [timer, send] of this.pendingSends) {
      clearTimeout(timer);
      send();
    }
    this.pendingSends.clear();
    this.delayed.clear();
    for (const res of this.held) res.socket?.destroy();
    this.held.clear();
  }
}
