// Compiles a loaded document into the operation table the engine runs on: for every operation its
// security check, parameter and body validators, response plans and error renderers. All of this
// happens once at start-up (and on reload); a request only looks things up.
import { compileSecurity, type SecurityCheck } from './compile-security.js';
import { compileProjection, type Projection } from './compile-projection.js';
import { compileXmlWriter, isXmlMediaType, type XmlWriter } from './compile-xml.js';
import { createDataGenerator } from '../generate/data-generator.js';
import { oversizedSchemas } from '../generate/size-bounds.js';
import type { LoadedDocument } from './load-document.js';
import { RouteTable } from './route-table.js';
import { DocumentWarnings, refuseWarnings, type DocumentWarning, type Warn } from './document-warnings.js';
import { followRefs } from './follow-ref.js';
import { createSchemaCompiler, type SchemaCompiler, type Validator } from './schema-compiler.js';
import { isSchema, type Schema } from './schema-view.js';
import { compileParameters, type ParameterCheck } from './compile-parameters.js';
import { compileForm, formKind, type FormPlan } from './compile-form.js';
import { compileErrorRenderer, invalidRequestStatus, type ErrorRenderer } from './error-renderer.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { headerSafe } from './header-value.js';
import { normaliseResponseKey } from './documented-response.js';
import { generateFitting } from './generate-fitting.js';
import { secretsOf, type Secrets } from './secrets.js';
import { compileCallbacks, compileWebhooks, type CallbackPlan, type OutboundPlan } from './compile-outbound.js';
import { runAtOnce, type Steps } from '../common/slices.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

export interface MediaPlan {
  /** The media type as documented, lower-case (`application/json`, `application/*`, `*\/*`). */
  type: string;
  json: boolean;
  validate: Validator | null;
  /** Form media types (urlencoded, multipart) with a schema: how the body becomes an object to validate. */
  form: FormPlan | null;
}

export interface BodyPlan {
  required: boolean;
  media: MediaPlan[];
}

export interface HeaderPlan {
  name: string;
  required: boolean;
  validate: Validator | null;
  /** The value the stub sends: the documented example, else generated from the schema. */
  sample: string | null;
}

export interface ResponsePlan {
  /** As documented: `200`, `4XX` or `default`. */
  key: string;
  /** The status sent when this response is chosen: its code, `4XX` -> 400, `default` -> 200. */
  status: number;
  /** The media type as documented; null when the response documents no content. */
  contentType: string | null;
  /** Whether the media type is JSON (`application/json`, `*+json`): sent as JSON, else as text. */
  json: boolean;
  schemaPointer: string | null;
  validateBody: Validator | null;
  project: Projection | null;
  /** For XML media types: writes a value as XML following the schema's `xml` hints. */
  writeXml: XmlWriter | null;
  /** Named examples of this response that fit its schema (`default` for a single `example`). */
  examples: Map<string, unknown>;
  /** Examples that break the response's own schema: a warning at start, served only when asked for by name. */
  brokenExamples: Map<string, unknown>;
  headers: HeaderPlan[];
  /** The documented headers with their sample values, sent with every answer of this response. */
  sampleHeaders: Readonly<Record<string, string>>;
  /**
   * Every media type of this response in document order, each a plan of its own sharing key,
   * status and headers (empty when no content is documented). The plan in `responses` is the
   * default one: the JSON media type, else the first.
   */
  variants: ResponsePlan[];
}

