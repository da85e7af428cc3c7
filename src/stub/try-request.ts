// GET /__admin/try?operation=KEY: what the admin page's "Try it" form needs to build a request to
// one operation, read from the document as written: its parameters (path, query, header) with an
// example value, a body prefilled with the request example (else data generated from the body's
// schema, seeded), and where the credential goes.
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { isJsonMediaType } from '../openapi/media-types.js';
import { resolvedRef } from '../scenarios/fixture-schema.js';

type Json = Record<string, unknown>;

export interface TryRequest {
  operation: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header'; required: boolean; value: string }>;
  /** The body to prefill; null when the operation takes none. */
  body: { contentType: string; text: string } | null;
  /** Where the credential goes, with a value the stub accepts (any token unless --token names some). */
  credential: { in: 'header' | 'query'; name: string; value: string } | null;
}

export function tryRequest(document: Json, operation: CompiledOperation, token: string | undefined): TryRequest {
  const pathItemPointer = `/paths/${escapePointerToken(operation.path)}`;
  const item = resolvedRef(document, (document.paths as Json | undefined)?.[operation.path]) ?? {};
  const raw = resolvedRef(document, item[operation.method.toLowerCase()]) ?? {};
  const parameters = new Map<string, TryRequest['parameters'][number]>();
  for (const listed of [item.parameters, raw.parameters]) {
    for (const entry of Array.isArray(listed) ? listed : []) {
      const parameter = resolvedRef(document, entry);
      if (!parameter || !['path', 'query', 'header'].includes(String(parameter.in)) || typeof parameter.name !== 'string') continue;
      parameters.set(`${parameter.in}:${parameter.name}`, {
        name: parameter.name, in: parameter.in as 'path' | 'query' | 'header', required: parameter.in === 'path' || parameter.required === true, value: exampleText(document, parameter),
      });
    }
  }
  return {
    operation: operation.key,
    method: operation.method,
    path: operation.path,
    parameters: [...parameters.values()],
    body: bodyOf(document, operation, raw.requestBody, `${pathItemPointer}/${operation.method.toLowerCase()}/requestBody`),
    credential: credentialOf(document, raw, token),
  };
}

/** A parameter's example (its own, its schema's, its default or first enum value), as text; '' when it has none. */
function exampleText(document: Json, parameter: Json): string {
  const schema = resolvedRef(document, parameter.schema) ?? {};
  const named = isObject(parameter.examples) ? resolvedRef(document, Object.values(parameter.examples)[0])?.value : undefined;
  const value = parameter.example ?? named ?? schema.example ?? schema.default ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
  if (value === undefined) return schema.type === 'integer' || schema.type === 'number' ? '1' : '';
  return Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function bodyOf(document: Json, operation: CompiledOperation, raw: unknown, pointer: string): TryRequest['body'] {
  if (raw === undefined) return null;
  const reference = isObject(raw) && typeof raw.$ref === 'string' && raw.$ref.startsWith('#/') ? raw.$ref.slice(1) : null;
  const body = resolvedRef(document, raw);
  const content = isObject(body?.content) ? body.content : {};
  const [contentType, media] = Object.entries(content).find(([type]) => isJsonMediaType(type)) ?? Object.entries(content)[0] ?? [];
  if (contentType === undefined) return null;
  const mediaObject = resolvedRef(document, media) ?? {};
  const named = isObject(mediaObject.examples) ? resolvedRef(document, Object.values(mediaObject.examples)[0])?.value : undefined;
  let value = mediaObject.example ?? named;
  if (value === undefined && mediaObject.schema !== undefined) {
    const schemaPointer = `${reference ?? pointer}/content/${escapePointerToken(contentType)}/schema`;
    value = operation.generate(schemaPointer, `try ${operation.key}`, false);
  }
  const text = value === undefined ? '' : typeof value === 'string' && !isJsonMediaType(contentType) ? value : JSON.stringify(value, null, 2);
  return { contentType, text };
}

/** The operation's first security requirement (else the document's) that names a scheme the form can fill. */
function credentialOf(document: Json, operation: Json, token: string | undefined): TryRequest['credential'] {
  const requirements = (operation.security ?? document.security) as Array<Record<string, unknown>> | undefined;
  const schemes = (isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {}) as Json;
  for (const requirement of requirements ?? []) {
    for (const name of Object.keys(requirement)) {
      const scheme = resolvedRef(document, schemes[name]);
      if (!scheme) continue;
      const secret = token ?? 'any-token';
      if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return { in: 'header', name: 'authorization', value: `Bearer ${secret}` };
      if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return { in: 'header', name: 'authorization', value: `Basic ${btoa('user:password')}` };
      if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { in: 'header', name: 'authorization', value: `Bearer ${secret}` };
      if (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && typeof scheme.name === 'string') return { in: scheme.in, name: scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name, value: secret };
    }
  }
  return null;
}
