// Compiles an operation's parameters (path, query, header, cookie) into one check run per request:
// each value is read in its documented style (parameter-styles.ts), then every location is
// validated at once against an object schema of its parameters, so a client sees all violations.
// Text is coerced to the schema's types by Ajv, except where Ajv's coercion cannot work (below).
import type { LoadedDocument } from './load-document.js';
import type { SchemaCompiler, Validator } from './schema-compiler.js';
import { followRefs } from './follow-ref.js';
import { deref as derefSchema, isSchema, schemaTypes, type Schema } from './schema-view.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { compileReader, defaultStyle, parseCookies, type ParameterLocation, type ParameterReader, type ParameterSources, type ValueKind } from './parameter-styles.js';
import { isJsonMediaType } from './media-types.js';

type RequestHeaders = Record<string, string | string[] | undefined>;

export interface ParameterCheck {
  (pathParams: Record<string, string>, query: URLSearchParams, headers: RequestHeaders): string[];
  /** Every parameter the operation declares (header names lower-case): what a fixture's `match` may name. */
  readonly declared: ReadonlyArray<{ location: ParameterLocation; name: string }>;
  /** The declared parameters marked `deprecated: true` (header names lower-case), which a client is warned about in Prism mode. */
  readonly deprecated: ReadonlyArray<{ location: ParameterLocation; name: string }>;
}

interface Located {
  value: Schema;
  pointer: string;
}

interface ParameterPlan {
  name: string;
  read: ParameterReader;
  /** How the text becomes the value validated: as read (Ajv coerces), parsed as JSON, or coerced here. */
  decode: 'coerce' | 'json' | 'exact';
  types: readonly string[];
  /** One value in the query (a primitive): a key repeated in the query is refused as such, not as the wrong type. */
  once: boolean;
}

interface LocationCheck {
  location: ParameterLocation;
  parameters: ParameterPlan[];
  /** Parameters whose text Ajv coerces. */
  coerced: Validator | null;
  /** Parameters decoded here (JSON content, `oneOf` of types), validated as they are. */
  exact: Validator | null;
}

const LOCATIONS: readonly ParameterLocation[] = ['path', 'query', 'header', 'cookie'];
const NO_CHECK: ParameterCheck = Object.assign(() => [], { declared: [], deprecated: [] });

export function compileParameters(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  pathItem: Located,
  pointer: string,
  operation: Schema,
): ParameterCheck {
  const all = declaredParameters(spec, pathItem, pointer, operation);
  if (all.length === 0) return NO_CHECK;
  // Built on first use, like the validators inside (large documents start without compiling them).
  let checks: LocationCheck[] | null = null;
  const check = (pathParams: Record<string, string>, query: URLSearchParams, headers: RequestHeaders) =>
    checkParameters(checks ??= LOCATIONS.flatMap((location) => compileLocation(spec, compiler, all, location)), pathParams, query, headers);
  return Object.assign(check, { declared: all.map(named), deprecated: all.filter((p) => p.value.deprecated === true).map(named) });
}

/** The parameters of the path item and the operation, whose own override the path's of the same name and location; headers the OpenAPI ignores left out. */
function declaredParameters(spec: LoadedDocument, pathItem: Located, pointer: string, operation: Schema): Located[] {
  const byKey = new Map<string, Located>();
  const add = (list: unknown, listPointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      const target = followRefs(spec, entry, `${listPointer}/${i}`);
      const parameter = { value: isSchema(target.value) ? target.value : {}, pointer: target.pointer };
      if (typeof parameter.value.name === 'string' && typeof parameter.value.in === 'string' && !isIgnoredHeader(parameter.value)) {
        byKey.set(`${parameter.value.in}:${parameter.value.name}`, parameter);
      }
    });
  };
  add(pathItem.value.parameters, `${pathItem.pointer}/parameters`);
  add(operation.parameters, `${pointer}/parameters`);
  return [...byKey.values()].filter((p) => (LOCATIONS as readonly unknown[]).includes(p.value.in));
}

/** A parameter as a fixture's `match` names it (header names lower-case). */
function named(p: Located): { location: ParameterLocation; name: string } {
  return { location: p.value.in as ParameterLocation, name: p.value.in === 'header' ? String(p.value.name).toLowerCase() : String(p.value.name) };
}

