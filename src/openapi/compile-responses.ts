// Compiles an operation's documented responses into response plans: per status and media type
// its validator, projection (for echoes), XML writer, examples (those breaking their own schema set
// aside with a warning) and headers with the sample values sent with every answer.
import type { LoadedDocument } from './load-document.js';
import type { HeaderPlan, ResponsePlan } from './compiled-model.js';
import type { Warn } from './document-warnings.js';
import type { SchemaCompiler, Validator } from './schema-compiler.js';
import { compileProjection } from './compile-projection.js';
import { compileXmlWriter } from './compile-xml.js';
import { isJsonMediaType, isXmlMediaType } from './media-types.js';
import { followToObject } from './follow-ref.js';
import { isSchema, type Schema } from './schema-view.js';
import { headerSafe } from './header-value.js';
import { normaliseResponseKey } from './documented-response.js';
import { compileStream } from './compile-stream.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { STUB_POLICY, type CompatPolicy } from '../config/compat-policy.js';

/** What of the compat policy shapes a response plan. */
type ResponsePolicy = Pick<CompatPolicy, 'xmlRoot' | 'brokenExamplesServed'>;

export function compileResponses(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  raw: unknown,
  pointer: string,
  generate: (pointer: string) => unknown,
  warn: Warn,
  requestSchema: unknown,
  policy: ResponsePolicy = STUB_POLICY,
): Map<string, ResponsePlan> {
  const responses = new Map<string, ResponsePlan>();
  for (const [status, response] of Object.entries(isSchema(raw) ? raw : {})) {
    const key = normaliseResponseKey(status);
    responses.set(key, compileResponse(spec, compiler, key, response, `${pointer}/${escapePointerToken(status)}`, generate, warn, requestSchema, policy));
  }
  return responses;
}

function compileResponse(spec: LoadedDocument, compiler: SchemaCompiler, key: string, raw: unknown, pointer: string, generate: (pointer: string) => unknown, warn: Warn, requestSchema: unknown, policy: ResponsePolicy): ResponsePlan {
  const response = followToObject(spec, raw, pointer);
  const content = isSchema(response.value.content) ? response.value.content : {};
  const headers = compileHeaders(spec, compiler, response.value.headers, `${response.pointer}/headers`, generate);
  const hint = response.value['x-stub-example'];
  const shared = {
    key,
    status: statusFor(key),
    // Checked at start (stub-hints.ts): the name of one of this response's examples.
    hintedExample: typeof hint === 'string' ? hint : null,
    headers,
    sampleHeaders: Object.freeze(Object.fromEntries(headers.filter((h) => h.sample !== null).map((h) => [h.name, h.sample!]))),
  };
  const variants = Object.entries(content).map(([type, raw]) => {
    const media = isSchema(raw) ? raw : {};
    const variant = compileMedia(spec, compiler, shared, type, media, response.pointer, warn, requestSchema, policy);
    // A stream's events (rule 7), read from its media type, its response and the request's `stream` flag.
    variant.stream = compileStream(spec, compiler, type, media, `${response.pointer}/content/${escapePointerToken(type)}`, response.value, requestSchema);
    return variant;
  });
  const variant = variants.find((v) => isJsonMediaType(v.contentType!)) ?? variants[0] ?? compileMedia(spec, compiler, shared, null, null, response.pointer, warn, requestSchema, policy);
  for (const v of variants) v.variants = variants;
  return variant;
}

/** One media type of a response: its schema, validator, projection and examples. */
function compileMedia(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  shared: Pick<ResponsePlan, 'key' | 'status' | 'headers' | 'sampleHeaders' | 'hintedExample'>,
  contentType: string | null,
  media: Schema | null,
  responsePointer: string,
  warn: Warn,
  requestSchema: unknown,
  policy: ResponsePolicy,
): ResponsePlan {
  const schemaPointer = media && media.schema !== undefined ? `${responsePointer}/content/${escapePointerToken(contentType!)}/schema` : null;
  const json = contentType !== null && isJsonMediaType(contentType);
  const validateBody = json && schemaPointer ? compiler.compile(schemaPointer) : null;
  // Checking examples compiles the response's validator, so it happens on first use of the examples.
  let sorted: { valid: Map<string, unknown>; broken: Map<string, unknown> } | null = null;
  const sortExamples = () => (sorted ??= setAsideBrokenExamples(spec.file, hintedFirst(collectExamples(spec, media), shared.hintedExample), validateBody, schemaPointer, warn, policy.brokenExamplesServed));
  return {
    ...shared,
    contentType,
    json,
    schemaPointer,
    validateBody,
    project: json && media?.schema !== undefined ? compileProjection(spec, media.schema, requestSchema) : null,
    writeXml: contentType !== null && isXmlMediaType(contentType) ? compileXmlWriter(spec, media?.schema ?? {}, policy.xmlRoot) : null,
    get examples() {
      return sortExamples().valid;
    },
    get brokenExamples() {
      return sortExamples().broken;
    },
    variants: [],
    stream: null,
  };
}

