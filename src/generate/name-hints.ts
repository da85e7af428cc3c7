// What a property's name says its value looks like, when its schema leaves room (no enum, pattern,
// const or example of its own): `html_url` is a URL, `email` an address, `created_at` a recent
// timestamp, `country_code` an ISO 3166 code, `latitude` a number from -90 to 90, a user's `name`
// a person's name. So generated answers read like the API's own (`"Victor Lindgren"`, not
// `"rIQpLUvFF"`); every value still fits the schema, which allowed any such value. Names are read
// as words (name-words.ts), whatever their spelling; where the name says nothing, the property's
// `title`, then its `description`, may. An identity (`id`, `sid`, `gid`, `uuid`) whose schema also
// allows null is generated as a value: a list of items whose ids are null cannot be told apart,
// and a null id names nothing to read back.
import type { JsonSchema } from 'json-schema-faker';
import { isObject } from '../common/json-value.js';
import { anyKey } from '../common/any-key.js';
import { endsWith, lastWord, nameWords } from './name-words.js';
import { FUTURE_UNIX_SECONDS, PAST_UNIX_SECONDS } from './realistic-formats.js';

/** What a hint adds to a string schema: a format jsf generates (realistic-formats.ts has the `stub-` ones), or a faker call. */
type StringHint = { format: string } | { faker: unknown; longest: number; shortest: number };
/** The range (and decimals) a number hint draws from, within the schema's own bounds. */
interface NumberHint { min: number; max: number; fractionDigits?: number; whole?: boolean }

/** What the object around a property says of it: `name` of a user is a person's name. */
export interface HintContext {
  /** Words of the object's schema name or title, and of its other property names. */
  around: ReadonlySet<string>;
}

const PERSON = ['user', 'customer', 'person', 'people', 'author', 'member', 'contact', 'employee', 'owner', 'assignee', 'reviewer', 'creator', 'sender', 'recipient', 'profile', 'account', 'student', 'patient', 'driver', 'passenger', 'guest', 'buyer', 'seller', 'email', 'username', 'login', 'first', 'last', 'phone', 'birthday'];
const ORGANISATION = ['company', 'organization', 'organisation', 'org', 'team', 'business', 'vendor', 'merchant', 'brand', 'supplier', 'tenant', 'workspace'];
const FUTURE = ['expires', 'expiry', 'expiration', 'expire', 'due', 'deadline', 'until', 'renews', 'renewal', 'scheduled'];
/** One-word names that are timestamps (Stripe's `created`), as a string or as Unix seconds. */
const TIMESTAMP = ['created', 'updated', 'modified', 'deleted', 'published', 'archived', 'expires', 'expired', 'timestamp'];
const PROSE = ['description', 'message', 'text', 'comment', 'comments', 'note', 'notes', 'bio', 'body', 'content', 'details', 'reason', 'explanation', 'instructions', 'memo'];
const MONEY = ['price', 'amount', 'cost', 'fee', 'balance', 'subtotal', 'tax', 'salary', 'revenue'];
const HEADLINE = ['title', 'subject', 'headline', 'summary', 'caption', 'tagline'];

const has = (words: readonly string[], ...any: string[]) => any.some((word) => words.includes(word));
/** A faker call whose values are `shortest` to `longest` characters long. */
const faker = (call: unknown, longest: number, shortest = 1): StringHint => ({ faker: call, longest, shortest });