/** One location's check: how each parameter there is read, and the validators of those Ajv coerces and of those decoded here; none when the location has no parameter. */
function compileLocation(spec: LoadedDocument, compiler: SchemaCompiler, all: readonly Located[], location: ParameterLocation): LocationCheck[] {
  const located = all.filter((p) => p.value.in === location);
  if (located.length === 0) return [];
  const names = located.map((p) => String(p.value.name));
  const groups = { coerced: { properties: {} as Record<string, object>, required: [] as string[] }, exact: { properties: {} as Record<string, object>, required: [] as string[] } };
  const parameters = located.map(({ value, pointer: at }) => {
    const name = String(value.name);
    const plan = planParameter(spec, compiler, value, at, location, names.filter((other) => other !== name));
    const group = plan.parameter.decode === 'coerce' ? groups.coerced : groups.exact;
    group.properties[name] = plan.schema;
    // Path parameters are always required; a required one without a schema must still be there.
    if (value.required === true || location === 'path') group.required.push(name);
    return plan.parameter;
  });
  const validatorOf = (group: typeof groups.coerced, coerce: boolean): Validator | null => {
    if (Object.keys(group.properties).length === 0) return null;
    // Draft-04 (OpenAPI 3.0) forbids an empty `required` list: leave it out when all are optional.
    const schema = { type: 'object', properties: group.properties, ...(group.required.length > 0 ? { required: group.required } : {}) };
    return compiler.compileSchema(schema, `/${location}`, coerce);
  };
  return [{ location, parameters, coerced: validatorOf(groups.coerced, true), exact: validatorOf(groups.exact, false) }];
}

/** Every location's parameters read from the request and validated: all the violations, in location order. */
function checkParameters(checks: readonly LocationCheck[], pathParams: Record<string, string>, query: URLSearchParams, headers: RequestHeaders): string[] {
  let cookies: Map<string, string[]> | null = null;
  const sources: ParameterSources = { pathParams, query, headers, cookies: () => (cookies ??= parseCookies(headers.cookie)) };
  const violations: string[] = [];
  for (const check of checks) checkLocation(check, sources, violations);
  return violations;
}

/** One location's parameters read, decoded and validated, their violations added to `violations`. */
function checkLocation(check: LocationCheck, sources: ParameterSources, violations: string[]): void {
  const coerced: Record<string, unknown> = {};
  const exact: Record<string, unknown> = {};
  let notJson: string[] | null = null;
  let repeated: Array<{ at: string; times: number }> | null = null;
  // Integers a double would round (int64 ids) are checked by their text: 9223372036854775807 is an int64.
  let rawNumbers: Map<string, string> | null = null;
  for (const parameter of check.parameters) {
    const value = parameter.read(sources);
    if (value === undefined) continue;
    if (parameter.once && Array.isArray(value)) (repeated ??= []).push({ at: `/${check.location}/${escapePointerToken(parameter.name)}`, times: value.length });
    if (parameter.decode === 'coerce') {
      coerced[parameter.name] = value;
      if (typeof value === 'string' && /^-?\d{16,}$/.test(value)) (rawNumbers ??= new Map()).set(`/${escapePointerToken(parameter.name)}`, value);
    }
    else if (parameter.decode === 'exact') exact[parameter.name] = coerceText(value, parameter.types);
    else {
      const parsed = parseJson(value);
      if (parsed !== undefined) exact[parameter.name] = parsed.value;
      else (notJson ??= []).push(`/${check.location}/${escapePointerToken(parameter.name)}`);
    }
  }
  if (check.coerced) for (const violation of check.coerced(coerced, rawNumbers ?? undefined)) violations.push(violation);
  if (notJson) for (const at of notJson) violations.push(`${at}: must be JSON text`);
  if (check.exact) {
    // A value that is not JSON was sent: it is not also "required".
    for (const violation of check.exact(exact)) if (!notJson?.some((at) => violation.startsWith(`${at}:`))) violations.push(violation);
  }
  // `?sort=name&sort=date` for one value: what the validator says of the list is beside the point.
  if (repeated) for (const { at, times } of repeated) replaceViolations(violations, at, `${at}: sent ${times} times; send one value`);
}

