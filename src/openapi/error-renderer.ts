// Error answers in the API's own words. For a status, the operation's documented response for it
// (else `4XX`, else `default`, else the one it documents for 400) gives the shape: integer fields
// carry the status, a message-like string field carries the text, other required fields come from
// an example or generated data. The template is checked against its schema when the status is first needed; where no
// documented shape fits, the answer is RFC 9457 problem+json.
import { STATUS_CODES } from 'node:http';
import type { LoadedDocument } from './load-document.js';
import type { ResponsePlan } from './compile-operations.js';
import { deref, objectView, schemaTypes } from './schema-view.js';
import { documentedResponse } from './documented-response.js';

export interface RenderedError {
  contentType: string;
  body: unknown;
}

export type ErrorRenderer = (status: number, message: string, violations: string[]) => RenderedError;

const MESSAGE_FIELDS = ['message', 'detail', 'details', 'description', 'error_description', 'title', 'reason', 'msg', 'error'];

type Template = (status: number, message: string) => Record<string, unknown>;

export function compileErrorRenderer(
  spec: LoadedDocument,
  responses: Map<string, ResponsePlan>,
  generate: (schemaPointer: string) => unknown,
): ErrorRenderer {
  const cache = new Map<number, { plan: ResponsePlan; template: Template } | null>();
  const templateFor = (status: number) => {
    if (!cache.has(status)) cache.set(status, compileTemplate(spec, documentedFor(responses, status), status, generate));
    return cache.get(status)!;
  };
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

/** The documented shape for a status; a 4xx the API does not document borrows its 400 shape. */
function documentedFor(responses: Map<string, ResponsePlan>, status: number): ResponsePlan | null {
  return documentedResponse(responses, status) ?? (status > 400 && status < 500 ? documentedResponse(responses, 400) : null);
}

function compileTemplate(
  spec: LoadedDocument,
  plan: ResponsePlan | null,
  status: number,
  generate: (schemaPointer: string) => unknown,
): { plan: ResponsePlan; template: Template } | null {
  if (!plan?.schemaPointer || !plan.validateBody) return null;
  const pointer = plan.schemaPointer;
  // Fields the error needs beyond status and message keep a value from the documented example,
  // else generated data; computed only if some template asks for it.
  let sample: { value: unknown } | null = null;
  const sampleValue = () => (sample ??= { value: plan.examples.values().next().value ?? generate(pointer) }).value;
  const compiled = objectTemplate(spec, spec.resolveRef(`#${pointer}`), sampleValue, 0);
  // A shape with no place for the text would lose the violations: problem+json says more.
  if (!compiled?.carriesMessage) return null;
  const { template } = compiled;
  // Only a shape that holds for this status may be used (a status field may be an enum of some
  // codes only); otherwise problem+json it is.
  return plan.validateBody(template(status, 'x')).length === 0 ? { plan, template } : null;
}

/**
 * The template of one error object. Integer fields carry the status, a message-like string field
 * the text. Where this level has no message-like field, an object field that has one
 * (`{"error": {"code", "message"}}`) gets a template of its own; failing that, the first required
 * string field takes the text.
 */
function objectTemplate(spec: LoadedDocument, schema: unknown, sample: () => unknown, depth: number): { template: Template; carriesMessage: boolean } | null {
  const view = objectView(spec, schema);
  if (!view || depth > 3) return null;
  const statusFields: string[] = [];
  const stringFields: string[] = [];
  const objectFields: string[] = [];
  for (const [name, property] of view.properties) {
    const types = schemaTypes(deref(spec, property));
    if (types.includes('integer') || types.includes('number')) statusFields.push(name);
    else if (types.includes('string')) stringFields.push(name);
    else if (types.includes('object') || objectView(spec, property)) objectFields.push(name);
  }
  let messageField = MESSAGE_FIELDS.find((name) => stringFields.includes(name)) ?? null;
  const nested = new Map<string, Template>();
  if (!messageField) {
    for (const name of objectFields) {
      const inner = objectTemplate(spec, view.properties.get(name), () => propertyOf(sample(), name), depth + 1);
      if (inner?.carriesMessage) nested.set(name, inner.template);
    }
    if (nested.size === 0) messageField = stringFields.find((name) => view.required.has(name)) ?? null;
  }
  const others = [...view.required].filter((name) => name !== messageField && !statusFields.includes(name) && !nested.has(name));
  const template: Template = (status, message) => {
    const body: Record<string, unknown> = {};
    for (const name of others) {
      const value = propertyOf(sample(), name);
      if (value !== undefined) body[name] = value;
    }
    for (const name of statusFields) body[name] = status;
    if (messageField) body[messageField] = message;
    for (const [name, inner] of nested) body[name] = inner(status, message);
    return body;
  };
  return { template, carriesMessage: messageField !== null || nested.size > 0 };
}

function propertyOf(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}