/** The look of a string named `words`; `format` is the schema's own (a date may be made recent). */
function stringHint(words: readonly string[], context: HintContext, maxLength: number | undefined, format: unknown): StringHint | undefined {
  const last = lastWord(words);
  const dated = format === 'date-time' || format === 'date';
  const date = format === 'date' || (format === undefined && ['date', 'birthday', 'dob', 'on'].includes(last));
  const timestamp = dated || ['at', 'on', 'date', 'timestamp', 'birthday', 'dob'].includes(last) || (words.length === 1 && has(words, ...TIMESTAMP));
  if (timestamp) {
    if (has(words, 'birthday', 'dob', 'birth')) return { format: 'stub-birth-date' };
    if (timestamp && has(words, ...FUTURE)) return { format: date ? 'stub-future-date' : 'stub-future-date-time' };
    if (timestamp) return { format: date ? 'stub-past-date' : 'stub-past-date-time' };
  }
  if (format !== undefined) return undefined;
  if (has(words, 'avatar') && has(['avatar', 'url', 'image', 'picture'], last)) return faker('image.avatar', 120);
  if (has(['url', 'uri', 'href', 'website', 'homepage'], last)) return { format: 'uri' };
  if (last === 'email' || endsWith(words, 'email', 'address')) return faker('internet.exampleEmail', 40);
  if (has(['phone', 'mobile', 'telephone', 'fax', 'msisdn'], last) || endsWith(words, 'phone', 'number')) return faker({ 'phone.number': [{ style: 'international' }] }, 16);
  if (last === 'ipv6') return { format: 'ipv6' };
  if (last === 'ip' || last === 'ipv4' || endsWith(words, 'ip', 'address')) return { format: 'ipv4' };
  if (endsWith(words, 'first', 'name') || endsWith(words, 'given', 'name') || last === 'firstname') return faker('person.firstName', 20);
  if (endsWith(words, 'last', 'name') || endsWith(words, 'family', 'name') || last === 'surname' || last === 'lastname') return faker('person.lastName', 20);
  if (endsWith(words, 'full', 'name') || endsWith(words, 'display', 'name') || last === 'fullname') return faker('person.fullName', 40);
  if (has(['username', 'login', 'handle', 'nickname'], last) || endsWith(words, 'user', 'name') || endsWith(words, 'screen', 'name')) return faker('internet.username', 30);
  if (endsWith(words, 'job', 'title') || last === 'occupation' || last === 'jobtitle') return faker('person.jobTitle', 60);
  if (endsWith(words, 'company', 'name') || has(['company', 'organization', 'organisation', 'employer'], last)) return faker('company.name', 50);
  if (words.length === 1 && last === 'name' && has([...context.around], ...PERSON)) return faker('person.fullName', 40);
  if (words.length === 1 && last === 'name' && has([...context.around], ...ORGANISATION)) return faker('company.name', 50);
  if (has(words, 'country')) return last === 'code' || has(words, 'iso', 'alpha') || maxLength === 2 ? faker({ 'location.countryCode': ['alpha-2'] }, 2, 2) : faker('location.country', 60);
  if (has(words, 'currency')) return faker('finance.currencyCode', 3, 3);
  if (has(words, 'locale')) return { format: 'stub-locale' };
  if (has(['language', 'lang'], last) || endsWith(words, 'language', 'code')) return { format: 'stub-language' };
  if (last === 'timezone' || endsWith(words, 'time', 'zone') || last === 'tz') return faker('location.timeZone', 40);
  if (last === 'city' || last === 'town') return faker('location.city', 40);
  if (has(words, 'street') || endsWith(words, 'line', '1') || last === 'address1') return faker('location.streetAddress', 60);
  if (endsWith(words, 'postal', 'code') || has(['zip', 'zipcode', 'postcode', 'postalcode'], last) || endsWith(words, 'zip', 'code')) return faker('location.zipCode', 10);
  if (has(['color', 'colour'], last)) return faker('color.rgb', 7, 7);
  if (has(MONEY, last)) return faker('commerce.price', 8);
  if (has(HEADLINE, last) && !has(words, 'job')) return faker('company.catchPhrase', 80);
  if (has(PROSE, last)) return faker('hacker.phrase', 160);
  return undefined;
}

/** The range of a number named `words`. */
function numberHint(words: readonly string[], integer: boolean): NumberHint | undefined {
  const last = lastWord(words);
  if (last === 'lat' || last === 'latitude') return { min: -90, max: 90, fractionDigits: 6 };
  if (last === 'lng' || last === 'lon' || last === 'long' || last === 'longitude') return { min: -180, max: 180, fractionDigits: 6 };
  if (integer && (last === 'at' || last === 'timestamp' || (words.length === 1 && has(words, ...TIMESTAMP)))) return has(words, ...FUTURE) ? { ...FUTURE_UNIX_SECONDS } : { ...PAST_UNIX_SECONDS };
  // An integer amount is in the currency's smallest unit (cents), as payment APIs count it.
  if (has(MONEY, last)) return integer ? { min: 100, max: 100_000 } : { min: 0, max: 1000, fractionDigits: 2 };
  if (has(['percent', 'percentage'], last)) return { min: 0, max: 100, whole: true };
  if (last === 'age') return { min: 18, max: 90, whole: true };
  if (has(['count', 'total', 'size', 'quantity', 'qty'], last) || words[0] === 'num' || endsWith(words, 'number', 'of')) return { min: 0, max: 100, whole: true };
  return undefined;
}

