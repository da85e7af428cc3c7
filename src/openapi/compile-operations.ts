// Compiles a loaded document into the operation table the engine runs on (the model is in
// compiled-model.ts, responses in compile-responses.ts): for every operation its security check,
// parameter and body validators, response plans and error renderers. All of this happens once at
// start-up (and on reload); a request only looks things up.
import { formPostOf } from './form-post.js';
import { cursorPagingOf } from './compile-paging.js';
import { compileSecurity } from './compile-security.js';
import { createDataGenerator } from '../generate/data-generator.js';
import { oversizedSchemas } from '../generate/size-bounds.js';
import type { LoadedDocument } from './load-document.js';
import { RouteTable } from './route-table.js';
import { DocumentWarnings, NO_PATHS, refuseWarnings, type DocumentWarning } from './document-warnings.js';
import { followToObject } from './follow-ref.js';
import { createSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';
import { isSchema, type Schema } from './schema-view.js';
import { compileParameters } from './compile-parameters.js';
import { compileForm } from './compile-form.js';
import { bodyFieldNames } from './body-fields.js';
import { compileErrorRenderer, invalidRequestStatus } from './error-renderer.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { generateFitting } from './generate-fitting.js';
import { secretsOf } from './secrets.js';
import { compileCallbacks, compileWebhooks } from './compile-outbound.js';
import { runAtOnce, type Steps } from '../common/slices.js';
import { DOCUMENT_EXTENSION } from './open-document.js';
import { serverBasePath, serverOrigins } from './server-urls.js';
import { fragmentAlternatives } from './fragment-operations.js';
import type { BodyPlan, CompiledOperation, CompiledSpec, MediaPlan, NamedOperation, OperationPlans } from './compiled-model.js';
import { collectExamples, compileResponses } from './compile-responses.js';
import { formKind, isJsonMediaType } from './media-types.js';
import { pickSuccess } from './success-rule.js';
import { STUB_POLICY, type CompatPolicy } from '../config/compat-policy.js';
import { readStubHints } from './stub-hints.js';
import { OperationPlannedOnUse } from './operation-planned-on-use.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

export interface CompileOptions {
  tokens: readonly string[];
  seed?: number;
  /** Refuse a document with any warning (spec authors linting in CI). */
  strict?: boolean;
  /** The validation copy made ahead, with the warnings found making it (load-off-thread.ts); else made here. */
  validationCopy?: { copy: object; warnings: readonly DocumentWarning[] };
  /** Where answers follow Prism instead of the stub (violations' wording, static data, HEAD, XML roots). Default: the stub's. */
  policy?: CompatPolicy;
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
  for (const warning of options.validationCopy?.warnings ?? []) warnings.add(warning);
  // A wrong hint stops the start (or the reload) before anything acts on it.
  const hints = readStubHints(spec);
  const policy = options.policy ?? STUB_POLICY;
  const compiling: Compiling = {
    spec, options, warnings, policy,
    compiler: createSchemaCompiler(spec, warnings.add, options.validationCopy?.copy, policy.wording),
    generator: createDataGenerator(spec.document, { seed: options.seed, staticData: policy.staticData }),
    schemes: (spec.document.components?.securitySchemes ?? {}) as Record<string, Record<string, string>>,
    // Found while serving (data is generated per request), listed with the start-up warnings.
    reportUnsatisfiable: (pointer, violations) => warnings.add({
      file: spec.file,
      pointer,
      kind: 'response schema no generated data satisfies',
      reason: `data generated for this schema breaks it on every try (${violations.slice(0, 3).join('; ')}); the least broken is served`,
    }),
  };
  yield;
  const routes = new RouteTable<CompiledOperation>({ headWithGet: policy.headWithGet });
  const operations: CompiledOperation[] = [];
  const basePath = serverBasePath(spec.document);
  const pathItems = Object.entries(spec.document.paths ?? {}).map(([path, raw]) => ({ path, item: followToObject(spec, raw, `/paths/${escapePointerToken(path)}`) }));
  const compiledWhole = options.strict === true || pathItems.reduce((count, { item }) => count + [...operationsOf(item)].length, 0) <= COMPILED_WHOLE_UP_TO;
  for (const { path, item: pathItem } of pathItems) {
    for (const { method, pointer, operation } of operationsOf(pathItem)) {
      const named = namedOperation(compiling, path, pathItem, method, pointer, operation);
      const plan = () => operationPlans(compiling, pathItem, method, pointer, operation);
      // A big document's operations are planned when first used, like their validators: planning
      // GitHub's 1,223 at start was about 0.2 s of its start-up, for operations mostly never called.
      const compiled: CompiledOperation = compiledWhole ? { ...named, ...plan() } : new OperationPlannedOnUse(named, plan);
      operations.push(compiled);
      routes.add(compiled.method, path, compiled);
      yield;
    }
  }
  const alternatives = yield* addFurtherRoutes(routes, operations, basePath);
  const byKey = new Map(operations.map((operation) => [operation.key, operation]));
  const webhooks = compileWebhooks(spec, compiling.compiler, compiling.generator);
  if (compiledWhole) yield* checkWhole(compiling, operations);
  // A stub that answers 404 to everything looks broken; a document without paths is the cause.
  if (operations.length === 0) {
    const what = Object.keys(spec.document.paths ?? {}).length === 0 ? 'the document has no paths' : 'no path of the document has an operation';
    warnings.add({ file: spec.file, pointer: '/paths', kind: NO_PATHS, reason: `${what}, so nothing is served (every request but /__admin/ is answered 404)` });
  }
  if (options.strict) yield* refuseUnsatisfiable(compiling, operations);
  return { title: spec.document.info?.title ?? 'OpenAPI', operations, byKey, routes, secrets: secretsOf(compiling.schemes), warnings: warnings.list, compiledWhole, webhooks, basePath, serverOrigins: serverOrigins(spec.document), policy, mounted: spec.mounted ?? [], alternatives, hints };
}

/** A path item as found (its `$ref` followed) and where. */
type PathItem = ReturnType<typeof followToObject>;

/** What every operation's compiling shares: made once per document. */
interface Compiling {
  spec: LoadedDocument;
  options: CompileOptions;
  warnings: DocumentWarnings;
  policy: CompatPolicy;
  compiler: SchemaCompiler;
  generator: ReturnType<typeof createDataGenerator>;
  schemes: Record<string, Record<string, string>>;
  reportUnsatisfiable: NamedOperation['reportUnsatisfiable'];
}

/** What an operation is (its names, its security check, its generator), known at start for every document. */
function namedOperation({ spec, options, warnings, policy, generator, schemes, reportUnsatisfiable }: Compiling, path: string, pathItem: PathItem, method: string, pointer: string, operation: Schema): NamedOperation {
  return {
    key: `${method} ${path}`,
    method,
    path,
    operationId: typeof operation.operationId === 'string' ? operation.operationId : null,
    document: typeof pathItem.value[DOCUMENT_EXTENSION] === 'string' ? (pathItem.value[DOCUMENT_EXTENSION] as string) : null,
    // Compiled now in every document, so an unknown scheme is a start-up warning.
    checkSecurity: compileSecurity(
      (operation.security ?? spec.document.security) as Array<Record<string, unknown>> | undefined,
      schemes,
      options.tokens,
      (problem) => warnings.add({ file: spec.file, pointer: `${operation.security ? pointer : ''}/security`, kind: 'unknown security scheme', reason: problem }),
      policy.refusals,
    ),
    generate: (schemaPointer, requestKey, dynamic) => generator.generate(schemaPointer, requestKey, dynamic),
    generationCapped: (schemaPointer) => generator.capped(schemaPointer),
    reportUnsatisfiable,
    formPost: formPostOf(spec, method, pathItem.value, operation),
  };
}

/** How an operation validates and answers: at start for a small document, on first use for a big one. */
function operationPlans({ spec, warnings, policy, compiler, generator }: Compiling, pathItem: PathItem, method: string, pointer: string, operation: Schema): OperationPlans {
  const requestSchema = jsonBodySchema(spec, operation.requestBody, `${pointer}/requestBody`);
  const responses = compileResponses(spec, compiler, operation.responses, `${pointer}/responses`, (p) => generator.generate(p, 'header'), warnings.add, requestSchema, policy);
  return {
    validateParameters: compileParameters(spec, compiler, pathItem, pointer, operation),
    body: compileBody(spec, compiler, operation.requestBody, `${pointer}/requestBody`),
    responses,
    success: pickSuccess(responses),
    renderError: compileErrorRenderer(spec, responses, (p) => generator.generate(p, 'error')),
    invalidStatus: invalidRequestStatus(responses),
    responseHeaderNames: [...new Set([...responses.values()].flatMap((response) => response.headers.map((header) => header.name)))].join(', '),
    callbacks: compileCallbacks(spec, compiler, generator, operation, pointer),
    cursorPaging: method === 'GET' ? cursorPagingOf(spec, [pathItem.value.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : [])), operation) : null,
  };
}

