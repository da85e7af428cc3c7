// What the stub sends out, compiled once at start-up: OpenAPI 3.1 `webhooks` (by their key, as the
// document writes it) and each operation's 3.0 `callbacks` (with the runtime expression that names
// their URL). For each: the request the stub makes, a validator for its body, the documented
// example, data generated from the schema, and the documented header parameters' values.
import type { DataGenerator } from '../generate/data-generator.js';
import type { LoadedDocument } from './load-document.js';
import type { SchemaCompiler, Validator } from './schema-compiler.js';
import { followRefs } from './follow-ref.js';
import { headerSafe } from './header-value.js';
import { isSchema, type Schema } from './schema-view.js';
import { escapePointerToken } from '../common/json-pointer.js';

export interface OutboundPlan {
  /** The webhook's key (`newPlant`, `/plant/webhook`) or the callback's name. */
  name: string;
  method: string;
  /** The body's media type; null when the document gives the request no body. */
  contentType: string | null;
  /** Checks a candidate body against the documented schema; null when there is none. */
  validate: Validator | null;
  /** The documented example of the body, if any. */
  example: unknown;
  /** Data generated from the body's schema (seeded by `key`); undefined without a schema. */
  generate: (key: string) => unknown;
  /** Documented header parameters, with their example (or generated) values. */
  headers: Readonly<Record<string, string>>;
}

export interface CallbackPlan extends OutboundPlan {
  /** Where it goes: a runtime expression such as `{$request.body#/callbackUrl}`. */
  expression: string;
}

const METHODS = ['post', 'put', 'patch', 'get', 'delete'];

/** The document's webhooks by key; empty for documents without any (3.0). */
export function compileWebhooks(spec: LoadedDocument, compiler: SchemaCompiler, generator: DataGenerator): Map<string, OutboundPlan> {
  const webhooks = new Map<string, OutboundPlan>();
  const listed = isSchema(spec.document.webhooks) ? spec.document.webhooks : {};
  for (const [name, pathItem] of Object.entries(listed)) {
    const plan = firstOperation(spec, compiler, generator, name, pathItem, `/webhooks/${escapePointerToken(name)}`);
    if (plan) webhooks.set(name, plan);
  }
  return webhooks;
}

/** An operation's callbacks, one per callback name and expression. */
export function compileCallbacks(spec: LoadedDocument, compiler: SchemaCompiler, generator: DataGenerator, operation: Schema, pointer: string): CallbackPlan[] {
  if (!isSchema(operation.callbacks)) return [];
  const plans: CallbackPlan[] = [];
  for (const [name, raw] of Object.entries(operation.callbacks)) {
    const at = `${pointer}/callbacks/${escapePointerToken(name)}`;
    const callback = followRefs(spec, raw, at);
    if (!isSchema(callback.value)) continue;
    for (const [expression, pathItem] of Object.entries(callback.value)) {
      const plan = firstOperation(spec, compiler, generator, name, pathItem, `${callback.pointer}/${escapePointerToken(expression)}`);
      if (plan) plans.push({ ...plan, expression });
    }
  }
  return plans;
}

function firstOperation(spec: LoadedDocument, compiler: SchemaCompiler, generator: DataGenerator, name: string, raw: unknown, pointer: string): OutboundPlan | null {
  const pathItem = followRefs(spec, raw, pointer);
  const item = pathItem.value;
  if (!isSchema(item)) return null;
  const method = METHODS.find((m) => isSchema(item[m]));
  if (!method) return null;
  const operation = item[method] as Schema;
  const operationPointer = `${pathItem.pointer}/${method}`;
  const body = followRefs(spec, operation.requestBody, `${operationPointer}/requestBody`);
  const content = isSchema(body.value) && isSchema(body.value.content) ? body.value.content : {};
  const contentType = Object.keys(content).find((type) => /json/i.test(type)) ?? Object.keys(content)[0] ?? null;
  const media = contentType ? content[contentType] : null;
  const schemaPointer = isSchema(media) && media.schema !== undefined ? `${body.pointer}/content/${escapePointerToken(contentType!)}/schema` : null;
  return {
    name,
    method: method.toUpperCase(),
    contentType,
    validate: schemaPointer ? compiler.compile(schemaPointer) : null,
    example: isSchema(media) ? exampleOf(spec, media) : undefined,
    generate: (key) => (schemaPointer ? generator.generate(schemaPointer, key) : undefined),
    headers: headerValues(spec, generator, [...list(item.parameters), ...list(operation.parameters)], operationPointer),
  };
}

function exampleOf(spec: LoadedDocument, media: Schema): unknown {
  if (media.example !== undefined) return media.example;
  const first = isSchema(media.examples) ? Object.values(media.examples)[0] : undefined;
  const resolved = followRefs(spec, first, '').value;
  return isSchema(resolved) ? resolved.value : undefined;
}

function headerValues(spec: LoadedDocument, generator: DataGenerator, parameters: unknown[], pointer: string): Record<string, string> {
  const headers: Record<string, string> = {};
  parameters.forEach((raw, i) => {
    const parameter = followRefs(spec, raw, `${pointer}/parameters/${i}`);
    const value = parameter.value;
    if (!isSchema(value) || value.in !== 'header' || typeof value.name !== 'string') return;
    const schema = isSchema(value.schema) ? value.schema : null;
    const sample = value.example ?? schema?.example ?? schema?.default ?? (schema ? generator.generate(`${parameter.pointer}/schema`, 'header') : undefined);
    if (sample !== undefined && sample !== null) headers[value.name.toLowerCase()] = headerSafe(typeof sample === 'string' ? sample : JSON.stringify(sample));
  });
  return headers;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
