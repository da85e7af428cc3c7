// Data generated for a response until it fits the response's own schema: random formats and
// branch picks sometimes break it, and another try with another seed usually does not. Shared by
// the answer builder (per request) and --strict (once per response at start-up).
import type { ResponsePlan } from './compiled-model.js';

/**
 * How many times data is generated for one answer before the least broken one is used: the first
 * from the document's own values (unless dynamic), the others generated throughout with other
 * seeds. Breaks come right in a try or two; a schema nothing satisfies costs this many tries per
 * request, so it stays small.
 */
export const GENERATION_ATTEMPTS = 5;

export interface Fitted {
  value: unknown;
  /** The value's violations of the response schema: empty when it fits, null when there is no validator (not JSON). */
  violations: string[] | null;
  /** The data was capped in size (generate/size-bounds.ts): it cannot fit whatever the seed, so it was tried once. */
  capped: boolean;
}

type Generate = (pointer: string, key: string, dynamic: boolean) => unknown;

/** Data for `plan`'s schema keyed by `key`, generated again while it breaks the schema (unless `capped` says it was cut to size). */
export function generateFitting(generate: Generate, plan: Pick<ResponsePlan, 'schemaPointer' | 'validateBody'>, key: string, dynamic: boolean, capped: (pointer: string) => boolean): Fitted {
  if (!plan.schemaPointer) return { value: undefined, violations: null, capped: false };
  let best: Fitted | null = null;
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const value = generate(plan.schemaPointer, attempt === 0 ? key : `${key}\u0000${attempt}`, dynamic || attempt > 0);
    // Only JSON bodies have a validator; other media types use the first value generated.
    if (!plan.validateBody) return { value, violations: null, capped: false };
    const violations = plan.validateBody(value);
    if (violations.length === 0) return { value, violations, capped: false };
    if (capped(plan.schemaPointer)) return { value, violations, capped: true };
    if (best === null || violations.length < best.violations!.length) best = { value, violations, capped: false };
  }
  return best!;
}
