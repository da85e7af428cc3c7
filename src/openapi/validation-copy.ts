// The copy of the document that Ajv reads. Ajv takes the whole document as one schema, so what is
// data rather than schema (examples, extensions) is left out of it, and the constructs real
// documents carry that Ajv refuses are turned into what they mean. Each such change is a warning
// the user can read; the document the rest of the stub reads is never changed.
import { RE2JS } from 're2js';
import { escapePointerToken } from '../shared/json-pointer.js';
import { isObject } from '../shared/json-value.js';
import type { OpenApiVersion } from './load-document.js';
import type { DocumentWarning } from './document-warnings.js';

/** Keys whose value maps names to things (property names, status codes, media types, paths…). */
const NAME_MAPS = new Set([
  'properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'parameters', 'responses',
  'headers', 'content', 'paths', 'securitySchemes', 'requestBodies', 'callbacks', 'links', 'webhooks', 'pathItems',
  'encoding', 'variables', 'mapping',
]);
/** Values that are data: copied as they are, never read as schema. */
const VERBATIM = new Set(['default', 'enum', 'const']);
/** Data Ajv has no use for and would read ids out of (`{"id": "v2.0"}` inside an example). */
const LEFT_OUT = new Set(['example', 'examples']);

export function validationCopy(document: object, version: OpenApiVersion, file: string, warnings: DocumentWarning[]): object {
  const warn = (pointer: string, kind: string, reason: string) => warnings.push({ file, pointer, kind, reason });

  const copyNode = (node: unknown, pointer: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => copyNode(item, `${pointer}/${i}`));
    if (!isObject(node)) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (LEFT_OUT.has(key) || (key.startsWith('x-') && !key.startsWith('x-stub-'))) continue;
      if (key === 'itemSchema') warn(at, 'OpenAPI 3.2 feature not served', 'streamed items (`itemSchema`) are not validated or generated item by item');
      if (key === 'in' && value === 'querystring') warn(pointer, 'OpenAPI 3.2 feature not served', 'a `querystring` parameter (the whole query as one value) is not validated');
      if (VERBATIM.has(key)) {
        if (key === 'enum' && Array.isArray(value) && value.length === 0) {
          warn(at, 'empty enum', 'an empty `enum` would refuse every value; it is ignored');
          continue;
        }
        copy[key] = value;
      } else if (key === 'pattern' && typeof value === 'string' && !linearTimePattern(value)) {
        warn(at, 'unsupported pattern', `the pattern ${JSON.stringify(value)} needs backtracking (lookaround or backreferences) or is not valid; it is not enforced`);
      } else if (NAME_MAPS.has(key) && isObject(value)) {
        copy[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, copyNode(item, `${at}/${escapePointerToken(name)}`)]));
      } else {
        copy[key] = copyNode(value, at);
      }
    }
    // `allOf: [X, {nullable: true}]` says the same as a `nullable` beside the allOf.
    if (version === '3.0' && Array.isArray(node.allOf) && node.allOf.some(isBareNullable) && Array.isArray(copy.allOf)) {
      copy.allOf = copy.allOf.filter((_member, i) => !isBareNullable((node.allOf as unknown[])[i]));
      if (copy.type === undefined) copy.nullable = true;
    }
    // `nullable: false` without a type says nothing (Ajv refuses it).
    if (copy.nullable === false && copy.type === undefined) delete copy.nullable;
    // OpenAPI 3.0's `nullable` only widens an explicit `type`; documents also write it beside
    // allOf/oneOf/$ref to mean "or null", which is how it is read here (Ajv refuses it as is).
    if (version === '3.0' && copy.nullable === true && copy.type === undefined) {
      delete copy.nullable;
      warn(`${pointer}/nullable`, 'nullable without type', '`nullable: true` without `type` is read as "this schema, or null"');
      return { anyOf: [{ type: 'null' }, copy] };
    }
    return copy;
  };
  return copyNode(document, '') as object;
}

const ANNOTATIONS = new Set(['nullable', 'description', 'title']);

/** `{nullable: true}` alone (with annotations at most): a member of allOf that only says "or null". */
function isBareNullable(schema: unknown): boolean {
  return isObject(schema) && schema.nullable === true && Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

/** Whether the linear-time engine (RE2) can match this pattern; see schema-compiler.ts. */
function linearTimePattern(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}