function compileHeaders(spec: LoadedDocument, compiler: SchemaCompiler, raw: unknown, pointer: string, generate: (pointer: string) => unknown): HeaderPlan[] {
  if (!isSchema(raw)) return [];
  // OpenAPI: a documented Content-Type header is ignored; the media type decides it.
  return Object.entries(raw).filter(([name]) => name.toLowerCase() !== 'content-type').map(([name, value]) => {
    const header = followToObject(spec, value, `${pointer}/${escapePointerToken(name)}`);
    const schema = isSchema(header.value.schema) ? header.value.schema : null;
    return {
      name: name.toLowerCase(),
      required: header.value.required === true,
      validate: schema ? compiler.compileSchema(compiler.refTo(`${header.pointer}/schema`), `/headers/${name.toLowerCase()}`, true) : null,
      sample: headerSample(header.value, schema, () => generate(`${header.pointer}/schema`)),
    };
  });
}

function headerSample(header: Schema, schema: Schema | null, generated: () => unknown): string | null {
  const firstNamed = isSchema(header.examples) ? Object.values(header.examples).find(isSchema)?.value : undefined;
  const value = header.example ?? firstNamed ?? schema?.example ?? schema?.default ?? (schema ? generated() : null);
  if (value === null || value === undefined) return null;
  return headerSafe(typeof value === 'string' ? value : JSON.stringify(value));
}

export function collectExamples(spec: LoadedDocument, media: Schema | null): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  if (!media) return examples;
  if (isSchema(media.examples)) {
    for (const [name, example] of Object.entries(media.examples)) {
      const resolved = followToObject(spec, example, '').value;
      if ('value' in resolved) examples.set(name, resolved.value);
    }
  }
  if (media.example !== undefined && !examples.has('default')) examples.set('default', media.example);
  return examples;
}

/** The examples with the one `x-stub-example` names first, so it is the one served by default. */
function hintedFirst(examples: Map<string, unknown>, hinted: string | null): Map<string, unknown> {
  if (hinted === null || !examples.has(hinted)) return examples;
  return new Map([[hinted, examples.get(hinted)], ...[...examples].filter(([name]) => name !== hinted)]);
}

/**
 * An example its own schema rejects is never served by default (the next valid one is, else
 * generated data); it stays available by name, and each one is a warning naming its pointer.
 * With `served` (Prism's way) it stays among the others, and the answer reports what it breaks.
 */
function setAsideBrokenExamples(
  file: string,
  examples: Map<string, unknown>,
  validateBody: Validator | null,
  schemaPointer: string | null,
  warn: Warn,
  served: boolean,
): { valid: Map<string, unknown>; broken: Map<string, unknown> } {
  const broken = new Map<string, unknown>();
  if (!validateBody) return { valid: examples, broken };
  for (const [name, example] of examples) {
    const violations = validateBody(example);
    if (violations.length === 0) continue;
    if (!served) examples.delete(name);
    broken.set(name, example);
    const pointer = `${schemaPointer!.replace(/\/schema$/, '')}/${name === 'default' ? 'example' : `examples/${escapePointerToken(name)}/value`}`;
    warn({ file, pointer, kind: 'response example that breaks its schema', reason: `this example breaks its response schema (${violations.slice(0, 3).join('; ')}); ${served ? 'served as documented, its violations reported with the answer' : 'served only when asked for by name'}` });
  }
  return { valid: examples, broken };
}

/** `200` -> 200, `4XX` -> 400, `default` -> 200 (it stands in for whatever the API answers). */
function statusFor(key: string): number {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  if (/^[1-5]XX$/.test(key)) return Number(key[0]) * 100;
  return 200;
}

