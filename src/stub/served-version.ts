// The version of spec and fixtures being served, and reloading: a reload loads the files beside
// the version serving, which keeps answering until the new one replaces it whole; on failure the
// last good version keeps serving. The sticky scenario lives here too, since a reload keeps it.
import type { ResolvedOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import type { EngineState } from '../engine/pipeline.js';
import { loadState } from './load-state.js';
import { watchFiles, type FileWatch, type WatchTargets } from './watch-files.js';

export class ServedVersion {
  private fileWatch: FileWatch | null = null;
  /** The reload under way (every caller since it began shares its outcome); null when none is. */
  private reloading: Promise<boolean> | null = null;
  /** Reloads asked for so far: a reload under way that is no longer the newest is abandoned. */
  private reloadsAsked = 0;
  private reloadAbort: AbortController | null = null;

  private constructor(
    private readonly options: ResolvedOptions,
    private readonly warn: (line: string) => void,
    private state: EngineState,
    /** The files the spec was last read from (itself and what it reaches by `$ref`): what the watch follows. */
    private specFiles: string[],
  ) {}

  /** Loads everything; a broken spec or fixture rejects with a ConfigError naming the file. */
  static async load(options: ResolvedOptions, warn: (line: string) => void): Promise<ServedVersion> {
    let specFiles: string[] = [];
    const state = await loadState(options, warn, (files) => (specFiles = files));
    return new ServedVersion(options, warn, state, specFiles);
  }

  /** What the pipeline reads now; replaced whole by a reload or a sticky scenario change. */
  get current(): EngineState {
    return this.state;
  }

  /** Reloads whenever the spec, a file it references or the fixtures folder changes. */
  watch(): void {
    this.fileWatch = watchFiles(this.watchTargets(), () => void this.reload());
  }

  /** Makes `name` the scenario for requests without a selection header; false if no operation has it. */
  useScenario(name: string): boolean {
    const known = [...this.state.scenarios.values()].some((scenarios) => scenarios.has(name));
    if (known) this.state = { ...this.state, sticky: name };
    return known;
  }

  clearScenario(): void {
    this.state = { ...this.state, sticky: null };
  }

  /** Every scenario name of every operation, once each. */
  scenarioNames(): string[] {
    return [...new Set([...this.state.scenarios.values()].flatMap((scenarios) => [...scenarios.keys()]))];
  }

  /** Resolves with whether the files as they were when asked (or newer) are served. */
  reload(): Promise<boolean> {
    // The newest wins, and never two at once: a reload asked for while one is under way abandons
    // it (the files changed again, its work is stale) and one more starts when it has stopped.
    this.reloadsAsked++;
    this.reloadAbort?.abort();
    return (this.reloading ??= this.reloadUntilCurrent());
  }

  private async reloadUntilCurrent(): Promise<boolean> {
    for (;;) {
      const asked = this.reloadsAsked;
      const abort = (this.reloadAbort = new AbortController());
      const reloaded = await this.reloadNow(abort.signal);
      if (asked === this.reloadsAsked) {
        this.reloading = this.reloadAbort = null;
        return reloaded;
      }
    }
  }

  private async reloadNow(signal: AbortSignal): Promise<boolean> {
    const started = performance.now();
    try {
      const loaded = await loadState(this.options, this.warn, (files) => (this.specFiles = files), signal);
      // The sticky scenario is decided now, against the current state: a PUT or DELETE of
      // /__admin/scenario made while the files were loading is kept.
      this.state = { ...loaded, sticky: this.keptSticky(loaded) };
      this.warn(`reloaded ${this.options.spec} and ${this.options.fixtures} in ${Math.round(performance.now() - started)} ms`);
      return true;
    } catch (error) {
      if (signal.aborted) return false; // a newer reload takes over (or the stub is closing)
      const message = error instanceof ConfigError ? error.message : `reload failed: ${(error as Error).message}`;
      this.warn(`reload refused, still serving the last good version: ${message}`);
      return false;
    } finally {
      // The $ref'd files may have changed, and a fixtures folder made after the start is watched
      // from here on (the watch also notices one by itself).
      this.fileWatch?.update(this.watchTargets());
    }
  }

  private watchTargets(): WatchTargets {
    return { files: [this.options.spec, ...this.specFiles], folder: this.options.fixtures };
  }

  private keptSticky(loaded: EngineState): string | null {
    const sticky = this.state.sticky;
    if (sticky === null) return null;
    if ([...loaded.scenarios.values()].some((scenarios) => scenarios.has(sticky))) return sticky;
    // A client relying on the sticky scenario suddenly gets the default answer: say why.
    this.warn(`warning: the sticky scenario "${sticky}" is no longer in the fixtures; it was cleared`);
    return null;
  }

  close(): void {
    this.reloadAbort?.abort();
    this.fileWatch?.close();
  }
}