export interface CompiledOperation {
  /** `POST /plants`: how logs, coverage and fixtures name the operation. */
  key: string;
  method: string;
  path: string;
  operationId: string | null;
  checkSecurity: SecurityCheck;
  validateParameters: ParameterCheck;
  body: BodyPlan | null;
  responses: Map<string, ResponsePlan>;
  /** The response a valid request gets by default: the lowest documented 2xx, else `default`, else the first documented. */
  success: ResponsePlan | null;
  /** Renders the error body for a status, following the operation's documented error shape. */
  renderError: ErrorRenderer;
  /** The status of a request that breaks the contract: 400, or 422 where only that is documented. */
  invalidStatus: number;
  /** Every response header the operation documents, as a list for Access-Control-Expose-Headers ('' for none). */
  responseHeaderNames: string;
  /** Data for the schema at `pointer`, keyed by the request; `dynamic` sets the document's own values aside. */
  generate: (pointer: string, key: string, dynamic: boolean) => unknown;
  /** Whether data for `pointer` is capped below what its schema asks (a start-up warning said so). */
  generationCapped: (pointer: string) => boolean;
  /** Called when no try at generating data for `pointer` satisfied it: a document warning, once per pointer. */
  reportUnsatisfiable: (pointer: string, violations: string[]) => void;
  /** 3.0 `callbacks`: sent after the operation's successful answer, to the URL their expression names. */
  callbacks: CallbackPlan[];
}

/** What names an operation and is compiled at start in every document. */
type NamedOperation = Pick<CompiledOperation, 'key' | 'method' | 'path' | 'operationId' | 'checkSecurity' | 'generate' | 'generationCapped' | 'reportUnsatisfiable'>;
/** The rest: how it checks a request and plans its answers (in a big document, on first use). */
type OperationPlans = Omit<CompiledOperation, keyof NamedOperation>;

/**
 * An operation of a big document: named at start, planned when a request (or the coverage, a
 * fixture, stateful mode) first reads a plan. Getters on a class, so the hot path reads them
 * through one shape as it reads a plain object.
 */
class OperationPlannedOnUse implements CompiledOperation {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly checkSecurity: SecurityCheck;
  readonly generate: CompiledOperation['generate'];
  readonly generationCapped: CompiledOperation['generationCapped'];
  readonly reportUnsatisfiable: CompiledOperation['reportUnsatisfiable'];
  private planned: OperationPlans | null = null;

  constructor(named: NamedOperation, private readonly plan: () => OperationPlans) {
    ({ key: this.key, method: this.method, path: this.path, operationId: this.operationId, checkSecurity: this.checkSecurity } = named);
    ({ generate: this.generate, generationCapped: this.generationCapped, reportUnsatisfiable: this.reportUnsatisfiable } = named);
  }

  private get plans(): OperationPlans {
    return (this.planned ??= this.plan());
  }
  get validateParameters() { return this.plans.validateParameters; }
  get body() { return this.plans.body; }
  get responses() { return this.plans.responses; }
  get success() { return this.plans.success; }
  get renderError() { return this.plans.renderError; }
  get invalidStatus() { return this.plans.invalidStatus; }
  get responseHeaderNames() { return this.plans.responseHeaderNames; }
  get callbacks() { return this.plans.callbacks; }
}

export interface CompiledSpec {
  title: string;
  operations: CompiledOperation[];
  byKey: Map<string, CompiledOperation>;
  routes: RouteTable<CompiledOperation>;
  /** Header and query names that carry credentials, redacted in the journal. */
  secrets: Secrets;
  /**
   * What is wrong with the document but did not stop it: GET /__admin/warnings. Unless the
   * document was compiled whole, it grows as operations are first used.
   */
  warnings: readonly DocumentWarning[];
  /** Whether every validator was compiled and every example checked at start (see COMPILED_WHOLE_UP_TO). */
  compiledWhole: boolean;
  /** 3.1 `webhooks`, by their key as the document writes it. */
  webhooks: ReadonlyMap<string, OutboundPlan>;
}

export interface CompileOptions {
  tokens: readonly string[];
  seed?: number;
  /** Refuse a document with any warning (spec authors linting in CI). */
  strict?: boolean;
  /** The validation copy made ahead, with the warnings found making it (load-off-thread.ts); else made here. */
  validationCopy?: { copy: object; warnings: readonly DocumentWarning[] };
}

