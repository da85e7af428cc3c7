// Error answers in the API's own words. For a status, the operation's documented response for it
// (else `4XX`, else `default`, else the one it documents for 400) gives the shape: integer fields
// carry the status, a message-like string field (or an `errors: [{message}]` list) carries the
// text, other required fields come from an example or generated data. A response documented for
// the status itself (or its range) is followed even where no field can carry the text: its
// example, its text media type, data generated from its schema, or no body when it documents
// none. Each status is compiled when first needed; where nothing documented fits, the answer is
// RFC 9457 problem+json.
import statuses from 'statuses';
import type { LoadedDocument } from './load-document.js';
import type { ErrorRenderer, ResponsePlan } from './compiled-model.js';
import { deref, objectView, schemaTypes } from './schema-view.js';
import { documentedResponse } from './documented-response.js';
import { isTextMediaType } from './media-types.js';
import { problem } from './problem-details.js';

const MESSAGE_FIELDS = ['message', 'detail', 'details', 'description', 'error_description', 'title', 'reason', 'msg', 'error'];

type Template = (status: number, message: string) => unknown;

export function compileErrorRenderer(
  spec: LoadedDocument,
  responses: Map<string, ResponsePlan>,
  generate: (schemaPointer: string) => unknown,
): ErrorRenderer {
  const cache = new Map<number, ErrorRenderer>();
  const rendererFor = (status: number) => {
    let renderer = cache.get(status);
    if (!renderer) cache.set(status, (renderer = compileStatus(spec, responses, status, generate)));
    return renderer;
  };
  // Each status is compiled when first needed, like the validators it uses.
  return (status, message, violations) => rendererFor(status)(status, message, violations);
}

/**
 * The status a request that breaks the contract gets: 400, unless the API documents no 400 (nor
 * 4XX) but a 422, as APIs that validate with 422 do (FastAPI, Rails): then 422, in its shape.
 */
export function invalidRequestStatus(responses: ReadonlyMap<string, ResponsePlan>): number {
  return !responses.has('400') && !responses.has('4XX') && responses.has('422') ? 422 : 400;
}

function compileStatus(
  spec: LoadedDocument,
  responses: Map<string, ResponsePlan>,
  status: number,
  generate: (schemaPointer: string) => unknown,
): ErrorRenderer {
  const plan = documentedFor(responses, status);
  const template = compileTemplate(spec, plan, status, generate);
  if (template) {
    const { contentType } = template.plan;
    return (code, message) => ({ contentType, body: template.template(code, message), headers: template.plan.sampleHeaders });
  }
  // `default` may describe anything (even the success); only a response documented for this
  // status or its range is followed where no field can carry the message.
  const own = plan !== null && plan.key !== 'default' && plan === documentedResponse(responses, status) ? plan : null;
  const fixed = own ? documentedBody(own, generate) : null;
  if (own && fixed) return () => ({ contentType: own.contentType, body: fixed.body, headers: own.sampleHeaders });
  if (own && own.contentType !== null && isTextMediaType(own.contentType)) {
    const html = own.contentType.toLowerCase().startsWith('text/html');
    return (code, message) => ({ contentType: own.contentType, body: html ? htmlPage(code, message) : message, headers: own.sampleHeaders });
  }
  return (code, message, violations) => problem(code, message, violations);
}

/**
 * The body a documented error response gives when no field of it can carry the message: its
 * first example, else data generated from its schema (when that data fits), else nothing when it
 * documents no content. Null when none of these applies.
 */
function documentedBody(plan: ResponsePlan, generate: (schemaPointer: string) => unknown): { body: unknown } | null {
  if (plan.contentType === null) return { body: undefined };
  const [example] = plan.examples.values();
  if (example !== undefined) return { body: example };
  if (!plan.schemaPointer || !plan.validateBody) return null;
  const generated = generate(plan.schemaPointer);
  return plan.validateBody(generated).length === 0 ? { body: generated } : null;
}

/** A minimal HTML page for an API whose errors are HTML; the message is escaped. */
function htmlPage(status: number, message: string): string {
  const title = `${status} ${statuses.message[status] ?? 'Error'}`;
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
 * (`{"error": {"code", "message"}}`), or a list of such objects (`{"errors": [{"message"}]}`, one
 * item), gets a template of its own; failing that, the first required string field takes the text.
 */
function objectTemplate(spec: LoadedDocument, schema: unknown, sample: () => unknown, depth: number): { template: Template; carriesMessage: boolean } | null {
  const view = objectView(spec, schema);
  if (!view || depth > 3) return null;
  const statusFields: string[] = [];
  const stringFields: string[] = [];
  const objectFields: string[] = [];
  const listFields: string[] = [];
  for (const [name, property] of view.properties) {
    const types = schemaTypes(deref(spec, property));
    if (types.includes('integer') || types.includes('number')) statusFields.push(name);
    else if (types.includes('string')) stringFields.push(name);
    else if (types.includes('array')) listFields.push(name);
    else if (types.includes('object') || objectView(spec, property)) objectFields.push(name);
  }
  let messageField = MESSAGE_FIELDS.find((name) => stringFields.includes(name)) ?? null;
  const nested = new Map<string, Template>();
  if (!messageField) {
    for (const name of objectFields) {
      const inner = objectTemplate(spec, view.properties.get(name), () => propertyOf(sample(), name), depth + 1);
      if (inner?.carriesMessage) nested.set(name, inner.template);
    }
    for (const name of listFields) {
      const items = deref(spec, view.properties.get(name)).items;
      const inner = objectTemplate(spec, items, () => firstItem(propertyOf(sample(), name)), depth + 1);
      if (inner?.carriesMessage) nested.set(name, (status, message) => [inner.template(status, message)]);
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

function firstItem(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

function propertyOf(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}
