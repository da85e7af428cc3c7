// Live reload's eyes: watches the spec, every file it reaches by `$ref`, and the fixtures folder,
// and calls back once they have all been quiet long enough that no writer is half-way through.
//
// - Folders are watched, not files: editors replace a file on save rather than write it, so a
//   watch on the file itself would stop after the first save.
// - The fixtures folder's parent is watched for the folder's name too, so a folder created (or
//   deleted and created again) after the start is picked up.
// - Quiet means no event for QUIET_MS and no watched file modified within QUIET_MS (the times are
//   read again before calling back, in case an event was missed). A writer pausing half a second
//   mid-file must never have its partial file loaded; a finished edit is served about a second
//   after its last write.
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Twice the longest pause of a writer mid-file that must never be mistaken for the end. */
export const QUIET_MS = 1_000;

/** Names in the fixtures folder that are fixtures (the loader reads only these). */
const FIXTURE_FILE = /\.(json|ya?ml)$/i;

export interface WatchTargets {
  /** The spec and every file it reaches by `$ref`. */
  files: string[];
  /** The fixtures folders (one, or one per document with several; they may not exist yet). */
  folders: string[];
}

export interface FileWatch {
  /** Watches these from now on: after a reload the `$ref`'d files may differ, a folder may exist. */
  update(targets: WatchTargets): void;
  close(): void;
}

/** What one watched folder is watched for: its own entries by name, all fixtures, fixtures folders in it. */
interface Interest {
  names: Set<string>;
  fixtures: boolean;
  folderNames: Set<string>;
}

/** Starts watching `targets`; `changed` runs once per quiet spell after changes. */
export function watchFiles(targets: WatchTargets, changed: () => void): FileWatch {
  const watch = new FolderWatches(changed);
  watch.update(targets);
  return watch;
}

/** The folders watched for the targets, each for what is of interest in it; what is noticed starts a quiet spell. */
class FolderWatches implements FileWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private interests = new Map<string, Interest>();
  private current: WatchTargets = { files: [], folders: [] };
  private readonly quiet: QuietSpell;
  private closed = false;

  constructor(changed: () => void) {
    this.quiet = new QuietSpell(() => this.current, changed);
  }

  update(next: WatchTargets): void {
    if (this.closed) return;
    this.current = normalise(next);
    this.arm();
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.quiet.close();
  }

  /** Watches every folder of interest to the targets, and no other. */
  private arm(): void {
    this.interests = interestsOf(this.current);
    for (const [dir, watcher] of this.watchers) {
      if (!this.interests.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of this.interests.keys()) if (!this.watchers.has(dir)) this.open(dir);
  }

  private open(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => this.onEvent(dir, name === null ? null : String(name)));
      // A watched folder that is deleted ends its watch; its parent's watch brings it back.
      watcher.on('error', () => this.forget(dir));
      this.watchers.set(dir, watcher);
    } catch {
      // Not there (yet): the fixtures folder's parent is watched for it, and every reload tries again.
    }
  }

  private forget(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  /** A change in a watched folder: noticed when it is of interest (a target, a fixture, a fixtures folder itself). */
  private onEvent(dir: string, name: string | null): void {
    const interest = this.interests.get(dir);
    if (!interest) return;
    if (name !== null && interest.folderNames.has(name)) {
      // A fixtures folder itself appeared, went or was replaced: watch whatever is there now.
      const folder = join(dir, name);
      this.forget(folder);
      if (this.interests.has(folder)) this.open(folder);
      return this.quiet.noticed();
    }
    if (name === null || interest.names.has(name) || (interest.fixtures && FIXTURE_FILE.test(name))) this.quiet.noticed();
  }
}

/** Calls back once nothing was noticed, and no watched file modified, for QUIET_MS. */
class QuietSpell {
  private lastEvent = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly targets: () => WatchTargets,
    private readonly changed: () => void,
  ) {}

  noticed(): void {
    this.lastEvent = Date.now();
    this.schedule(QUIET_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settleOrWait(), Math.max(0, delayMs));
    this.timer.unref();
  }

  /** The modification times read again, in case an event was missed: quiet long enough calls back, else waits the rest. */
  private async settleOrWait(): Promise<void> {
    this.timer = null;
    const newest = Math.max(this.lastEvent, await newestModification(this.targets()));
    if (this.closed) return;
    const quietFor = Date.now() - newest;
    if (quietFor < QUIET_MS) return this.schedule(QUIET_MS - quietFor);
    this.changed();
  }
}

function normalise(targets: WatchTargets): WatchTargets {
  return { files: [...new Set(targets.files.map((file) => resolve(file)))], folders: [...new Set(targets.folders.map((folder) => resolve(folder)))] };
}

function interestsOf(targets: WatchTargets): Map<string, Interest> {
  const interests = new Map<string, Interest>();
  const interest = (dir: string) => {
    let found = interests.get(dir);
    if (!found) interests.set(dir, (found = { names: new Set(), fixtures: false, folderNames: new Set() }));
    return found;
  };
  for (const file of targets.files) interest(dirname(file)).names.add(basename(file));
  for (const folder of targets.folders) {
    interest(folder).fixtures = true;
    interest(dirname(folder)).folderNames.add(basename(folder));
  }
  return interests;
}

/** The latest modification time (ms) among the watched files and fixtures; 0 when none is readable. */
async function newestModification(targets: WatchTargets): Promise<number> {
  const files = [...targets.files];
  for (const folder of targets.folders) {
    try {
      for (const name of await readdir(folder)) if (FIXTURE_FILE.test(name)) files.push(join(folder, name));
    } catch {
      // No fixtures folder: nothing of it to wait for.
    }
  }
  const now = Date.now();
  let newest = 0;
  for (const file of files) {
    const modified = (await stat(file).catch(() => null))?.mtimeMs ?? 0;
    // A time in the future (a clock set back, `touch -d`) would hold the reload off until then.
    if (modified <= now) newest = Math.max(newest, modified);
  }
  return newest;
}