/**
 * Documents of up to this many operations (most written by hand) are compiled whole at start-up:
 * every validator built and every response example checked, so all warnings are printed at start.
 * Larger ones compile each validator on first use (GitHub's 1,223 operations took 5 s and
 * 300 MiB to compile whole), and their response examples are checked then.
 */
export const COMPILED_WHOLE_UP_TO = 100;

export function compileSpec(spec: LoadedDocument, options: CompileOptions): CompiledSpec {
  return runAtOnce(compileSteps(spec, options));
}

/**
 * compileSpec cut into steps, one per operation, for a reload to run in slices (runInSlices)
 * while the version it replaces keeps answering: 4,000 operations took 0.4 to 0.6 s at once.
 */
export function* compileSteps(spec: LoadedDocument, options: CompileOptions): Steps<CompiledSpec> {
  const warnings = new DocumentWarnings();
  // Found while serving (data is generated per request), listed with the start-up warnings.
  const reportUnsatisfiable = (pointer: string, violations: string[]) => warnings.add({
    file: spec.file,
    pointer,
    kind: 'response schema no generated data satisfies',
    reason: `data generated for this schema breaks it on every try (${violations.slice(0, 3).join('; ')}); the least broken is served`,
  });
  for (const warning of options.validationCopy?.warnings ?? []) warnings.add(warning);
  const compiler = createSchemaCompiler(spec, warnings.add, options.validationCopy?.copy);
  const generator = createDataGenerator(spec.document, { seed: options.seed });
  yield;
  const routes = new RouteTable<CompiledOperation>();
  const operations: CompiledOperation[] = [];
  const schemes = (spec.document.components?.securitySchemes ?? {}) as Record<string, Record<string, string>>;
  const basePath = serverBasePath(spec.document);
  const pathItems = Object.entries(spec.document.paths ?? {}).map(([path, raw]) => ({ path, item: deref(spec, raw, `/paths/${escapePointerToken(path)}`) }));
  const compiledWhole = options.strict === true || pathItems.reduce((count, { item }) => count + [...operationsOf(item)].length, 0) <= COMPILED_WHOLE_UP_TO;
  for (const { path, item: pathItem } of pathItems) {
    for (const { method, pointer, operation } of operationsOf(pathItem)) {
      const named: NamedOperation = {
        key: `${method} ${path}`,
        method,
        path,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : null,
        // Compiled now in every document, so an unknown scheme is a start-up warning.
        checkSecurity: compileSecurity(
          (operation.security ?? spec.document.security) as Array<Record<string, unknown>> | undefined,
          schemes,
          options.tokens,
          (problem) => warnings.add({ file: spec.file, pointer: `${operation.security ? pointer : ''}/security`, kind: 'unknown security scheme', reason: problem }),
        ),
        generate: (schemaPointer, requestKey, dynamic) => generator.generate(schemaPointer, requestKey, dynamic),
        generationCapped: (schemaPointer) => generator.capped(schemaPointer),
        reportUnsatisfiable,
      };
      const plan = (): OperationPlans => {
        const requestSchema = jsonBodySchema(spec, operation.requestBody, `${pointer}/requestBody`);
        const responses = compileResponses(spec, compiler, operation.responses, `${pointer}/responses`, (p) => generator.generate(p, 'header'), warnings.add, requestSchema);
        return {
          validateParameters: compileParameters(spec, compiler, pathItem, pointer, operation),
          body: compileBody(spec, compiler, operation.requestBody, `${pointer}/requestBody`),
          responses,
          success: pickSuccess(responses),
          renderError: compileErrorRenderer(spec, responses, (p) => generator.generate(p, 'error')),
          invalidStatus: invalidRequestStatus(responses),
          responseHeaderNames: [...new Set([...responses.values()].flatMap((response) => response.headers.map((header) => header.name)))].join(', '),
          callbacks: compileCallbacks(spec, compiler, generator, operation, pointer),
        };
      };
      // A big document's operations are planned when first used, like their validators: planning
      // GitHub's 1,223 at start was about 0.2 s of its start-up, for operations mostly never called.
      const compiled: CompiledOperation = compiledWhole ? { ...named, ...plan() } : new OperationPlannedOnUse(named, plan);
      operations.push(compiled);
      routes.add(compiled.method, path, compiled);
      yield;
    }
  }
  // Each path is served under the first server's base path too (`/v2/users` beside `/users`),
  // unless the document itself has that path.
  if (basePath !== '') {
    for (const operation of operations) {
      routes.add(operation.method, basePath + operation.path, operation, { keepExisting: true });
      yield;
    }
  }
  const byKey = new Map(operations.map((operation) => [operation.key, operation]));
  const webhooks = compileWebhooks(spec, compiler, generator);
  if (compiledWhole) {
    for (const operation of operations) {
      for (const plan of operation.responses.values()) for (const media of [plan, ...plan.variants]) void media.examples;
      yield;
    }
    // Generated data is capped in size (generate/size-bounds.ts): say where the document asks for
    // more. One pass over every schema; GitHub's document would pay about half a second for it.
    for (const { pointer, reason } of oversizedSchemas(spec.document)) warnings.add({ file: spec.file, pointer, kind: 'schema asking for more data than is generated', reason });
    yield* compiler.compilePending();
  }
  if (options.strict) {
    // A lint in CI may take the time to generate every response once: schemas no data satisfies
    // are refused too, rather than found when first served.
    for (const operation of operations) {
      for (const plan of operation.responses.values()) {
        for (const media of new Set([plan, ...plan.variants])) {
          const { violations, capped } = generateFitting(operation.generate, media, 'start-up', false, operation.generationCapped);
          if (violations !== null && violations.length > 0 && !capped) reportUnsatisfiable(media.schemaPointer!, violations);
        }
      }
      yield;
    }
    refuseWarnings(warnings.list);
  }
  return { title: spec.document.info?.title ?? 'OpenAPI', operations, byKey, routes, secrets: secretsOf(schemes), warnings: warnings.list, compiledWhole, webhooks };
}

