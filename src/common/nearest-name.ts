// "Did you mean …?": the known name closest to one a user mistyped (a flag, a fixture's
// operation), by edit distance (fastest-levenshtein), or none when nothing is close enough.
import { distance } from 'fastest-levenshtein';

/**
 * The candidate nearest to `given`, when it is near: at most a quarter of its length away (two
 * edits at least, so a swapped pair of letters, `--sepc`, still finds `--spec`) and never as far
 * as its whole length. Ties go to the first candidate listed.
 */
export function nearestName(given: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(given.length - 1, Math.max(2, Math.floor(given.length / 4)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(given, candidate);
    if (d <= limit && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