/**
 * The routes besides each operation's own: the operations apart by a `#fragment` on one path, each
 * path under the first server's base path too (`/v2/users` beside `/users`, unless the document
 * itself has that path), and a GET whose request is a form under POST (form-post.ts).
 */
function* addFurtherRoutes(routes: RouteTable<CompiledOperation>, operations: readonly CompiledOperation[], basePath: string): Steps<CompiledSpec['alternatives']> {
  const alternatives = fragmentAlternatives(operations, (method, path, operation) => routes.add(method, path, operation, { keepExisting: true }));
  if (basePath !== '') {
    // An operation that is another's alternative (fragment-operations.ts) is reached through it.
    const reachedThroughAnother = new Set([...alternatives.values()].flat());
    for (const operation of operations) {
      if (reachedThroughAnother.has(operation)) continue;
      routes.add(operation.method, basePath + operation.path.split('#', 1)[0], operation, { keepExisting: true });
      yield;
    }
  }
  for (const operation of operations) {
    if (operation.formPost === null) continue;
    for (const prefix of new Set(['', basePath])) routes.add('POST', prefix + operation.path, operation, { keepExisting: true });
  }
  return alternatives;
}

/** A document compiled whole: every response example checked and every validator built now, so every warning is printed at start. */
function* checkWhole({ spec, warnings, compiler }: Compiling, operations: readonly CompiledOperation[]): Steps<void> {
  for (const operation of operations) {
    for (const plan of operation.responses.values()) for (const media of [plan, ...plan.variants]) void media.examples;
    yield;
  }
  // Generated data is capped in size (generate/size-bounds.ts): say where the document asks for
  // more. One pass over every schema; GitHub's document would pay about half a second for it.
  for (const { pointer, reason } of oversizedSchemas(spec.document)) warnings.add({ file: spec.file, pointer, kind: 'schema asking for more data than is generated', reason });
  yield* compiler.compilePending();
}

