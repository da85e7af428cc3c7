// Error answers in the API's own words. For a status, the operation's documented response for it
// (else `4XX`, else `default`, else the one it documents for 400) gives the shape: integer fields
// carry the status, a message-like string field carries the text, other required fields come from
// an example or generated data. The template is checked against its schema at start-up; where no
// documented shape fits, the answer is RFC 9457 problem+json.
import { STATUS_CODES } from 'node:http';
import type { LoadedSpec } from './load-spec.js';
import type { ResponsePlan } from './compile-operations.js';
import { deref, objectView, schemaTypes } from './schema-view.js';

export interface RenderedError {
  contentType: string;
  body: unknown;
}

export type ErrorRenderer = (status: number, message: string, violations: string[]) => RenderedError;

const MESSAGE_FIELDS = ['message', 'detail', 'details', 'description', 'error_description', 'title', 'reason', 'msg', 'error'];

type Template = (status: number, message: string) => Record<string, unknown>;

export function compileErrorRenderer(
  spec: LoadedSpec,
  responses: Map<string, ResponsePlan>,
  generate: (schemaPointer: string) => unknown,
): ErrorRenderer {
  const cache = new Map<number, { plan: ResponsePlan; template: Template } | null>();
  const templateFor = (status: number) => {
    if (!cache.has(status)) cache.set(status, compileTemplate(spec, documentedFor(responses, status), generate));
    return cache.get(status)!;
  };
  // The statuses the stub itself answers with are compiled now, not on the first failing request.
  for (const status of [400, 401, 404, 405, 413, 415, 422]) templateFor(status);
  return (status, message, violations) => {
    const documented = templateFor(status);
    if (documented) return { contentType: documented.plan.contentType!, body: documented.template(status, message) };
    return problem(status, message, violations);
  };
}

/** An RFC 9457 problem document, for answers the API does not describe. */
export function problem(status: number, detail: string, violations: string[] = [], extra: Record<string, unknown> = {}): RenderedError {
  const body: Record<string, unknown> = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, ...extra };
  if (violations.length > 0) body.violations = violations;
  return { contentType: 'application/problem+json', body };
}

function documentedFor(responses: Map<string, ResponsePlan>, status: number): ResponsePlan | null {
  return (
    responses.get(String(status)) ??
    responses.get(`${Math.floor(status / 100)}XX`) ??
    responses.get('default') ??
    (status !== 400 && status >= 400 && status < 500 ? (responses.get('400') ?? responses.get('4XX')) : undefined) ??
    null
  );
}

function compileTemplate(
  spec: LoadedSpec,
  plan: ResponsePlan | null,
  generate: (schemaPointer: string) => unknown,
): { plan: ResponsePlan; template: Template } | null {
  if (!plan?.schemaPointer || !plan.validateBody) return null;
  const schema = spec.resolveRef(`#${plan.schemaPointer}`);
  const view = objectView(spec, schema);
  if (!view) return null;
  const statusFields: string[] = [];
  const stringFields: string[] = [];
  for (const [name, property] of view.properties) {
    const types = schemaTypes(deref(spec, property));
    if (types.includes('integer') || types.includes('number')) statusFields.push(name);
    else if (types.includes('string')) stringFields.push(name);
  }
  const messageField =
    MESSAGE_FIELDS.find((name) => stringFields.includes(name)) ?? stringFields.find((name) => view.required.has(name)) ?? null;
  // Other required fields keep a value from the documented example, else generated data.
  const others = [...view.required].filter((name) => name !== messageField && !statusFields.includes(name));
  const sample = others.length === 0 ? undefined : (plan.examples.values().next().value ?? generate(plan.schemaPointer));
  const fixed: Record<string, unknown> = {};
  for (const name of others) {
    if (sample && typeof sample === 'object' && name in sample) fixed[name] = (sample as Record<string, unknown>)[name];
  }
  const template: Template = (status, message) => {
    const body: Record<string, unknown> = { ...fixed };
    for (const name of statusFields) body[name] = status;
    if (messageField) body[messageField] = message;
    return body;
  };
  // Only a shape that holds for a typical error may be used; otherwise problem+json it is.
  const ok = [400, 401].every((status) => plan.validateBody!(template(status, 'x')).length === 0);
  return ok ? { plan, template } : null;
}
