// The keys that script when and how often a scenario answers (times, chance, a delay or its spread)
// and an operation's sequence of answers, checked at start like the rest of a fixture.
import { ConfigError } from '../config/config-error.js';
import { readDelay, type DelaySpread } from '../common/delay-spread.js';
import type { AfterSequence } from '../engine/scenario.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';
import { holdsTemplate } from '../engine/templates.js';

export interface ScriptKeys {
  delayMs: number | null;
  delaySpread: DelaySpread | null;
  times: number | null;
  chance: number | null;
}

const AFTER: readonly AfterSequence[] = ['last', 'repeat', 'default'];

export function readScriptKeys(raw: Record<string, unknown>, problem: (pointer: string, message: string) => ConfigError): ScriptKeys {
  let delayMs: number | null = null;
  let delaySpread: DelaySpread | null = null;
  if (raw.delay !== undefined && raw.delay !== null) {
    const delay = readDelay(raw.delay);
    if (typeof delay === 'string') throw problem('/delay', delay);
    if (typeof delay === 'number') delayMs = delay;
    else delaySpread = delay;
  }
  const times = raw.times ?? null;
  if (times !== null && (typeof times !== 'number' || !Number.isInteger(times) || times < 1)) throw problem('/times', 'must be a whole number from 1: how many answers this scenario gives before it is passed over');
  const chance = raw.chance ?? null;
  if (chance !== null && (typeof chance !== 'number' || !(chance > 0 && chance <= 1))) throw problem('/chance', 'must be a number above 0 and at most 1: the share of requests that get this scenario (0.05 is 5%)');
  return { delayMs, delaySpread, times: times as number | null, chance: chance as number | null };
}

/** A fixture file's `sequence` (scenario names, `default` for the stub's own answer) and `after`. */
export function checkSequence(file: string, sequence: unknown, after: unknown): { steps: string[]; after: AfterSequence } {
  if (!Array.isArray(sequence) || sequence.length === 0 || sequence.some((step) => typeof step !== 'string' || step === '')) {
    throw new ConfigError(file, '/sequence: must be a list of scenario names (default for the stub\'s own answer), answered one per request in order');
  }
  if (after !== undefined && !AFTER.includes(after as AfterSequence)) throw new ConfigError(file, `/after: must be one of ${AFTER.join(', ')} (what answers once the sequence has run out; default last)`);
  return { steps: sequence as string[], after: (after as AfterSequence | undefined) ?? 'last' };
}

/** JSON pointers (within `value`) of the strings that hold templates. */
export function templatedPointers(value: unknown, pointer = ''): string[] {
  if (typeof value === 'string') return holdsTemplate(value) ? [pointer] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => templatedPointers(item, `${pointer}/${i}`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, member]) => templatedPointers(member, `${pointer}/${escapePointerToken(key)}`));
  return [];
}
