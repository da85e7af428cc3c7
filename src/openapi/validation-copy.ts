// The copy of the document that Ajv reads. Ajv takes the whole document as one schema, so what is
// data rather than schema (examples, extensions) is left out of it, and the constructs real
// documents carry that Ajv refuses are turned into what they mean. Each such change is a warning
// the user can read; the document the rest of the stub reads is never changed. Integer schemas
// are marked for the stub's exact-integer keyword on the way (one walk over the document, not
// two: on GitHub's 13 MB document each walk costs about 0.1 s of start-up).
import { re2 } from './re2.js';
import { escapePointerToken, valueAtRef } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';
import { branchDiscriminator, branchTags } from '../common/discriminator.js';
import type { OpenApiVersion } from './load-document.js';
import type { Warn } from './document-warnings.js';
import { UNIQUE_ITEMS } from './unique-items-keyword.js';
import { RelativeUris } from './relative-uris.js';

/** Keys whose value maps names to things (property names, status codes, media types, paths…). */
const NAME_MAPS = new Set([
  'properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'parameters', 'responses',
  'headers', 'content', 'paths', 'securitySchemes', 'requestBodies', 'callbacks', 'links', 'webhooks', 'pathItems',
  'encoding', 'variables', 'mapping',
]);
/** The keyword that checks integers against their exact text (see schema-compiler.ts). */
export const EXACT_INTEGER = 'x-stub-exact-integer';

/** Values that are data: copied as they are, never read as schema. */
const VERBATIM = new Set(['default', 'enum', 'const']);
/** Data Ajv has no use for and would read ids out of (`{"id": "v2.0"}` inside an example). */
const LEFT_OUT = new Set(['example', 'examples']);

/** Where a node sits, as a chain of keys: spelled out as a JSON pointer only for a warning. */
type Path = { parent: Path; key: string } | null;

function pointerOf(path: Path): string {
  const keys: string[] = [];
  for (let at = path; at; at = at.parent) keys.push(`/${escapePointerToken(at.key)}`);
  return keys.reverse().join('');
}

export function validationCopy(document: object, version: OpenApiVersion, file: string, report: Warn): object {
  const copier = new ValidationCopier(document, version, (path, kind, reason) => report({ file, pointer: pointerOf(path), kind, reason }));
  const copied = copier.copyNode(document, null) as object;
  copier.relativeUris.apply((pointer, name) => report({
    file, pointer: `${pointer}/format`, kind: 'relative uri examples',
    reason: `\`format: uri\`, but the document's examples give \`${name}\` a path relative to the API's host; read as \`uri-reference\``,
  }));
  return copied;
}

/** One walk over the document making Ajv's copy: each object's keys copied, then what Ajv would refuse read as its author meant. */
class ValidationCopier {
  /** Each pattern of the document: whether RE2 runs it (in linear time). */
  private readonly linearTime = new Map<string, boolean>();
  /** `format: uri` properties whose examples are relative, read as `uri-reference` once the walk has seen them all. */
  readonly relativeUris = new RelativeUris();

  constructor(
    private readonly document: object,
    private readonly version: OpenApiVersion,
    private readonly warn: (path: Path, kind: string, reason: string) => void,
  ) {}

  copyNode(node: unknown, path: Path): unknown {
    if (Array.isArray(node)) return node.map((item, i) => this.copyNode(item, { parent: path, key: String(i) }));
    if (!isObject(node)) return node;
    return this.asMeant(node, this.copyKeys(node, path), path);
  }

  /** An object's keys as Ajv reads them: data copied as it is, examples and extensions left out, what Ajv cannot enforce left out with a warning. */
  private copyKeys(node: Record<string, unknown>, path: Path): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const key in node) {
      const value = node[key];
      if (LEFT_OUT.has(key)) this.relativeUris.readExamples(value);
      if (LEFT_OUT.has(key) || key.startsWith('x-')) continue;
      const at = { parent: path, key };
      if (key === 'in' && value === 'querystring') this.warn(path, 'OpenAPI 3.2 feature not served', 'a `querystring` parameter (the whole query as one value) is not validated');
      if (VERBATIM.has(key)) {
        if (key === 'enum' && Array.isArray(value) && value.length === 0) {
          this.warn(at, 'empty enum', 'an empty `enum` would refuse every value; it is ignored');
          continue;
        }
        copy[key] = value;
      } else if (key === 'uniqueItems') {
        // Ajv's own check is quadratic on arrays of objects; ours is linear (unique-items-keyword.ts).
        if (value === true) copy[UNIQUE_ITEMS] = true;
      } else if (key === 'pattern' && typeof value === 'string' && !memo(this.linearTime, value, linearTimePattern)) {
        this.warn(at, 'unsupported pattern', `the pattern ${JSON.stringify(value)} needs backtracking (lookaround or backreferences) or is not valid; it is not enforced`);
      } else if (NAME_MAPS.has(key) && isObject(value)) {
        const names: Record<string, unknown> = {};
        for (const name in value) names[name] = this.copyNode(value[name], { parent: at, key: name });
        copy[key] = names;
      } else {
        copy[key] = typeof value === 'object' && value !== null ? this.copyNode(value, at) : value;
      }
    }
    return copy;
  }

  /**
   * The copy of `node` with its integers marked for the exact-integer keyword, and the constructs
   * real documents carry that Ajv refuses or reads otherwise turned into what they mean.
   */
  private asMeant(node: Record<string, unknown>, copy: Record<string, unknown>, path: Path): unknown {
    const integer = integerKind(node);
    if (integer) copy[EXACT_INTEGER] = integer;
    if (copy.format === 'uri' && path?.parent?.key === 'properties') this.relativeUris.noteProperty(path.key, copy, pointerOf(path));
    // `allOf: [X, {nullable: true}]` says the same as a `nullable` beside the allOf.
    if (this.version === '3.0' && Array.isArray(node.allOf) && node.allOf.some(isBareNullable) && Array.isArray(copy.allOf)) {
      copy.allOf = copy.allOf.filter((_member, i) => !isBareNullable((node.allOf as unknown[])[i]));
      if (copy.type === undefined) copy.nullable = true;
    }
    if (Array.isArray(node.oneOf) && Array.isArray(copy.oneOf)) copy.oneOf = taggedBranches(this.document, node, copy.oneOf);
    if (node.additionalProperties === false && Array.isArray(node.allOf)) allowBranchProperties(this.document, node, copy, (names) => this.warn(
      { parent: path, key: 'additionalProperties' }, 'additionalProperties: false beside allOf',
      `\`additionalProperties: false\` beside an \`allOf\` whose branches declare ${names.map((name) => `\`${name}\``).join(', ')}: as written no object with them is valid; they are allowed, as \`unevaluatedProperties: false\` would say`,
    ));
    // `nullable: false` without a type says nothing (Ajv refuses it).
    if (copy.nullable === false && copy.type === undefined) delete copy.nullable;
    // OpenAPI 3.0's `nullable` only widens an explicit `type`; documents also write it beside
    // allOf/oneOf/$ref to mean "or null", which is how it is read here (Ajv refuses it as is).
    if (this.version === '3.0' && copy.nullable === true && copy.type === undefined) {
      delete copy.nullable;
      this.warn({ parent: path, key: 'nullable' }, 'nullable without type', '`nullable: true` without `type` is read as "this schema, or null"');
      return { anyOf: [{ type: 'null' }, copy] };
    }
    return copy;
  }
}

