// The version of spec and fixtures being served from files, and reloading: a reload loads the
// files beside the version serving, which keeps answering until the new one replaces it whole; on
// failure the last good version keeps serving. The state and its sticky scenario are
// served-state.ts's, shared with the core the fetch handler assembles (stub-core.ts).
import type { ResolvedOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import type { EngineState } from '../engine/pipeline.js';
import { loadState } from './load-state.js';
import { ServedState } from './served-state.js';
import { isRemoteDocument } from '../openapi/download-document.js';
import { watchFiles, type FileWatch, type WatchTargets } from './watch-files.js';
import { mountedSource } from '../config/mounted-sources.js';

export class ServedVersion extends ServedState {
  private fileWatch: FileWatch | null = null;
  /** The reload under way (every caller since it began shares its outcome); null when none is. */
  private reloading: Promise<boolean> | null = null;
  /** Reloads asked for so far: a reload under way that is no longer the newest is abandoned. */
  private reloadsAsked = 0;
  private reloadAbort: AbortController | null = null;
  /** Hears of each reload that ran to its end, done or refused, and how long it took (the metrics). */
  onReloaded: (ok: boolean, durationMs: number) => void = () => {};

  private constructor(
    private readonly options: ResolvedOptions,
    warn: (line: string) => void,
    state: EngineState,
    /** The files the spec was last read from (itself and what it reaches by `$ref`): what the watch follows. */
    private specFiles: string[],
  ) {
    super(state, warn);
  }

  /** Loads everything; a broken spec or fixture rejects with a ConfigError naming the file. */
  /** `warn` hears what reloads say; `startWarn` what the first load says (by default the same). */
  static async load(options: ResolvedOptions, warn: (line: string) => void, startWarn = warn): Promise<ServedVersion> {
    let specFiles: string[] = [];
    const state = await loadState(options, startWarn, (files) => (specFiles = files));
    return new ServedVersion(options, warn, state, specFiles);
  }

  /** Reloads whenever the spec, a file it references or the fixtures folder changes. */
  watch(): void {
    this.fileWatch = watchFiles(this.watchTargets(), () => void this.reload());
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
      this.serve(loaded);
      this.warn(`reloaded ${this.servedFiles()} in ${Math.round(performance.now() - started)} ms`);
      this.onReloaded(true, performance.now() - started);
      return true;
    } catch (error) {
      if (signal.aborted) return false; // a newer reload takes over (or the stub is closing)
      const message = error instanceof ConfigError ? error.message : `reload failed: ${(error as Error).message}`;
      this.warn(`reload refused, still serving the last good version: ${message}`);
      this.onReloaded(false, performance.now() - started);
      return false;
    } finally {
      // The $ref'd files may have changed, and a fixtures folder made after the start is watched
      // from here on (the watch also notices one by itself).
      this.fileWatch?.update(this.watchTargets());
    }
  }

  private watchTargets(): WatchTargets {
    // A downloaded document has no file to watch: POST /__admin/reload reads it again.
    const documents = this.options.documents.length > 1 ? this.options.documents.map((document) => document.source) : [this.options.spec];
    const overlays = this.options.overlays.map((file) => mountedSource('overlays', file).source);
    return { files: [...documents.filter((file) => !isRemoteDocument(file)), ...this.specFiles, ...overlays], folders: this.fixtureFolders() };
  }

  private fixtureFolders(): string[] {
    return [this.options.fixtures, ...this.options.documentFixtures.map((folder) => folder.source)];
  }

  /** What a reload read, for its line: the document (or each) and the fixtures folder (or each). */
  private servedFiles(): string {
    const documents = this.options.documents.length > 1 ? this.options.documents.map((document) => document.source) : [this.options.spec];
    return `${documents.join(', ')} and ${this.fixtureFolders().join(', ')}`;
  }

  /**
   * Serves `loaded` from now on. The sticky scenario is decided now, against the state as it is:
   * a PUT or DELETE of /__admin/scenario made while the files were loading is kept.
   */
  private serve(loaded: EngineState): void {
    // What scripted answers remember (sequence positions, added answers) outlives a reload.
    this.state = { ...loaded, sticky: this.keptSticky(loaded), sessions: this.state.sessions ?? loaded.sessions };
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
