// Form bodies (`application/x-www-form-urlencoded`, `multipart/form-data`) read into the object
// their schema describes, then validated like query parameters: text coerced to each property's
// type, arrays from repeated fields, JSON parts (`encoding.<name>.contentType`) parsed, and
// `allowReserved: false` enforced on urlencoded values, and bracketed names (`metadata[order_id]`,
// `expand[0]`, the `deepObject` style) read into objects and arrays. Compiled once per media type at start-up.
import type { LoadedDocument } from './load-document.js';
import type { FormKind } from './media-types.js';
import type { SchemaCompiler, Validator } from './schema-compiler.js';
import { deref, isSchema, objectView, schemaTypes, type Schema } from './schema-view.js';
import { escapePointerToken } from '../common/json-pointer.js';
import type { FormPart } from '../common/plain-http.js';
import { utf8Text } from '../common/bytes.js';
import { qsLibrary } from './qs-library.js';
import { setOwn } from '../common/json-value.js';


export interface FormPlan {
  kind: FormKind;
  /**
   * The form as an object for its schema (texts, lists of texts, parsed JSON parts), with the
   * violations found while reading it. `fields` are a multipart body's parts as the adapter read them.
   */
  read: (body: Uint8Array, fields: readonly FormPart[]) => { value: Record<string, unknown>; violations: string[] };
  validate: Validator;
}

interface FieldPlan {
  list: boolean;
  json: boolean;
  /** `explode: false` lists arrive as one comma-separated value. */
  packed: boolean;
  allowReserved: boolean;
}

/** RFC 3986 reserved characters: with `allowReserved: false` they must arrive percent-encoded. */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

export function compileForm(spec: LoadedDocument, compiler: SchemaCompiler, kind: FormKind, media: Schema, schemaPointer: string): FormPlan {
  const fields = fieldPlans(spec, media);
  const validate = compiler.compileSchema(compiler.refTo(schemaPointer), '', true);
  if (kind !== 'urlencoded') return { kind, read: (_body, parts) => readMultipart(fields, parts), validate };
  // A violation inside a field sent in brackets names it as the client wrote it: `/metadata[order_id]`.
  const sentBracketed = new WeakMap<object, ReadonlySet<string>>();
  const validateForm: Validator = (value, rawNumbers) => {
    const violations = validate(value, rawNumbers);
    const sent = typeof value === 'object' && value !== null ? sentBracketed.get(value) : undefined;
    return sent ? violations.map((violation) => bracketedPointer(violation, sent)) : violations;
  };
  return { kind, read: (body) => readUrlencoded(fields, utf8Text(body), sentBracketed), validate: validateForm };
}

/** How each property of the form's schema is read: as a list, as JSON (`encoding.<name>.contentType`, or an object), packed, with reserved characters allowed. */
function fieldPlans(spec: LoadedDocument, media: Schema): Map<string, FieldPlan> {
  const view = objectView(spec, media.schema);
  const encoding = isSchema(media.encoding) ? media.encoding : {};
  const fields = new Map<string, FieldPlan>();
  for (const [name, property] of view?.properties ?? []) {
    const schema = deref(spec, property);
    const types = schemaTypes(schema);
    const rule = isSchema(encoding[name]) ? encoding[name] : {};
    const contentType = typeof rule.contentType === 'string' ? rule.contentType.toLowerCase() : '';
    fields.set(name, {
      list: types.includes('array'),
      json: contentType.includes('json') || (types.includes('object') && contentType === ''),
      packed: rule.explode === false,
      allowReserved: rule.allowReserved !== false,
    });
  }
  return fields;
}

/** A multipart body's parts as the object its schema describes. */
function readMultipart(fields: ReadonlyMap<string, FieldPlan>, parts: readonly FormPart[]): { value: Record<string, unknown>; violations: string[] } {
  const values = new Map<string, string[]>();
  for (const part of parts) addValue(values, part.name, part.value);
  const violations: string[] = [];
  return { value: fieldValues(values, fields, violations), violations };
}

/**
 * A urlencoded body as the object its schema describes: its plain fields, then those sent in
 * brackets read into objects and arrays (noted in `sentBracketed` for the violations' pointers).
 * Reserved characters sent raw where `allowReserved` is false are violations.
 */