/**
 * The operations of a path item: the fixed methods (with 3.2's `query`), then 3.2's
 * `additionalOperations` (any other method, e.g. `COPY`).
 */
function* operationsOf(pathItem: { value: Schema; pointer: string }): Generator<{ method: string; pointer: string; operation: Schema }> {
  for (const method of METHODS) {
    const operation = pathItem.value[method];
    if (isSchema(operation)) yield { method: method.toUpperCase(), pointer: `${pathItem.pointer}/${method}`, operation };
  }
  const additional = pathItem.value.additionalOperations;
  if (!isSchema(additional)) return;
  for (const [method, operation] of Object.entries(additional)) {
    if (isSchema(operation) && /^[A-Za-z]+$/.test(method)) {
      yield { method: method.toUpperCase(), pointer: `${pathItem.pointer}/additionalOperations/${escapePointerToken(method)}`, operation };
    }
  }
}

/**
 * The path part of the first server's URL, variables replaced by their defaults:
 * `https://api.example.com/v2/` -> `/v2`; '' when there is none.
 */
function serverBasePath(document: LoadedDocument['document']): string {
  const [server] = Array.isArray(document.servers) ? document.servers : [];
  if (!isSchema(server) || typeof server.url !== 'string') return '';
  const variables = isSchema(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const variable = variables[name];
    return isSchema(variable) && variable.default !== undefined ? String(variable.default) : '';
  });
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : '');
  return path.replace(/\/+$/, '');
}

/** Follows a `$ref` (of a path item, parameter, body or response) and keeps the target's pointer. */
function deref(spec: LoadedDocument, value: unknown, pointer: string): { value: Schema; pointer: string } {
  const target = followRefs(spec, value, pointer);
  return { value: isSchema(target.value) ? target.value : {}, pointer: target.pointer };
}

