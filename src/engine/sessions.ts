// What the scripted answers remember between requests, per session (`X-Mock-Session`): where each
// operation's sequence stands, how often each counted scenario has answered, the answers added from
// a test, and a named session's sticky scenario (the default session's is the served state's, which
// every process of a whole server shares). Tests that run in parallel each send their own session
// and never see each other's. Cleared by reset; kept across reloads.
import type { Scenario } from './scenario.js';

/** The session of requests without X-Mock-Session. */
export const DEFAULT_SESSION = 'default';

/** Sessions beyond this many: the one used least recently is forgotten (a client may send any name). */
const MAX_SESSIONS = 1000;

export interface SessionPlay {
  readonly name: string;
  /** A named session's sticky scenario; the default session's lives in the served state. */
  sticky: string | null;
  /** Operation key -> requests its sequence has answered. */
  readonly positions: Map<string, number>;
  /** Operation key and scenario name -> answers the scenario gave (for `times`). */
  readonly uses: Map<string, number>;
  /** Operation key -> requests that drew for chance (the draw's index). */
  readonly draws: Map<string, number>;
  /** Operation key -> scenarios added from a test, newest first. */
  readonly added: Map<string, Scenario[]>;
}

export class Sessions {
  private readonly plays = new Map<string, SessionPlay>();
  /** Draws of the default delay's spread so far: each answer's wait is the next seeded draw. */
  delayDraws = 0;

  /** The session's play, started empty the first time its name is seen. */
  play(name: string): SessionPlay {
    let play = this.plays.get(name);
    // The default session is on every request without the header: no reordering for it.
    if (play && name === DEFAULT_SESSION) return play;
    if (play) {
      // Most recently used last, so the first is the one to forget.
      this.plays.delete(name);
    } else {
      play = { name, sticky: null, positions: new Map(), uses: new Map(), draws: new Map(), added: new Map() };
      if (this.plays.size >= MAX_SESSIONS) this.forgetOne();
    }
    this.plays.set(name, play);
    return play;
  }

  /**
   * Makes room: the least recently used play that a test did not script (no sticky scenario, no
   * added answers; never the default session's), else the least recently used of all but the default.
   */
  private forgetOne(): void {
    let fallback: string | null = null;
    for (const [name, play] of this.plays) {
      if (name === DEFAULT_SESSION) continue;
      fallback ??= name;
      if (play.sticky === null && play.added.size === 0) {
        this.plays.delete(name);
        return;
      }
    }
    if (fallback !== null) this.plays.delete(fallback);
  }

  /** The session's play when it has one; never starts one. */
  peek(name: string): SessionPlay | undefined {
    return this.plays.get(name);
  }

  /** Forgets one session's play, or every session's. */
  clear(name?: string): void {
    if (name === undefined) {
      this.plays.clear();
      this.delayDraws = 0;
    } else this.plays.delete(name);
  }

  names(): string[] {
    return [...this.plays.keys()];
  }
}

/** The key of a scenario's count in `uses`. */
export function useKey(operationKey: string, scenarioName: string): string {
  return `${operationKey}\u0000${scenarioName}`;
}

/** The session a request names, else the default one. */
export function sessionOf(header: string | string[] | undefined): string {
  const name = (Array.isArray(header) ? header[0] : header)?.trim();
  return name ? name : DEFAULT_SESSION;
}
