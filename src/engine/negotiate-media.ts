// Stage 6 (choose), after the answer is selected: which documented media type answers, from the request's `Accept` (q-values, wildcards,
// parameters; jshttp's negotiator does the ranking). Without `Accept`, or when the client takes
// every documented type alike (`*/*`, what fetch sends), the response's default media type
// answers: its JSON one, else its first. Nothing acceptable is a 406 naming what is documented.
import Negotiator from 'negotiator';
import { isJsonMediaType, isXmlMediaType } from '../openapi/media-types.js';
import type { ResponsePlan } from '../openapi/compiled-model.js';
import type { Choice, Refusal } from './engine-types.js';
import { selectionRefusals } from './refusals.js';

/**
 * `preferred`: the media type that wins where the client has no preference (no Accept, `*\/*`, a
 * tie): the response's default one (`json`), or its first documented (`first`, as Prism does).
 */
export function negotiateMedia(choice: Choice, accept: string | string[] | undefined, preferred: 'json' | 'first' = 'json'): Choice | Refusal {
  // A scenario is its fixture's own answer; the client asked for it by name. An answer from the
  // stored resources is the success response as the state holds it.
  if (choice.kind === 'scenario' || choice.kind === 'state') return choice;
  const { plan } = choice;
  const header = Array.isArray(accept) ? accept.join(', ') : accept;
  // No content documented (a 204): nothing to negotiate, whatever the client accepts.
  if (plan.variants.length === 0) return choice;
  const first = preferred === 'first' ? plan.variants[0] : plan;
  if (header === undefined || header.trim() === '') return first === plan ? choice : onVariant(choice, first);
  const ranked = rank(plan, first, header);
  const named = choice.kind === 'example' && choice.asked ? choice.name : null;
  // A named example lives in one media type: the best acceptable one that has it.
  const variant = named === null ? ranked[0] : ranked.find((candidate) => hasExample(candidate, named));
  if (variant === undefined) {
    return selectionRefusals.notAcceptable(named, header, plan.variants.map((v) => v.contentType));
  }
  if (variant === plan) return choice;
  return onVariant(choice, variant);
}

/** The response's media types the client accepts, best first. */
function rank(plan: ResponsePlan, preferred: ResponsePlan, header: string): ResponsePlan[] {
  // The preferred variant is listed first, so that it wins every tie (`*/*`, `application/*`).
  const byType = new Map<string, ResponsePlan>();
  for (const variant of [preferred, ...plan.variants]) if (!byType.has(variant.contentType!)) byType.set(variant.contentType!, variant);
  const concrete = [...byType.keys()].filter((type) => !type.includes('*'));
  let accepted = new Negotiator({ headers: { accept: header } }).mediaTypes(concrete);
  // `application/vnd.x+json; version=1` asks for a parameter the document does not list: as
  // Prism does, the parameters (q aside) are dropped and the types compared again.
  if (accepted.length === 0 && header.includes(';')) accepted = new Negotiator({ headers: { accept: withoutParameters(header) } }).mediaTypes(concrete);
  if (accepted.length === 0) accepted = sameSyntax(header, concrete);
  // A documented wildcard (`*/*`, `application/*`) stands for any type, so it is acceptable to all.
  const wildcards = [...byType.keys()].filter((type) => type.includes('*'));
  return [...accepted, ...wildcards].map((type) => byType.get(type)!);
}

/**
 * A vendor type the document does not list, `application/vnd.github+json`, still asks for JSON:
 * its `+json` suffix says so (RFC 6839). GitHub's docs tell clients to send that type, Octokit
 * does, and GitHub's own document lists only `application/json`; a 406 would leave such a client
 * with nothing. So the documented types of the same syntax (JSON, else XML) are acceptable, in
 * document order. Ranges with q=0 ask for nothing.
 */
function sameSyntax(header: string, concrete: string[]): string[] {
  const asked = header.split(',').filter((range) => !/;\s*q\s*=\s*0(\.0*)?\s*(;|$)/i.test(range)).map((range) => range.split(';')[0].trim().toLowerCase());
  const families: Array<[string, (type: string) => boolean]> = [
    // The types are concrete here (no wildcards), so these are the JSON and XML families.
    ['+json', isJsonMediaType],
    ['+xml', isXmlMediaType],
  ];
  for (const [suffix, isOfFamily] of families) {
    if (asked.some((type) => type.endsWith(suffix))) {
      const documented = concrete.filter((type) => isOfFamily(type));
      if (documented.length > 0) return documented;
    }
  }
  return [];
}

/** `a/b; v=1; q=0.5, c/d; x=y` -> `a/b;q=0.5, c/d`. */
function withoutParameters(header: string): string {
  return header.split(',').map((range) => {
    const [type, ...parameters] = range.split(';');
    const q = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
    return q === undefined ? type.trim() : `${type.trim()};${q.trim()}`;
  }).join(', ');
}

function hasExample(plan: ResponsePlan, name: string): boolean {
  return plan.examples.has(name) || plan.brokenExamples.has(name);
}

/** The same choice made again on another media type of the same response. */
function onVariant(choice: Exclude<Choice, { kind: 'scenario' }>, variant: ResponsePlan): Choice {
  const { status } = choice;
  if (choice.kind === 'example' && choice.asked) return { ...choice, plan: variant };
  if (choice.kind === 'generated' && choice.dynamic) return { ...choice, plan: variant };
  if (choice.kind === 'echo' && variant.project) return { kind: 'echo', plan: variant, status };
  const first = variant.examples.keys().next();
  if (!first.done) return { kind: 'example', plan: variant, status, name: first.value, asked: false };
  return { kind: 'generated', plan: variant, status, dynamic: false };
}
