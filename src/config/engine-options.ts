// The options every host takes (the server: startStub and the CLI; the fetch handler and MSW's
// handlers): what the engine itself reads, declared once here with its default and its check.
// options.ts and fetch/fetch-options.ts add only what their own host has, and both spread
// `resolveEngineOptions`'s result, so the two cannot drift apart. Needs nothing of Node.
import type { DelaySpread } from '../common/delay-spread.js';
import type { Fault } from '../common/faults.js';
import { ConfigError } from './config-error.js';
import { DEFAULTS } from './defaults.js';
import { wholeNumber } from './whole-number.js';
import { resolveChaos, resolveDelay, type Chaos } from './script-options.js';
import { compatPolicy, type CompatMode, type CompatPolicy } from './compat-policy.js';

export interface EngineOptions {
  /** Accepted bearer tokens; empty accepts any non-empty token (`--token`). Default []. */
  tokens?: string[];
  /** Picks the data set of generated data: same seed, same request, same bytes (`--seed`). Default 0. */
  seed?: number;
  /** Largest request body in bytes; larger is 413 (`--max-body`). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Stateful mode: the most bytes of stored items' JSON kept; a change beyond it is 422, not stored (`--max-state`). Default 32 MiB. */
  maxStateBytes?: number;
  /** Delay before every answer, refusals included, in ms, or a seeded spread (`{min, max}`, `{median, p99}`); X-Mock-Delay and fixtures override it (`--delay`). Default 0. */
  delayMs?: number | DelaySpread;
  /** The share of every operation's requests (0 to 1) answered with one of its documented 4xx/5xx answers, or a fault (`--chaos`). Default 0 (off). */
  chaos?: number;
  /** The faults `chaos` may inject besides documented errors (`reset`, `close`, ...; `--chaos-faults`). Default none. */
  chaosFaults?: Fault[];
  /** Milliseconds between a streamed answer's events (text/event-stream, JSON lines), the first sent at once (`--stream-interval`). Default 10. */
  streamIntervalMs?: number;
  /** The most events a streamed answer sends, its terminator (`data: [DONE]`) aside (`--stream-max-events`). Default 20. */
  streamMaxEvents?: number;
  /** Journal entries kept, newest (`--journal-limit`). Default 1000. */
  journalLimit?: number;
  /** Refuse to start on a document with any warning (`--strict`). Default false. */
  strict?: boolean;
  /**
   * Stateful mode: resources inferred from the document remember what clients create, update and
   * delete (`POST /plants` then `GET /plants/{id}`; `--stateful`). Default false, or true when
   * there is a store to fill or keep (`seedItems`, the server's `stateFile`).
   */
  stateful?: boolean;
  /**
   * Stateful mode starts with data: each resource holds the items of its list operation's
   * documented example, plus this many generated, valid, distinct items (`--seed-items`). A state
   * file or store that holds state wins over both. Default 0.
   */
  seedItems?: number;
  /** `prism`: answer as Prism does where the two differ (docs/compared-with-prism.md; `--compat`). Default: the stub's own choices. */
  compat?: CompatMode;
  /** Every answer generated from the schema alone, as with `Prefer: dynamic=true` (Prism's `-d`). Default false. */
  dynamic?: boolean;
  /** An answer that breaks its own schema is refused with a 500 that lists why (Prism's `--errors`). Default false. */
  errors?: boolean;
}

export interface ResolvedEngineOptions {
  tokens: string[];
  seed: number | undefined;
  maxBodyBytes: number;
  maxStateBytes: number;
  delayMs: number;
  /** `delayMs` given as a spread; null when it is a fixed wait. */
  delaySpread: DelaySpread | null;
  /** null when off. */
  chaos: Chaos | null;
  streamIntervalMs: number;
  streamMaxEvents: number;
  journalLimit: number;
  strict: boolean;
  stateful: boolean;
  seedItems: number;
  /** `compat`, `dynamic` and `errors` made into the policy the engine reads. */
  policy: CompatPolicy;
}

/** Each whole-number option's range. */
const RANGES = {
  maxBodyBytes: [1, 1024 ** 3],
  maxStateBytes: [1, 16 * 1024 ** 3],
  streamIntervalMs: [0, 60_000],
  streamMaxEvents: [1, 10_000],
  journalLimit: [0, 1_000_000],
  // Up to the items a stateful store keeps per resource (engine/answer-from-state.ts); maxStateBytes caps their bytes.
  seedItems: [0, 100_000],
} as const satisfies Partial<Record<keyof ResolvedEngineOptions, readonly [number, number]>>;

/** `keepsState`: the host has a store to keep (the server's `stateFile`), which asks for stateful mode as `seedItems` does. */
export function resolveEngineOptions(options: EngineOptions, keepsState = false): ResolvedEngineOptions {
  const seedItems = options.seedItems ?? 0;
  const resolved: ResolvedEngineOptions = {
    tokens: options.tokens ?? [],
    seed: options.seed,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxStateBytes: options.maxStateBytes ?? DEFAULTS.maxStateBytes,
    ...resolveDelay(options.delayMs ?? DEFAULTS.delayMs),
    chaos: resolveChaos(options.chaos, options.chaosFaults),
    streamIntervalMs: options.streamIntervalMs ?? DEFAULTS.streamIntervalMs,
    streamMaxEvents: options.streamMaxEvents ?? DEFAULTS.streamMaxEvents,
    journalLimit: options.journalLimit ?? DEFAULTS.journalLimit,
    strict: options.strict ?? DEFAULTS.strict,
    // A store to fill or to keep is asking for stateful mode (the CLI says it turned it on).
    stateful: options.stateful ?? (keepsState || seedItems > 0 || DEFAULTS.stateful),
    seedItems,
    policy: compatPolicy(options),
  };
  for (const [name, [min, max]] of Object.entries(RANGES)) wholeNumber(name, resolved[name as keyof typeof RANGES], min, max);
  if (resolved.seed !== undefined) wholeNumber('seed', resolved.seed, 0, 2 ** 31 - 1);
  if (resolved.seedItems > 0 && !resolved.stateful) throw new ConfigError('seedItems', 'fills stateful mode\'s store, and stateful mode is off (stateful: false); leave one of them out');
  if (!Array.isArray(resolved.tokens) || resolved.tokens.some((token) => typeof token !== 'string' || token.trim() === '' || /\s/.test(token))) {
    throw new ConfigError('tokens', 'each token must be a non-empty string without spaces');
  }
  return resolved;
}