/** The schema of the operation's JSON request body (what an echo projects), if it has one. */
function jsonBodySchema(spec: LoadedDocument, raw: unknown, pointer: string): unknown {
  if (raw === undefined) return undefined;
  const content = deref(spec, raw, pointer).value.content;
  if (!isSchema(content)) return undefined;
  const json = Object.entries(content).find(([type, media]) => isJsonMediaType(type) && isSchema(media) && media.schema !== undefined);
  return json ? (json[1] as Schema).schema : undefined;
}

function compileBody(spec: LoadedDocument, compiler: SchemaCompiler, raw: unknown, pointer: string): BodyPlan | null {
  if (raw === undefined) return null;
  const body = deref(spec, raw, pointer);
  const content = isSchema(body.value.content) ? body.value.content : {};
  const media = Object.entries(content).map(([type, mediaObject]): MediaPlan => {
    const json = isJsonMediaType(type);
    const hasSchema = isSchema(mediaObject) && mediaObject.schema !== undefined;
    const schemaPointer = `${body.pointer}/content/${escapePointerToken(type)}/schema`;
    const form = hasSchema ? formKind(type) : null;
    return {
      type: type.toLowerCase(),
      json,
      validate: json && hasSchema ? compiler.compile(schemaPointer) : null,
      form: form ? compileForm(spec, compiler, form, mediaObject as Schema, schemaPointer) : null,
    };
  });
  return { required: body.value.required === true, media };
}

function compileResponse(spec: LoadedDocument, compiler: SchemaCompiler, key: string, raw: unknown, pointer: string, generate: (pointer: string) => unknown, warn: Warn, requestSchema: unknown): ResponsePlan {
  const response = deref(spec, raw, pointer);
  const content = isSchema(response.value.content) ? response.value.content : {};
  const headers = compileHeaders(spec, compiler, response.value.headers, `${response.pointer}/headers`, generate);
  const shared = {
    key,
    status: statusFor(key),
    headers,
    sampleHeaders: Object.freeze(Object.fromEntries(headers.filter((h) => h.sample !== null).map((h) => [h.name, h.sample!]))),
  };
  const variants = Object.entries(content).map(([type, media]) => compileMedia(spec, compiler, shared, type, isSchema(media) ? media : {}, response.pointer, warn, requestSchema));
  const variant = variants.find((v) => isJsonMediaType(v.contentType!)) ?? variants[0] ?? compileMedia(spec, compiler, shared, null, null, response.pointer, warn, requestSchema);
  for (const v of variants) v.variants = variants;
  return variant;
}

/** One media type of a response: its schema, validator, projection and examples. */
function compileMedia(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  shared: Pick<ResponsePlan, 'key' | 'status' | 'headers' | 'sampleHeaders'>,
  contentType: string | null,
  media: Schema | null,
  responsePointer: string,
  warn: Warn,
  requestSchema: unknown,
): ResponsePlan {
  const schemaPointer = media && media.schema !== undefined ? `${responsePointer}/content/${escapePointerToken(contentType!)}/schema` : null;
  const json = contentType !== null && isJsonMediaType(contentType);
  const validateBody = json && schemaPointer ? compiler.compile(schemaPointer) : null;
  // Checking examples compiles the response's validator, so it happens on first use of the examples.
  let sorted: { valid: Map<string, unknown>; broken: Map<string, unknown> } | null = null;
  const sortExamples = () => (sorted ??= setAsideBrokenExamples(spec.file, collectExamples(spec, media), validateBody, schemaPointer, warn));
  return {
    ...shared,
    contentType,
    json,
    schemaPointer,
    validateBody,
    project: json && media?.schema !== undefined ? compileProjection(spec, media.schema, requestSchema) : null,
    writeXml: contentType !== null && isXmlMediaType(contentType) ? compileXmlWriter(spec, media?.schema ?? {}) : null,
    get examples() {
      return sortExamples().valid;
    },
    get brokenExamples() {
      return sortExamples().broken;
    },
    variants: [],
  };
}

