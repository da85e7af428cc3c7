// Latency that varies the way real networks do: a fixed delay, a uniform spread between two bounds,
// or a log-normal spread given by its median and 99th percentile (a long tail, as measured latency
// has). Drawn from the stub's seeded randomness, so one seed and one request order give the same waits.

/** The longest wait any delay may ask for. */
export const MAX_DELAY_MS = 60_000;

export type DelaySpread = { min: number; max: number } | { median: number; p99: number };

/** The standard normal's 99th percentile: a log-normal's p99 is exp(mu + Z99 * sigma). */
const Z99 = 2.3263478740408408;

/** A wait in whole milliseconds; `first` and `second` are independent uniform draws in [0, 1). */
export function drawDelay(spread: DelaySpread, first: number, second: number): number {
  if ('min' in spread) return Math.round(spread.min + first * (spread.max - spread.min));
  const mu = Math.log(Math.max(spread.median, 1));
  const sigma = Math.log(Math.max(spread.p99, 1) / Math.max(spread.median, 1)) / Z99;
  // Box-Muller: two uniforms make one standard normal; 1 - first keeps log's argument above 0.
  const normal = Math.sqrt(-2 * Math.log(1 - first)) * Math.cos(2 * Math.PI * second);
  return Math.min(MAX_DELAY_MS, Math.round(Math.exp(mu + sigma * normal)));
}

/**
 * A delay as a fixture, startStub or the admin API writes it: a whole number of milliseconds,
 * `{min, max}` or `{median, p99}`. Returns the delay, or why it is not one.
 */
export function readDelay(value: unknown): number | DelaySpread | string {
  const ms = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_DELAY_MS;
  const wanted = `a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, {min, max} or {median, p99}`;
  if (typeof value === 'number') return ms(value) ? value : `must be a whole number from 0 to ${MAX_DELAY_MS}, got ${value}`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `must be ${wanted}`;
  const keys = Object.keys(value).sort().join(',');
  const spread = value as Record<string, unknown>;
  if (keys === 'max,min') {
    if (!ms(spread.min) || !ms(spread.max)) return `min and max must each be ${wanted.split(',')[0]}`;
    if ((spread.min as number) > (spread.max as number)) return 'min must not be above max';
    return { min: spread.min as number, max: spread.max as number };
  }
  if (keys === 'median,p99') {
    if (!ms(spread.median) || !ms(spread.p99)) return `median and p99 must each be ${wanted.split(',')[0]}`;
    if ((spread.median as number) > (spread.p99 as number)) return 'median must not be above p99';
    return { median: spread.median as number, p99: spread.p99 as number };
  }
  return `must be ${wanted}`;
}

/** `--delay` as typed: `250`, `100-800` (uniform) or `median=200,p99=2000` (log-normal). */
export function parseDelayText(text: string): number | DelaySpread | string {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return readDelay(Number(trimmed));
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(trimmed);
  if (range) return readDelay({ min: Number(range[1]), max: Number(range[2]) });
  const tail = /^median=(\d+),\s*p99=(\d+)$/.exec(trimmed);
  if (tail) return readDelay({ median: Number(tail[1]), p99: Number(tail[2]) });
  return `"${text}" is not a delay: write 250, 100-800 (uniform) or median=200,p99=2000 (log-normal)`;
}
