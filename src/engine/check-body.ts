// Whether a body fits its documented schema: what the builder asks to choose between an echo and
// its fallback, and what the self-check reports. A check of its own, so neither stage calls the other.
import type { BuiltResponse } from './engine-types.js';
import { toPlain } from '../common/exact-json.js';

/** The body's violations of its documented schema (none when the response documents no schema). */
export function checkBody(answer: BuiltResponse): string[] {
  const validate = answer.plan?.validateBody;
  if (!validate) return [];
  if (answer.body === undefined) return ['/: the documented response body is missing'];
  const { value, rawNumbers } = answer.exact ? toPlain(answer.body) : { value: answer.body, rawNumbers: undefined };
  return validate(value, rawNumbers);
}