function planParameter(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  parameter: Schema,
  at: string,
  location: ParameterLocation,
  otherNames: string[],
): { parameter: ParameterPlan; schema: object } {
  const name = String(parameter.name);
  const style = typeof parameter.style === 'string' ? parameter.style : defaultStyle(location);
  const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
  const reader = (kind: ValueKind, propertyNames: readonly string[] = []) =>
    compileReader({ name, location, style, explode, kind, propertyNames, otherNames });

  // `content` instead of `schema`: the value is one text in that media type (JSON parsed here).
  const content = isSchema(parameter.content) ? parameter.content : null;
  const [mediaType] = content ? Object.keys(content) : [];
  if (parameter.schema === undefined && mediaType !== undefined) {
    const media = content![mediaType];
    const hasSchema = isSchema(media) && media.schema !== undefined;
    const schema = hasSchema ? compiler.refTo(`${at}/content/${escapePointerToken(mediaType)}/schema`) : {};
    const json = isJsonMediaType(mediaType);
    return { parameter: { name, read: reader('primitive'), decode: json ? 'json' : 'exact', types: json ? [] : ['string'], once: location === 'query' }, schema };
  }
  // No schema at all: any value, but a required parameter must be present.
  if (!isSchema(parameter.schema)) return { parameter: { name, read: reader('primitive'), decode: 'exact', types: ['string'], once: location === 'query' }, schema: {} };

  const schema = derefSchema(spec, parameter.schema);
  const kind = kindOf(spec, schema);
  const read = reader(kind, kind === 'object' ? propertyNamesOf(spec, schema) : []);
  // Ajv coerces inside each `oneOf`/`anyOf` branch in place, so `oneOf: [integer, string]` sees
  // "1" become 1 in one branch and "1" again in the other, and rejects every value (GitHub's
  // workflow_id). Such a primitive is coerced here, once, to the first type its text fits.
  const alternatives = primitiveAlternatives(spec, schema);
  const decode = kind === 'primitive' && alternatives !== null ? 'exact' : 'coerce';
  return { parameter: { name, read, decode, types: alternatives ?? [], once: kind === 'primitive' && location === 'query' }, schema: compiler.refTo(`${at}/schema`) };
}

/** Replaces what `violations` say at `at` (or inside it) with `instead`, in the place of the first. */
function replaceViolations(violations: string[], at: string, instead: string): void {
  const about = (violation: string) => violation.startsWith(`${at}:`) || violation.startsWith(`${at}/`);
  const first = violations.findIndex(about);
  const kept = violations.filter((violation) => !about(violation));
  kept.splice(first === -1 ? kept.length : first, 0, instead);
  violations.splice(0, violations.length, ...kept);
}

function kindOf(spec: LoadedDocument, schema: Schema): ValueKind {
  const types = schemaTypes(schema);
  if (types.includes('array') || (types.length === 0 && schema.items !== undefined)) return 'array';
  if (types.includes('object') || (types.length === 0 && (isSchema(schema.properties) || Array.isArray(schema.allOf) && schema.allOf.some((part) => kindOf(spec, derefSchema(spec, part)) === 'object')))) return 'object';
  return 'primitive';
}

function propertyNamesOf(spec: LoadedDocument, schema: Schema): string[] {
  const names = new Set<string>(isSchema(schema.properties) ? Object.keys(schema.properties) : []);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) for (const name of propertyNamesOf(spec, derefSchema(spec, part))) names.add(name);
  return [...names];
}

/** The types of a `oneOf`/`anyOf` whose branches are all primitives, in order; null otherwise. */
function primitiveAlternatives(spec: LoadedDocument, schema: Schema): string[] | null {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!branches) return null;
  const types = branches.flatMap((branch) => schemaTypes(derefSchema(spec, branch)));
  const primitive = ['string', 'integer', 'number', 'boolean', 'null'];
  return types.length > 0 && types.every((type) => primitive.includes(type)) ? types : null;
}

/**
 * OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored" (those
 * are the media types' and security schemes' to describe). DigitalOcean documents `Accept` with an
 * enum, which refused every client that accepts any type.
 */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function isIgnoredHeader(parameter: Schema): boolean {
  return parameter.in === 'header' && IGNORED_HEADERS.has(String(parameter.name).toLowerCase());
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Text to the first of `types` it can be (in the order given), else the text itself. */
function coerceText(value: unknown, types: readonly string[]): unknown {
  if (typeof value !== 'string') return value;
  for (const type of types) {
    if (type === 'string') return value;
    if (type === 'integer' && INTEGER.test(value)) return Number(value);
    if (type === 'number' && NUMBER.test(value)) return Number(value);
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    if (type === 'null' && value === '') return null;
  }
  return value;
}

function parseJson(value: unknown): { value: unknown } | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return { value: JSON.parse(value) };
  } catch {
    return undefined;
  }
}