/**
 * A common authoring slip read as its author meant: `additionalProperties: false` only sees the
 * schema's own `properties`, so beside an `allOf` whose branches declare the object's properties
 * it refuses every object that has them (a shipping API's own valid creates got its 400). The
 * branches' property names join the copy's own `properties` (unconstrained there: the branches
 * still check them); `report` is told which, once per schema.
 */
function allowBranchProperties(document: object, node: Record<string, unknown>, copy: Record<string, unknown>, report: (names: string[]) => void): void {
  const own = isObject(node.properties) ? node.properties : {};
  const names = [...branchPropertyNames(document, node.allOf as unknown[], new Set())].filter((name) => !Object.hasOwn(own, name));
  if (names.length === 0) return;
  const properties: Record<string, unknown> = isObject(copy.properties) ? { ...copy.properties } : {};
  for (const name of names) properties[name] = {};
  copy.properties = properties;
  report(names);
}

/** The property names the schemas of `branches` declare, their own `allOf`s and `$ref`s followed. */
function branchPropertyNames(document: object, branches: unknown[], seen: Set<unknown>): Set<string> {
  const names = new Set<string>();
  for (let branch of branches) {
    for (let hops = 0; isObject(branch) && typeof branch.$ref === 'string' && hops < 32; hops++) branch = valueAtRef(document, branch.$ref);
    if (!isObject(branch) || seen.has(branch)) continue;
    seen.add(branch);
    if (isObject(branch.properties)) for (const name of Object.keys(branch.properties)) names.add(name);
    if (Array.isArray(branch.allOf)) for (const name of branchPropertyNames(document, branch.allOf, seen)) names.add(name);
  }
  return names;
}

/**
 * A discriminated oneOf's branches, each also requiring its tag values when the tag is sent
 * (discriminator.ts says which): `oneOf: [Cat, Dog]` with `pet_type: {type: string}` in both
 * accepted `{"pet_type": "Cat"}` as both, and JSON Schema refuses a value matching two branches.
 * Ajv's own `discriminator` option needs the tag declared as `const` in each branch and ignores
 * `mapping`, which is not how documents write it.
 */
function taggedBranches(document: object, node: Record<string, unknown>, branches: unknown[]): unknown[] {
  const discriminator = branchDiscriminator(document, node);
  if (!discriminator) return branches;
  return branches.map((branch, i) => {
    const tags = branchTags(document, discriminator, (node.oneOf as unknown[])[i]);
    return tags ? { allOf: [branch, { properties: { [discriminator.propertyName]: { enum: tags } } }] } : branch;
  });
}

function memo<T>(cache: Map<string, T>, key: string, compute: (key: string) => T): T {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = compute(key)));
  return value;
}

/**
 * The exact-integer check a schema needs: its int32/int64 range, or `integer`. Ajv's own `type:
 * integer` and the formats only ever see the rounded double.
 */
function integerKind(schema: Record<string, unknown>): string | null {
  const { type, format } = schema;
  if (format === 'int32' || format === 'int64') return format;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer')) ? 'integer' : null;
}

const ANNOTATIONS = new Set(['nullable', 'description', 'title']);

/** `{nullable: true}` alone (with annotations at most): a member of allOf that only says "or null". */
function isBareNullable(schema: unknown): boolean {
  return isObject(schema) && schema.nullable === true && Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

/** Whether the linear-time engine (RE2) can match this pattern; see schema-compiler.ts. */
function linearTimePattern(pattern: string): boolean {
  try {
    re2().compile(pattern);
    return true;
  } catch {
    return false;
  }
}
