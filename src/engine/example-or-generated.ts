// The one rule for what a documented response serves when nothing names an answer: its first
// documented example, else data generated from its schema. Selection, the builder's fallbacks
// (an echo that does not fit) and the values that fill a projection's gaps all follow it.
import type { ResponsePlan } from '../openapi/compiled-model.js';
import type { Choice } from './engine-types.js';

/** The example (by name) a response serves by default, or null when data is generated instead. */
export function defaultExampleName(plan: ResponsePlan): string | null {
  const first = plan.examples.keys().next();
  return first.done ? null : first.value;
}

/** The response's first example, else data generated from its schema, as a choice the builder builds. */
export function exampleOrGenerated(plan: ResponsePlan, status: number): Choice {
  const name = defaultExampleName(plan);
  return name === null ? { kind: 'generated', plan, status, dynamic: false } : { kind: 'example', plan, status, name, asked: false };
}
