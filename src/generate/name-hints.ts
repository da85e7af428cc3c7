// What a property's name says its value looks like, when its schema says nothing more: `html_url`
// is a URL, `email` an address, `created_at` a timestamp, `login` a user name. Applied to string
// schemas without format, pattern, enum or const, so generated answers read like the API's own
// (`"labels_url": "https://example.com/api/items"`, not `"Ao"`); every value still fits the schema,
// which asked for any string. Only names whose meaning is plain are read. An identity (`id`,
// `sid`, `gid`, `uuid`) whose schema also allows null is generated as a value: a list of items
// whose ids are null cannot be told apart, and a null id names nothing to read back.
import type { JsonSchema } from 'json-schema-faker';
import { isObject } from '../common/json-value.js';
import { anyKey } from '../common/any-key.js';

/** Name patterns, first match wins, and what they add: a format jsf generates, or a faker call. */
const HINTS: ReadonlyArray<readonly [RegExp, { format: string } | { faker: string }]> = [
  [/(^|_)(url|uri|href)$|[a-z](Url|Uri|Href)$/, { format: 'uri' }],
  [/(^|_)email(_address)?$|[a-z]Email(Address)?$/, { format: 'email' }],
  [/^(created|updated|modified|deleted|closed|merged|pushed|started|finished|completed|expires|expired|last_seen|submitted|published|archived)(_at|At)$|(^|_)timestamp$/, { format: 'date-time' }],
  [/(^|_)date$|[a-z]Date$|^birthday$/, { format: 'date' }],
  [/^(first_?name|firstName|given_?name|givenName)$/, { faker: 'person.firstName' }],
  [/^(last_?name|lastName|family_?name|familyName|surname)$/, { faker: 'person.lastName' }],
  [/^(full_?name|fullName|display_?name|displayName)$/, { faker: 'person.fullName' }],
  [/^(login|username|user_?name|userName|handle)$/, { faker: 'internet.username' }],
  [/^(phone|phone_?number|phoneNumber|mobile)$/, { faker: 'phone.number' }],
  [/^city$/, { faker: 'location.city' }],
  [/^country$/, { faker: 'location.country' }],
  [/^(company|company_?name|companyName|organization)$/, { faker: 'company.name' }],
];

/** Names of a resource's own identity (as in openapi/id-property.ts, which this layer may not import). */
const IDENTITY = /^(id|gid|sid|uuid)$/i;

/** The schema with what `name` hints at, or the schema itself (never changed: compiled schemas are shared). */
export function withNameHint(name: string, schema: JsonSchema): { schema: JsonSchema; usesFaker: boolean } {
  if (isObject(schema) && IDENTITY.test(name)) schema = withoutNull(schema);
  if (!isObject(schema) || !isPlainString(schema)) return { schema, usesFaker: false };
  const hint = HINTS.find(([pattern]) => pattern.test(name))?.[1];
  if (hint === undefined) return { schema, usesFaker: false };
  return { schema: { ...schema, ...hint } as JsonSchema, usesFaker: 'faker' in hint };
}

/** A nullable schema (`type: ['string', 'null']`) without its null; any other schema as it is. */
function withoutNull(schema: Record<string, unknown>): JsonSchema {
  if (!Array.isArray(schema.type) || !schema.type.includes('null') || schema.type.length < 2) return schema as JsonSchema;
  const types = schema.type.filter((type) => type !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types } as JsonSchema;
}

/** A string schema that leaves the value's look open. */
function isPlainString(schema: Record<string, unknown>): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('string') && types.every((type) => type === 'string' || type === 'null')
    && schema.format === undefined && schema.pattern === undefined && schema.enum === undefined
    && schema.const === undefined && schema.faker === undefined && schema.allOf === undefined
    && schema.anyOf === undefined && schema.oneOf === undefined;
}

/**
 * Whether generating data for `document` may call faker: an `x-faker` (or jsf's `faker`) keyword,
 * or a key a faker hint reads. Conservative (any key anywhere counts), so a document it clears
 * never needs faker, and a runtime may leave faker's locale data unloaded.
 */
export function mayUseFaker(document: unknown): boolean {
  const fakerHints = HINTS.filter(([, hint]) => 'faker' in hint).map(([pattern]) => pattern);
  return anyKey(document, (key) => key === 'x-faker' || key === 'faker' || fakerHints.some((pattern) => pattern.test(key)));
}