/** Names of a resource's own identity (as in openapi/id-property.ts, which this layer may not import). */
const IDENTITY = /^(id|gid|sid|uuid)$/i;

/**
 * The schema with what `name` (or the schema's own title or description) hints at, or the schema
 * itself (never changed: compiled schemas are shared). `original` is the property's schema as the
 * document writes it, when written in place: its title, description and own bounds.
 */
export function withNameHint(name: string, schema: JsonSchema, context: HintContext = { around: new Set() }, original?: unknown): { schema: JsonSchema; usesFaker: boolean } {
  if (isObject(schema) && IDENTITY.test(name)) schema = identityValue(schema);
  if (!isObject(schema)) return { schema, usesFaker: false };
  const nullable = nullableBranches(schema);
  if (nullable) {
    // `anyOf: [{type: string}, {type: null}]` (3.1's nullable): the value's branch takes the hint.
    const { key, at } = nullable;
    const branches = schema[key] as JsonSchema[];
    const ownBranches = isObject(original) ? original[key] : undefined;
    const inner = withNameHint(name, branches[at], context, Array.isArray(ownBranches) ? ownBranches[at] : undefined);
    if (inner.schema === branches[at]) return { schema, usesFaker: false };
    return { schema: { ...schema, [key]: branches.map((branch, i) => (i === at ? inner.schema : branch)) } as JsonSchema, usesFaker: inner.usesFaker };
  }
  if (leavesNoRoom(schema)) return { schema, usesFaker: false };
  const types = typesOf(schema);
  const own = isObject(original) && original.$ref === undefined ? original : undefined;
  const described = own ?? {};
  const words = [nameWords(name), nameWords(String(described.title ?? '')), nameWords(String(described.description ?? '')).slice(0, 6)];
  if (types.every((type) => type === 'string' || type === 'null') && types.includes('string')) {
    const format = schema.format === 'date-time' || schema.format === 'date' ? schema.format : undefined;
    const hint = firstOf(words, (w) => stringHint(w, context, numberOr(schema.maxLength), format));
    if (hint === undefined || !fits(schema, hint)) return { schema, usesFaker: false };
    const look = 'faker' in hint ? { faker: hint.faker, format: undefined } : { format: hint.format };
    return { schema: { ...schema, ...look } as JsonSchema, usesFaker: 'faker' in hint };
  }
  if (types.every((type) => type === 'integer' || type === 'number' || type === 'null') && schema.format !== 'date-time') {
    const integer = types.includes('integer');
    const hint = firstOf(words, (w) => numberHint(w, integer));
    const call = hint && numberCall(hint, integer, schema, own);
    return call ? { schema: { ...schema, faker: call } as JsonSchema, usesFaker: true } : { schema, usesFaker: false };
  }
  return { schema, usesFaker: false };
}

