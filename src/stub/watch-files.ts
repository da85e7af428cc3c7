// Live reload's eyes: watches the spec's folder (editors replace a file on save rather than write
// it, so watching the file itself would stop after the first save) and the fixtures folder, and
// calls back once after a burst of events has settled.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

const SETTLE_MS = 100;

/** Starts watching; the returned function stops it. */
export function watchFiles(specFile: string, fixturesDir: string, changed: () => void): () => void {
  const spec = resolve(specFile);
  const targets: Array<[string, (file: string | null) => boolean]> = [
    [dirname(spec), (file) => file === null || file === basename(spec)],
    [resolve(fixturesDir), () => true],
  ];
  let timer: NodeJS.Timeout | null = null;
  const settle = () => {
    // Saving a file fires several events; one reload after they settle is enough.
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      changed();
    }, SETTLE_MS);
    timer.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const [dir, relevant] of targets) {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, file) => {
        if (relevant(file ? String(file) : null)) settle();
      });
      watcher.on('error', () => {});
      watchers.push(watcher);
    } catch {
      // A folder that does not exist (no fixtures/) has nothing to watch.
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    if (timer) clearTimeout(timer);
  };
}