function compileHeaders(spec: LoadedDocument, compiler: SchemaCompiler, raw: unknown, pointer: string, generate: (pointer: string) => unknown): HeaderPlan[] {
  if (!isSchema(raw)) return [];
  // OpenAPI: a documented Content-Type header is ignored; the media type decides it.
  return Object.entries(raw).filter(([name]) => name.toLowerCase() !== 'content-type').map(([name, value]) => {
    const header = deref(spec, value, `${pointer}/${escapePointerToken(name)}`);
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

function collectExamples(spec: LoadedDocument, media: Schema | null): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  if (!media) return examples;
  if (isSchema(media.examples)) {
    for (const [name, example] of Object.entries(media.examples)) {
      const resolved = deref(spec, example, '').value;
      if ('value' in resolved) examples.set(name, resolved.value);
    }
  }
  if (media.example !== undefined && !examples.has('default')) examples.set('default', media.example);
  return examples;
}

function compileResponses(
  spec: LoadedDocument,
  compiler: SchemaCompiler,
  raw: unknown,
  pointer: string,
  generate: (pointer: string) => unknown,
  warn: Warn,
  requestSchema: unknown,
): Map<string, ResponsePlan> {
  const responses = new Map<string, ResponsePlan>();
  for (const [status, response] of Object.entries(isSchema(raw) ? raw : {})) {
    const key = normaliseResponseKey(status);
    responses.set(key, compileResponse(spec, compiler, key, response, `${pointer}/${escapePointerToken(status)}`, generate, warn, requestSchema));
  }
  return responses;
}

/**
 * An example its own schema rejects is never served by default (the next valid one is, else
 * generated data); it stays available by name, and each one is a warning naming its pointer.
 */
function setAsideBrokenExamples(
  file: string,
  examples: Map<string, unknown>,
  validateBody: Validator | null,
  schemaPointer: string | null,
  warn: Warn,
): { valid: Map<string, unknown>; broken: Map<string, unknown> } {
  const broken = new Map<string, unknown>();
  if (!validateBody) return { valid: examples, broken };
  for (const [name, example] of examples) {
    const violations = validateBody(example);
    if (violations.length === 0) continue;
    examples.delete(name);
    broken.set(name, example);
    const pointer = `${schemaPointer!.replace(/\/schema$/, '')}/${name === 'default' ? 'example' : `examples/${escapePointerToken(name)}/value`}`;
    warn({ file, pointer, kind: 'response example that breaks its schema', reason: `this example breaks its response schema (${violations.slice(0, 3).join('; ')}); served only when asked for by name` });
  }
  return { valid: examples, broken };
}

/**
 * The lowest documented 2xx, else `default`, else the first documented response: an operation
 * that only redirects (a 302 with its Location) or only refuses (a 401) answers that, as the API
 * would, instead of a stub refusal.
 */
function pickSuccess(responses: Map<string, ResponsePlan>): ResponsePlan | null {
  const success = [...responses.values()].filter((plan) => plan.key.startsWith('2')).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // A 1xx is never a final answer (Node sends it as an interim response and the client waits on).
  return success[0] ?? responses.get('default') ?? [...responses.values()].find((plan) => plan.status >= 200) ?? null;
}

/** `200` -> 200, `4XX` -> 400, `default` -> 200 (it stands in for whatever the API answers). */
function statusFor(key: string): number {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  if (/^[1-5]XX$/.test(key)) return Number(key[0]) * 100;
  return 200;
}

export function isJsonMediaType(type: string): boolean {
  const base = type.split(';')[0].trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json') || base === '*/*' || base === 'application/*';
}
