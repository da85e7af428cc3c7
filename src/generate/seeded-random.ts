// The randomness behind reproducible data: a hash that turns (seed, pointer, key) into the seed of
// one call, and a randomizer for faker that is cheap to reseed on every call.
import type { Randomizer } from '@faker-js/faker';

/** 32-bit FNV-1a over the UTF-16 code units of `text`. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * faker's default Mersenne Twister takes ~80 µs to seed, more than a whole small generate() call;
 * this one (mulberry32) seeds for free. Good enough for fake data. (faker calls `next` unbound,
 * hence the closure.)
 */
export function cheapRandomizer(): Randomizer {
  let state = 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) | 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
    },
    seed(seed: number | number[]): void {
      state = Array.isArray(seed) ? seed.reduce((h, n) => Math.imul(h ^ n, 0x01000193), 0x811c9dc5) : seed | 0;
    },
  };
}
