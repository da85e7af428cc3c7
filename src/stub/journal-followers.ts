// Following the journal live (the admin page's event streams): each entry handed to every
// follower as it is recorded, redacted once, and entries other processes of the same server
// recorded relayed to them; the server's, since only it has an admin page.
import type { JournalEntry } from '../record/journal.js';
import type { Recorder } from './recorder.js';

export interface JournalWatcher {
  entry(entry: JournalEntry): void;
  end(): void;
}

export class JournalFollowers {
  private readonly watchers = new Set<JournalWatcher>();
  private readonly followedListeners: Array<(followed: boolean) => void> = [];

  constructor(private readonly recorder: Recorder) {
    recorder.onAnswered((answered) => {
      if (this.watchers.size === 0) return;
      const entry = recorder.entryOf(answered);
      if (entry) for (const watcher of this.watchers) watcher.entry(entry);
    });
  }

  /**
   * Follows the journal live: `entry` runs for each request as it is recorded, `end` when the
   * stub shuts down. Returns the unsubscribe function.
   */
  watch(watcher: JournalWatcher): () => void {
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

  /** Ends every live journal stream, the answers still waiting recorded first, so open pages never hold a shutdown up. */
  endAll(): void {
    this.recorder.settled(() => {
      for (const watcher of this.watchers) watcher.end();
      this.watchers.clear();
    });
  }
}
