// A JSON Schema (2020-12) of fixture files for one document, for editors: `operation` as an enum of
// its operations, each operation's documented statuses, and each status's body schema, so VS Code's
// YAML extension (through a `# yaml-language-server: $schema=...` first line) completes names,
// statuses and body fields and underlines what the start would refuse. Read from the document as
// written (its schemas copied under $defs), so a big document's operations are not compiled for it.
import { FAULTS } from '../common/faults.js';
import { isObject } from '../common/json-value.js';
import type { CompiledSpec } from '../openapi/compiled-model.js';
import { isJsonMediaType } from '../openapi/media-types.js';

type Json = Record<string, unknown>;

const DELAY_MS = { type: 'integer', minimum: 0, maximum: 60_000 };

export function fixtureSchema(compiled: CompiledSpec, document: Json): Json {
  const paths = isObject(document.paths) ? document.paths : {};
  const names = compiled.operations.flatMap((op) => (op.operationId ? [op.key, op.operationId] : [op.key]));
  const perOperation = compiled.operations.map((op) => {
    const item = resolvedRef(document, (paths as Json)[op.path]);
    const operation = resolvedRef(document, item?.[op.method.toLowerCase()]);
    return {
      if: { properties: { operation: { enum: op.operationId ? [op.key, op.operationId] : [op.key] } } },
      then: { properties: { scenarios: { additionalProperties: scenarioSchema(document, operation?.responses, op.key) } } },
    };
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `Fixture file for ${compiled.title}`,
    description: 'One operation\'s scripted scenarios (docs/scenarios-and-fixtures.md).',
    type: 'object',
    required: ['operation'],
    additionalProperties: false,
    properties: {
      operation: { description: 'METHOD /path, or an operationId', enum: names },
      description: { type: 'string' },
      scenarios: { type: 'object', propertyNames: { pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' } },
      webhooks: { type: 'array', items: compiled.webhooks.size > 0 ? { enum: [...compiled.webhooks.keys()] } : { type: 'string' } },
      sequence: { description: 'scenario names answered in order, one per request (default: the stub\'s own answer)', type: 'array', minItems: 1, items: { type: 'string' } },
      after: { enum: ['last', 'repeat', 'default'] },
    },
    allOf: perOperation,
    $defs: { components: rewriteRefs(document.components ?? {}) },
  };
}

/** One operation's scenario: its documented statuses, each with its body schema. */
function scenarioSchema(document: Json, responses: unknown, key: string): Json {
  const documented = isObject(responses) ? Object.entries(responses) : [];
  const statuses = documented.map(([status]) => statusSchema(status));
  const bodies = documented.flatMap(([status, raw]) => {
    const schema = jsonSchemaOf(document, resolvedRef(document, raw));
    return schema === undefined ? [] : [{ if: { properties: { status: statusSchema(status) }, required: ['status'] }, then: { properties: { body: rewriteRefs(schema) } } }];
  });
  return {
    type: 'object',
    description: `a scenario of ${key}`,
    required: ['status'],
    additionalProperties: false,
    properties: {
      status: statuses.length > 0 ? { anyOf: statuses } : { type: 'integer' },
      description: { type: 'string' },
      headers: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
      body: {},
      delay: { anyOf: [DELAY_MS, spread('min', 'max'), spread('median', 'p99')] },
      fault: { enum: [...FAULTS] },
      webhooks: { type: 'array', items: { type: 'string' } },
      match: { type: 'object', additionalProperties: false, properties: { path: { type: 'object' }, query: { type: 'object' }, headers: { type: 'object' }, body: {} } },
      times: { type: 'integer', minimum: 1 },
      chance: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      events: { type: 'array' },
    },
    allOf: bodies,
  };
}

function spread(low: string, high: string): Json {
  return { type: 'object', required: [low, high], additionalProperties: false, properties: { [low]: DELAY_MS, [high]: DELAY_MS } };
}

/** `200` -> 200; `4XX` -> 400 to 499; `default` -> any status. */
function statusSchema(key: string): Json {
  if (/^\d{3}$/.test(key)) return { const: Number(key) };
  const range = /^([1-5])XX$/i.exec(key);
  if (range) return { type: 'integer', minimum: Number(range[1]) * 100, maximum: Number(range[1]) * 100 + 99 };
  return { type: 'integer', minimum: 100, maximum: 599 };
}

/** The schema of a response's JSON media type, if it has one. */
function jsonSchemaOf(document: Json, response: Json | undefined): unknown {
  const content = response?.content;
  if (!isObject(content)) return undefined;
  const json = Object.entries(content).find(([type, media]) => isJsonMediaType(type) && isObject(media) && media.schema !== undefined);
  return json ? (json[1] as Json).schema : undefined;
}

/** Follows internal `$ref`s to an object (responses and path items are often references). */
export function resolvedRef(document: Json, value: unknown, hops = 0): Json | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref !== 'string' || hops > 16) return value;
  const ref = value.$ref;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const token of ref.slice(2).split('/')) node = isObject(node) ? node[token.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return resolvedRef(document, node, hops + 1);
}

/** A copy whose `#/components/...` references point into this schema's `$defs/components`. */
function rewriteRefs(value: unknown): any {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isObject(value)) return value;
  const copy: Json = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') copy.$ref = member.startsWith('#/components/') ? `#/$defs/components/${member.slice('#/components/'.length)}` : member;
    // 3.0's `nullable` is no JSON Schema keyword: an editor reads it as a type that admits null.
    else if (key === 'nullable') continue;
    else copy[key] = rewriteRefs(member);
  }
  if (value.nullable === true && typeof value.type === 'string') copy.type = [value.type, 'null'];
  return copy;
}

