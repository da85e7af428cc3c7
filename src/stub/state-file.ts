// --state-file: the resources survive a restart. Read once at start (a broken file stops the start
// naming the file and the problem), written at most a second after a change and at shutdown. Each
// write goes to a temporary file beside it that is then renamed over it, so a crash or `kill -9`
// loses at most the last second and never leaves a half-written file.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import type { Resources } from '../openapi/compile-resources.js';
import type { StoredState } from '../engine/engine-types.js';
import { stateFromJson, stateToJson } from './state-document.js';

/** How long after a change the file is written: changes within it are written together. */
export const STATE_WRITE_DELAY_MS = 1_000;

/** The state the file holds; an empty state when there is no file yet. */
export function readStateFile(file: string, resources: Resources): StoredState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new Map();
    throw new ConfigError(file, `cannot be read (${code ?? (error as Error).message})`);
  }
  return checkStateFile(file, text, resources);
}

/** The state a state file's text holds, checked against the document; a ConfigError naming the file when it is not one. */
export function checkStateFile(file: string, text: string, resources: Resources): StoredState {
  const state = stateFromJson(text, resources);
  if (Array.isArray(state)) throw new ConfigError(file, `is not a state file: ${state.slice(0, 5).join('; ')}`);
  return state;
}

export class StateFileWriter {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly file: string, private readonly current: () => StoredState, private readonly warn: (line: string) => void) {}

  /** A change happened: the file is written within STATE_WRITE_DELAY_MS. */
  changed(): void {
    this.timer ??= setTimeout(() => this.flush(), STATE_WRITE_DELAY_MS);
  }

  /** Writes now if a change is waiting (at shutdown). */
  flush(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, stateToJson(this.current(), true));
      renameSync(temporary, this.file);
    } catch (error) {
      this.warn(`could not write the state to ${this.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it is kept in memory`);
    }
  }
}
