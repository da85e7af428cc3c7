// The options that script every answer: --delay (a fixed wait or a spread) and --chaos.
import { readDelay, type DelaySpread } from '../common/delay-spread.js';
import { FAULTS, isFault, type Fault } from '../common/faults.js';
import { ConfigError } from './config-error.js';

/** --chaos: the share of every operation's requests answered with a documented error or a fault. */
export interface Chaos {
  share: number;
  faults: readonly Fault[];
}

/** `delayMs` as given: a whole number of milliseconds, or a spread. */
export function resolveDelay(given: number | DelaySpread): { delayMs: number; delaySpread: DelaySpread | null } {
  const delay = readDelay(given);
  if (typeof delay === 'string') throw new ConfigError('delayMs', delay);
  return typeof delay === 'number' ? { delayMs: delay, delaySpread: null } : { delayMs: 0, delaySpread: delay };
}

export function resolveChaos(share: number | undefined, faults: Fault[] | undefined): Chaos | null {
  if (faults !== undefined && (!Array.isArray(faults) || faults.some((fault) => !isFault(String(fault))))) {
    throw new ConfigError('chaosFaults', `must be faults among ${FAULTS.join(', ')}`);
  }
  if (share === undefined || share === 0) {
    if (faults !== undefined && faults.length > 0) throw new ConfigError('chaosFaults', 'says which faults --chaos injects, so it needs --chaos P');
    return null;
  }
  if (typeof share !== 'number' || !(share > 0 && share <= 1)) throw new ConfigError('chaos', `must be a share from 0 to 1 (0.05 is 5% of requests), got ${String(share)}`);
  return { share, faults: faults ?? [] };
}