function readUrlencoded(fields: ReadonlyMap<string, FieldPlan>, text: string, sentBracketed: WeakMap<object, ReadonlySet<string>>): { value: Record<string, unknown>; violations: string[] } {
  const values = new Map<string, string[]>();
  let bracketed = false;
  for (const [name, value] of new URLSearchParams(text)) {
    // `metadata[order_id]=42`, `address[line1]=…`, `expand[0]=…`: read into objects and arrays below.
    if (BRACKETED.test(name)) bracketed = true;
    else addValue(values, name, value);
  }
  const violations: string[] = [];
  for (const [name, raw] of rawPairs(text)) {
    if (fields.get(name)?.allowReserved === false && RESERVED.test(raw)) {
      violations.push(`/${escapePointerToken(name)}: reserved characters must be percent-encoded (allowReserved is false)`);
    }
  }
  const value = fieldValues(values, fields, violations);
  if (bracketed) sentBracketed.set(value, addBracketed(value, values, bracketedFields(text)));
  return { value, violations };
}

function addValue(values: Map<string, string[]>, name: string, value: string): void {
  const list = values.get(name);
  if (list) list.push(value);
  else values.set(name, [value]);
}

/** Each field's texts as its plan reads them: a list, parsed JSON (a violation when it is not), or the text. */
function fieldValues(values: ReadonlyMap<string, string[]>, fields: ReadonlyMap<string, FieldPlan>, violations: string[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, list] of values) {
    const field = fields.get(name);
    if (field?.list) value[name] = field.packed && list.length === 1 ? list[0].split(',') : list;
    else if (field?.json && list.length === 1) {
      try {
        value[name] = JSON.parse(list[0]);
      } catch {
        violations.push(`/${escapePointerToken(name)}: must be JSON text`);
      }
    } else value[name] = list.length === 1 ? list[0] : list; // a repeated single value stays a list: the validator says so
  }
  return value;
}

/** The bracketed fields added to `value`, except where a plain field of the same name was sent; returns the names added. */
function addBracketed(value: Record<string, unknown>, values: ReadonlyMap<string, string[]>, nested: Record<string, unknown>): ReadonlySet<string> {
  const sent = new Set<string>();
  for (const [name, inner] of Object.entries(nested)) {
    if (values.has(name)) continue;
    value[name] = inner;
    sent.add(name);
  }
  return sent;
}

/** A field name in the bracket form Stripe's and Rails' clients send (`a[b]`, `a[b][c]`, `a[0]`, `a[]`). */
const BRACKETED = /^[^[\]]+(\[[^[\]]*\])+$/;

/**
 * The bracketed fields of a form as objects and arrays (qs, the parser Express and Stripe's own
 * client use). Bounded as qs bounds them: 5 levels deep, indexes up to 100 (beyond, an object),
 * 1,000 fields; and never onto Object.prototype (`a[__proto__]` is an own key of a plain object).
 */
function bracketedFields(text: string): Record<string, unknown> {
  const bracketed = text.split('&').filter((pair) => BRACKETED.test(safeDecode(pair.split('=')[0]))).join('&');
  return ordinary(qsLibrary().parse(bracketed, { depth: 5, arrayLimit: 100, parameterLimit: 1000, allowPrototypes: false, plainObjects: true })) as Record<string, unknown>;
}

/** qs's prototype-less objects as ordinary ones (what every later stage takes for an object), keys set as own properties (`__proto__` included). */
function ordinary(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordinary);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) setOwn(copy, key, ordinary(inner));
  return copy;
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** `/metadata/order_id: …` -> `/metadata[order_id]: …` for a field sent in brackets; any other violation as it is. */
function bracketedPointer(violation: string, sent: ReadonlySet<string>): string {
  const match = /^\/([^/:\s]+)((?:\/[^/:\s]+)+)(:.*)$/s.exec(violation);
  if (!match || !sent.has(match[1])) return violation;
  const [, field, rest, message] = match;
  return `/${field}${rest.split('/').slice(1).map((token) => `[${token.replace(/~1/g, '/').replace(/~0/g, '~')}]`).join('')}${message}`;
}

/** `a=1&b=%2F` -> [a, '1'], [b, '%2F']: names decoded, values as sent. */
function* rawPairs(text: string): Generator<[string, string]> {
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // a malformed name is matched as sent
    }
    yield [decoded, at < 0 ? '' : pair.slice(at + 1)];
  }
}
