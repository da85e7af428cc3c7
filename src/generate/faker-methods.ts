// faker's methods by their dotted names (`person.fullName`, `internet.email`): how a template's
// `{{faker 'internet.email'}}` and a property's `x-stub-generate` name one, found and listed here
// so both are checked the same way (and a mistyped one is answered with the nearest real one).
import type { Faker } from '@faker-js/faker';
import { isObject } from '../common/json-value.js';

/** faker's method at a dotted path (`person.fullName`), bound; null when there is none. */
export function fakerMethod(faker: Faker, path: string): (() => unknown) | null {
  const parts = path.split('.');
  let owner: unknown = faker;
  for (const part of parts.slice(0, -1)) owner = isObject(owner) || typeof owner === 'object' ? (owner as Record<string, unknown>)[part] : undefined;
  const method = owner && typeof owner === 'object' ? (owner as Record<string, unknown>)[parts[parts.length - 1]] : undefined;
  return typeof method === 'function' ? () => (method as () => unknown).call(owner) : null;
}

/** Every `module.method` faker has (`internet.email`): the names a "did you mean" picks from. */
export function fakerMethodNames(faker: Faker): string[] {
  const names: string[] = [];
  for (const [module, methods] of Object.entries(faker)) {
    // Its core and locale data are no modules a document calls.
    if (module === 'fakerCore' || module === 'rawDefinitions' || module === 'definitions' || !isObject(methods)) continue;
    for (const [name, method] of Object.entries(methods)) if (typeof method === 'function') names.push(`${module}.${name}`);
  }
  return names;
}
