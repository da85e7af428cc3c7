// OpenAPI's `discriminator` on a `oneOf`: which values of the tag property name each branch. JSON
// Schema alone cannot tell `oneOf: [Cat, Dog]` apart when both accept any `pet_type` string, so a
// request valid by the document's intent matches both and fails the oneOf. The validator
// (openapi/validation-copy.ts) and the data generator (generate/jsf-schema.ts) both read the tags
// from here, so what the stub generates is what it accepts.
//
// The rules (OpenAPI 3.0 and 3.1, "Discriminator Object"):
// - the discriminator beside the `oneOf`, else one every `$ref` branch inherits through `allOf`
//   (Pet declares it, Cat is `allOf: [Pet, …]`), all with the same property name;
// - a branch `$ref` is named by the `mapping` keys pointing at it (full `$ref` or component name)
//   and, implicitly, by its component name (unless that name is a key mapped to another schema);
// - a branch that declares the tag's values itself (`enum` or `const`) keeps those of its tags
//   that are among them (a shared base often lists every branch's value), and none when none are:
//   its own values then tell it apart; an inline branch gets none.
import { valueAtRef } from './json-pointer.js';
import { isObject, type Json } from './json-value.js';

export interface Discriminator {
  propertyName: string;
  mapping: Record<string, string>;
}

/** Inheritance chains (`allOf` of `$ref`s) are followed this deep; real ones are 2 or 3 levels. */
const MAX_DEPTH = 8;

/** The discriminator that tells the `oneOf` (or `anyOf`) branches of `schema` apart, or null. */
export function branchDiscriminator(document: unknown, schema: Json): Discriminator | null {
  const own = readDiscriminator(schema.discriminator);
  if (own) return own;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!branches || branches.length === 0) return null;
  let found: Discriminator | null = null;
  for (const branch of branches) {
    const inherited = isObject(branch) && typeof branch.$ref === 'string' ? inheritedDiscriminator(document, valueAtRef(document, branch.$ref), 0) : null;
    if (!inherited || (found && found.propertyName !== inherited.propertyName)) return null;
    found ??= inherited;
  }
  return found;
}

/**
 * The tag values that select `branch` (a member of the oneOf), or null when the branch gets none:
 * inline, or declaring other values for the tag itself.
 *
 * @example
 * branchTags(doc, { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } }, { $ref: '#/components/schemas/Cat' })
 * // ['cat', 'Cat']
 */
export function branchTags(document: unknown, discriminator: Discriminator, branch: unknown): string[] | null {
  if (!isObject(branch) || typeof branch.$ref !== 'string') return null;
  const ref = branch.$ref;
  const name = decodeName(ref.slice(ref.lastIndexOf('/') + 1));
  const tags = Object.entries(discriminator.mapping).filter(([, target]) => target === ref || target === name).map(([tag]) => tag);
  const nameMappedElsewhere = Object.hasOwn(discriminator.mapping, name) && !tags.includes(name);
  if (!nameMappedElsewhere && !tags.includes(name)) tags.push(name);
  const declared = declaredTagValues(document, valueAtRef(document, ref), discriminator.propertyName, 0);
  if (!declared) return tags;
  const allowed = tags.filter((tag) => declared.includes(tag));
  return allowed.length > 0 ? allowed : null;
}

function readDiscriminator(value: unknown): Discriminator | null {
  if (!isObject(value) || typeof value.propertyName !== 'string') return null;
  const mapping: Record<string, string> = {};
  if (isObject(value.mapping)) for (const [tag, target] of Object.entries(value.mapping)) if (typeof target === 'string') mapping[tag] = target;
  return { propertyName: value.propertyName, mapping };
}

/** The discriminator `schema` declares, else one a schema it extends (`allOf` `$ref`s) declares. */
function inheritedDiscriminator(document: unknown, schema: unknown, depth: number): Discriminator | null {
  if (!isObject(schema) || depth > MAX_DEPTH) return null;
  const own = readDiscriminator(schema.discriminator);
  if (own || !Array.isArray(schema.allOf)) return own;
  for (const member of schema.allOf) {
    const target = isObject(member) && typeof member.$ref === 'string' ? valueAtRef(document, member.$ref) : member;
    const found = inheritedDiscriminator(document, target, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The tag property's values the schema (or what it extends) lists with `enum` or `const`, or null. */
function declaredTagValues(document: unknown, schema: unknown, propertyName: string, depth: number): unknown[] | null {
  if (!isObject(schema) || depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === 'string') return declaredTagValues(document, valueAtRef(document, schema.$ref), propertyName, depth + 1);
  const property = isObject(schema.properties) && Object.hasOwn(schema.properties, propertyName) ? schema.properties[propertyName] : undefined;
  const resolved = isObject(property) && typeof property.$ref === 'string' ? valueAtRef(document, property.$ref) : property;
  if (isObject(resolved) && resolved.const !== undefined) return [resolved.const];
  if (isObject(resolved) && Array.isArray(resolved.enum)) return resolved.enum;
  if (!Array.isArray(schema.allOf)) return null;
  for (const member of schema.allOf) {
    const found = declaredTagValues(document, member, propertyName, depth + 1);
    if (found) return found;
  }
  return null;
}

function decodeName(token: string): string {
  try {
    return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return token;
  }
}
