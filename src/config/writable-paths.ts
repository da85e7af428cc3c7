// Files the stub writes later (a state file after each change, a coverage report at shutdown),
// checked when the options are resolved: a path it cannot write is found out at start, naming it,
// not when the data is due and would be lost.
import { closeSync, existsSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { ConfigError } from './config-error.js';

/**
 * A state file is written after every change and at shutdown: a folder or file the stub may not
 * write would lose every change silently, so that is found out now, by opening it for writing
 * (kept as it is) or, before it exists, creating a file of this process's own beside it and
 * taking it away again (never the state file itself: another process may be reading it).
 */
export function checkWritable(name: string, file: string): void {
  const path = resolvePath(file);
  try {
    if (existsSync(path)) closeSync(openSync(path, 'r+'));
    else {
      const probe = `${path}.${process.pid}.write-check`;
      closeSync(openSync(probe, 'wx'));
      unlinkSync(probe);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(name, `cannot write ${path} (${code}); give a file in a folder the stub may write`);
  }
}

/** A file written at shutdown must have a folder to go to: found out now, not when the report is due. */
export function checkFolderOf(name: string, file: string, what: string): void {
  const folder = dirname(resolvePath(file));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder) throw new ConfigError(name, `the folder ${folder} does not exist; create it or write the ${what} elsewhere`);
}

