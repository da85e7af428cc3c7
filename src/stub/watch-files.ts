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
  const watchers = new Map<string, FSWatcher>();
  let interests = new Map<string, Interest>();
  let current = normalise(targets);
  let lastEvent = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const schedule = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void settleOrWait(), Math.max(0, delayMs));
    timer.unref();
  };
  const noticed = () => {
    lastEvent = Date.now();
    schedule(QUIET_MS);
  };
  const settleOrWait = async () => {
    timer = null;
    const newest = Math.max(lastEvent, await newestModification(current));
    if (closed) return;
    const quietFor = Date.now() - newest;
    if (quietFor < QUIET_MS) return schedule(QUIET_MS - quietFor);
    changed();
  };

  const arm = () => {
    interests = interestsOf(current);
    for (const [dir, watcher] of watchers) {
      if (!interests.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of interests.keys()) if (!watchers.has(dir)) open(dir);
  };
  const open = (dir: string) => {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => onEvent(dir, name === null ? null : String(name)));
      // A watched folder that is deleted ends its watch; its parent's watch brings it back.
      watcher.on('error', () => forget(dir));
      watchers.set(dir, watcher);
    } catch {
      // Not there (yet): the fixtures folder's parent is watched for it, and every reload tries again.
    }
  };
  const forget = (dir: string) => {
    watchers.get(dir)?.close();
    watchers.delete(dir);
  };
  const onEvent = (dir: string, name: string | null) => {
    const interest = interests.get(dir);
    if (!interest) return;
    if (name !== null && interest.folderNames.has(name)) {
      // A fixtures folder itself appeared, went or was replaced: watch whatever is there now.
      const folder = join(dir, name);
      forget(folder);
      if (interests.has(folder)) open(folder);
      return noticed();
    }
    if (name === null || interest.names.has(name) || (interest.fixtures && FIXTURE_FILE.test(name))) noticed();
  };

  arm();
  return {
    update(next) {
      if (closed) return;
      current = normalise(next);
      arm();
    },
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      if (timer) clearTimeout(timer);
    },
  };
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