function firstOf<T>(wordLists: string[][], hint: (words: string[]) => T | undefined): T | undefined {
  for (const words of wordLists) {
    if (words.length === 0) continue;
    const found = hint(words);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A faker value must fit the schema's length bounds whatever faker draws. */
function fits(schema: Record<string, unknown>, hint: StringHint): boolean {
  if (!('faker' in hint)) return true;
  const maxLength = numberOr(schema.maxLength);
  const minLength = numberOr(schema.minLength);
  return (maxLength === undefined || maxLength >= hint.longest) && (minLength === undefined || minLength <= hint.shortest);
}

/**
 * faker's number.int / number.float call for `hint`, within the schema's bounds; undefined when
 * they leave no room. `own` is the document's schema written in place: its bounds are the ones to
 * keep to, since the compiled one holds a minimum of 0 where the document set none (jsf-keywords.ts).
 */
function numberCall(hint: NumberHint, integer: boolean, schema: Record<string, unknown>, own: Record<string, unknown> | undefined): unknown {
  if (schema.multipleOf !== undefined || schema.exclusiveMinimum !== undefined || schema.exclusiveMaximum !== undefined) return undefined;
  const bounds = own ?? schema;
  const low = Math.max(hint.min, numberOr(bounds.minimum) ?? -Infinity);
  const high = Math.min(hint.max, numberOr(bounds.maximum) ?? Infinity);
  if (integer || hint.whole) return Math.ceil(low) <= Math.floor(high) ? { 'number.int': [{ min: Math.ceil(low), max: Math.floor(high) }] } : undefined;
  return low <= high ? { 'number.float': [{ min: low, max: high, fractionDigits: hint.fractionDigits ?? 2 }] } : undefined;
}

const numberOr = (value: unknown) => (typeof value === 'number' ? value : undefined);

function typesOf(schema: Record<string, unknown>): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * Formats that describe what a value means rather than fix its shape (and the number formats,
 * which say only its size): a hint may still give the value its look.
 */
const DESCRIPTIVE_FORMATS = new Set(['date-time', 'date', 'int32', 'int64', 'float', 'double', 'unixtime', 'unix-time', 'timestamp', 'phone', 'phone-number', 'currency', 'country-code', 'language', 'locale', 'timezone']);

/** A schema whose value's look is already decided (a pattern, an enum, a faker of its own, a format, a choice of branches). */
function leavesNoRoom(schema: Record<string, unknown>): boolean {
  return schema.pattern !== undefined || schema.enum !== undefined || schema.const !== undefined || schema.faker !== undefined
    || schema.allOf !== undefined || schema.anyOf !== undefined || schema.oneOf !== undefined
    || (schema.format !== undefined && !DESCRIPTIVE_FORMATS.has(String(schema.format)));
}

/** Where the one branch of a two-branch anyOf / oneOf whose other branch is null is. */
function nullableBranches(schema: Record<string, unknown>): { key: 'anyOf' | 'oneOf'; at: number } | undefined {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const at = branches.findIndex((branch) => !(isObject(branch) && branch.type === 'null'));
    if (at !== -1 && branches.filter((branch) => isObject(branch) && branch.type === 'null').length === 1) return { key, at };
  }
  return undefined;
}

/**
 * An identity's schema as a value that can name something: not null, and as a string not empty
 * (OpenAI's model and file lists had ids of "", which no client can read back).
 */
function identityValue(schema: Record<string, unknown>): JsonSchema {
  const valued = withoutNull(schema) as Record<string, unknown>;
  const open = valued.type === 'string' && valued.minLength === undefined && valued.enum === undefined && valued.const === undefined && valued.pattern === undefined;
  return (open ? { ...valued, minLength: 1 } : valued) as JsonSchema;
}

/** A nullable schema (`type: ['string', 'null']`) without its null; any other schema as it is. */
function withoutNull(schema: Record<string, unknown>): JsonSchema {
  if (!Array.isArray(schema.type) || !schema.type.includes('null') || schema.type.length < 2) return schema as JsonSchema;
  const types = schema.type.filter((type) => type !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types } as JsonSchema;
}

/**
 * Whether generating data for `document` may call faker: an `x-faker` (or `x-stub-generate`, or jsf's `faker`) keyword,
 * or a property whose name a hint reads (any name a hint might read, whatever the object around
 * it). Conservative, so a document it clears never needs faker, and a runtime may leave faker's
 * locale data unloaded.
 */
export function mayUseFaker(document: unknown): boolean {
  const everyone: HintContext = { around: new Set([...PERSON, ...ORGANISATION]) };
  return anyKey(document, (key) => key === 'x-faker' || key === 'x-stub-generate' || key === 'faker' || mayHint(nameWords(key), everyone));
}

function mayHint(words: string[], context: HintContext): boolean {
  if (words.length === 0) return false;
  const hint = stringHint(words, context, undefined, undefined);
  return (hint !== undefined && 'faker' in hint) || numberHint(words, true) !== undefined || numberHint(words, false) !== undefined;
}
