// Stage 7 (build) for a scenario: its body and headers as written, or rendered from their templates for
// this request, or (a scenario added with a status only) the stub's own answer for that status.
import type { ResponsePlan } from '../openapi/compiled-model.js';
import { headerSafe } from '../openapi/header-value.js';
import type { PlainRequest } from '../common/plain-http.js';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { checkBody } from './check-body.js';
import { valueAtPointer } from '../common/json-pointer.js';
import { latin1Text } from '../common/bytes.js';
import type { BuiltResponse } from './engine-types.js';
import type { Scenario } from './scenario.js';
import type { TemplateContext } from './templates.js';

export function scenarioAnswer(scenario: Scenario, plan: ResponsePlan | null, request: PlainRequest, context: TemplateContext | undefined, own: () => BuiltResponse): BuiltResponse {
  if (scenario.ownBody && plan) {
    const answer = own();
    return { ...answer, headers: { ...answer.headers, ...scenario.headers }, choiceKind: 'scenario', scenario: scenario.name };
  }
  const render = scenario.render;
  // Seeded on the request, as generated data is: the same request renders the same values.
  const seedKey = `${request.method} ${request.path}?${request.rawQuery} ${latin1Text(request.body)}`;
  // What failed to render (a helper throwing for what the request sent) is reported, not thrown.
  const problems: string[] = [];
  const body = render?.body && context ? render.body(context, seedKey, problems) : scenario.body;
  const headers = render?.headers && context ? headerTexts(render.headers(context, seedKey, problems)) : scenario.headers;
  const answer: BuiltResponse = {
    status: scenario.status,
    contentType: headers['content-type'] ?? plan?.contentType ?? 'application/json',
    headers: plan ? { ...plan.sampleHeaders, ...headers } : headers,
    body,
    // A rendered body may hold a request's number kept exact (an int64 id sent above 2^53).
    exact: render?.body !== null && render !== null,
    choiceKind: 'scenario',
    scenario: scenario.name,
    plan,
    bodyViolations: null,
  };
  const typed = render?.body && context ? typedByItsSchema(answer) : answer;
  return problems.length === 0 ? typed : { ...typed, bodyViolations: [...problems, ...(typed.bodyViolations ?? checkBody(typed))] };
}

/**
 * A path or query value is text (`{{request.path.id}}` renders "42"): where the schema wants a
 * number or a boolean there, the text that spells one is answered as one, so a templated body stays
 * valid for integer and boolean properties.
 */
function typedByItsSchema(answer: BuiltResponse): BuiltResponse {
  const violations = checkBody(answer);
  if (violations.length === 0) return { ...answer, bodyViolations: violations };
  let body = answer.body;
  for (const violation of violations) {
    const pointer = violation.slice(0, violation.indexOf(':'));
    const found = valueAtPointer(body, pointer === '/' ? '' : pointer);
    if (!found || typeof found.value !== 'string') continue;
    const typed = spelledValue(found.value);
    if (typed !== undefined) body = replacedAt(body, pointer === '/' ? [] : pointer.slice(1).split('/').map(unescapeToken), typed);
  }
  if (body === answer.body) return { ...answer, bodyViolations: violations };
  const retyped = { ...answer, body };
  const left = checkBody(retyped);
  return left.length < violations.length ? { ...retyped, bodyViolations: left } : { ...answer, bodyViolations: violations };
}

/** The number, boolean or null a text spells; undefined when it spells none. */
function spelledValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    // Digits a double would round stay exact.
    return Number.isSafeInteger(Number(text)) || text.includes('.') || /[eE]/.test(text) ? Number(text) : new LosslessNumber(text);
  }
  return undefined;
}

function replacedAt(tree: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(tree)) return tree.map((item, i) => (String(i) === head ? replacedAt(item, rest, value) : item));
  if (tree !== null && typeof tree === 'object') {
    const copy: Record<string, unknown> = { ...(tree as Record<string, unknown>) };
    Object.defineProperty(copy, head, { value: replacedAt(copy[head], rest, value), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return tree;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Rendered header values as text a header can carry. */
function headerTexts(rendered: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rendered as Record<string, unknown>)) {
    headers[name] = headerSafe(typeof value === 'string' ? value : typeof value === 'object' && value !== null && !isLosslessNumber(value) ? JSON.stringify(value) : String(value ?? ''));
  }
  return headers;
}