/**
 * --strict: a lint in CI may take the time to generate every response once, so schemas no data
 * satisfies are refused too, rather than found when first served; then any warning stops it.
 */
function* refuseUnsatisfiable({ warnings, reportUnsatisfiable }: Compiling, operations: readonly CompiledOperation[]): Steps<void> {
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

/** The schema of the operation's JSON request body (what an echo projects), if it has one. */
function jsonBodySchema(spec: LoadedDocument, raw: unknown, pointer: string): unknown {
  if (raw === undefined) return undefined;
  const content = followToObject(spec, raw, pointer).value.content;
  if (!isSchema(content)) return undefined;
  const json = Object.entries(content).find(([type, media]) => isJsonMediaType(type) && isSchema(media) && media.schema !== undefined);
  return json ? (json[1] as Schema).schema : undefined;
}

function compileBody(spec: LoadedDocument, compiler: SchemaCompiler, raw: unknown, pointer: string): BodyPlan | null {
  if (raw === undefined) return null;
  const body = followToObject(spec, raw, pointer);
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
  // The schema templates read names from: the JSON body's, else the form's.
  const named = Object.entries(content).find(([type, media]) => isSchema(media) && media.schema !== undefined && (isJsonMediaType(type) || formKind(type) !== null));
  const schema = named ? (named[1] as Schema).schema : undefined;
  // Named examples of the JSON body: a request equal to one is answered with the response example of that name.
  const jsonMedia = Object.entries(content).find(([type, media]) => isJsonMediaType(type) && isSchema(media));
  const examples = jsonMedia ? collectExamples(spec, jsonMedia[1] as Schema) : new Map<string, unknown>();
  examples.delete('default');
  return { required: body.value.required === true, media, examples, fieldNames: (segments) => (schema === undefined ? null : bodyFieldNames(spec, schema, segments)) };
}

