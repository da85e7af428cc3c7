// The stub around the engine for runtimes without files or processes (the fetch handler, MSW):
// the document (its overlays applied) and fixtures opened from values, stateful mode's store in memory. What it shares
// with the server's stub (stub/stub.ts, which adds files, reloads, workers and Redis) it takes
// from there: the served state with its sticky scenario (stub/served-state.ts) and the recorder
// (journal, coverage, warnings, log) fed at the same point, once per answer.
import { ConfigError } from '../config/config-error.js';
import { compileSpec } from '../openapi/compile-operations.js';
import { compileResources } from '../openapi/compile-resources.js';
import { summarizeWarnings, type DocumentWarning } from '../openapi/document-warnings.js';
import { openDocument, parseDocument, parseText, type DocumentReader, type LoadedDocument } from '../openapi/open-document.js';
import { importXmlLibrary } from '../openapi/compile-xml.js';
import { importRe2 } from '../openapi/re2.js';
import { loadGeneratorLibraries } from '../generate/generator-libraries.js';
import { mayUseFaker } from '../generate/name-hints.js';
import { formKind, isXmlMediaType } from '../openapi/media-types.js';
import { importQs } from '../openapi/qs-library.js';
import { anyKey } from '../common/any-key.js';
import { joinFixtures, scenarioTable, type FixtureSource, type LoadedFixtures } from '../scenarios/load-fixtures.js';
import type { CompiledSpec } from '../openapi/compiled-model.js';
import { engineState } from '../stub/engine-state.js';
import { loadTemplateEngine } from '../engine/templates.js';
import { handleRequest, type EngineState } from '../engine/pipeline.js';
import { seedState } from '../engine/seed-state.js';
import { answerHere } from '../stub/answer-here.js';
import { failedAnswer } from '../stub/failed-answer.js';
import type { EngineResponse } from '../engine/engine-response.js';
import { Recorder } from '../stub/recorder.js';
import { ServedState } from '../stub/served-state.js';
import { LocalStateStore } from '../stub/local-state-store.js';
import { placedState } from '../engine/state-question.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { ResolvedFetchOptions } from './fetch-options.js';

/** Files are the server's business: a document given as a value must hold everything itself. */
const NO_FILES: DocumentReader = {
  files: [],
  bundle: () => Promise.reject(new ConfigError('document', 'a $ref points into another file, which cannot be read here; bundle the document into one first (e.g. `npx @redocly/cli bundle`)')),
  fromSwagger2: () => Promise.reject(new ConfigError('document', 'Swagger 2.0 is converted to OpenAPI 3.0 only by the server (swagger2openapi needs Node); convert it first (e.g. `npx swagger2openapi`)')),
};

export class InMemoryStub {
  /** What the pipeline reads, and the sticky scenario. */
  readonly version: ServedState;
  /** The journal, coverage, self-check warnings and log lines; its answered event is called once per answer. */
  readonly recorder: Recorder;

  private constructor(private readonly options: ResolvedFetchOptions, state: EngineState, private readonly store: LocalStateStore | null) {
    this.version = new ServedState(state, options.warn);
    this.recorder = new Recorder({ journalLimit: options.journalLimit, log: options.log, logFormat: 'text' }, this.version, options.warn);
  }

  /** Opens and compiles everything; a broken document or fixture rejects with a ConfigError naming it. */
  static async open(options: ResolvedFetchOptions): Promise<InMemoryStub> {
    const spec = await openDocuments(options);
    for (const warning of spec.overlayWarnings ?? []) options.warn(`warning: ${warning.file}: ${warning.pointer}: ${warning.reason}`);
    // Generation, XML writing, patterns and forms stay synchronous: their libraries load first,
    // faker, the XML writer, RE2 and qs only for a document that may need them (most of a page's download).
    const xml = anyKey(spec.document, isXmlMediaType);
    const forms = anyKey(spec.document, (key) => formKind(key) !== null);
    const patterns = anyKey(spec.document, (key) => key === 'pattern' || key === 'patternProperties');
    // The template engine only for fixtures that hold a template (`{{request.body.name}}`).
    const templated = JSON.stringify([options.fixtures, options.documents.map((entry) => entry.fixtures)]).includes('{{');
    await Promise.all([loadGeneratorLibraries({ faker: mayUseFaker(spec.document) || templated }), xml ? importXmlLibrary() : null, patterns ? importRe2() : null, forms ? importQs() : null, templated ? loadTemplateEngine() : null]);
    const compiled = compileSpec(spec, { tokens: options.tokens, seed: options.seed, strict: options.strict, policy: options.policy });
    for (const line of summarizeWarnings(compiled.warnings)) options.warn(line);
    const given = await Promise.all(options.fixtures.map((value, i) => fixtureSource(`fixtures[${i}]`, value)));
    const fixtures = [scenarioTable(given, compiled), ...(await documentFixtures(options, compiled))].reduce(joinFixtures);
    for (const warning of fixtures.warnings) options.warn(`warning: ${warning.file}: ${warning.reason}`);
    const resources = options.stateful ? compileResources(spec, compiled) : null;
    const state = engineState(spec, compiled, fixtures, resources, options);
    // Capped as the server's store is: a page's memory is no less finite than a server's.
    const store = resources ? new LocalStateStore(() => {}, options.maxStateBytes) : null;
    // Stateful mode starts with the list examples' items and `seedItems` generated ones, as the server's does.
    store?.seed(placedState(resources!, seedState(compiled.operations, resources!, options.seedItems)));
    return new InMemoryStub(options, state, store);
  }

  /** Whether any operation's path matches the request (a method it lacks is still the API's: 405). */
  knows(method: string, path: string): boolean {
    return this.version.current.compiled.routes.match(method, path).kind !== 'not-found';
  }

  /** Runs the pipeline; in stateful mode its change is applied before the answer leaves. */
  handle(request: PlainRequest): EngineResponse {
    try {
      const state = this.version.current;
      return this.store === null ? handleRequest(state, request) : answerHere(state, request, this.store, this.options.maxStateBytes);
    } catch (error) {
      return this.internalError(request, error);
    }
  }

  /** A bug of ours must still not leak internals to the client: the server's one catch, reporting through `log`. */
  internalError(request: PlainRequest, error: unknown): EngineResponse {
    return failedAnswer(request, error, null, this.options.warn);
  }
}

/**
 * The document as parsed with the overlays applied, as the server applies its --overlay files
 * (`overlays[1]` stands for the file in errors and warnings). A document given as an object is
 * copied first: the caller's stays as it was.
 */
async function withOverlays(document: object | string, given: ReadonlyArray<object | string>): Promise<{ value: unknown; overlayWarnings: DocumentWarning[] }> {
  const parsed = typeof document === 'string' ? await parseDocument('document', document) : document;
  if (given.length === 0) return { value: parsed, overlayWarnings: [] };
  // Imported only here: a page that gives no overlay never downloads the JSONPath reader.
  const { applyOverlays } = await import('../openapi/apply-overlays.js');
  const value = typeof document === 'string' ? parsed : structuredClone(parsed);
  const overlays = await Promise.all(given.map((overlay, i) => fixtureSource(`overlays[${i}]`, overlay)));
  return { value, overlayWarnings: applyOverlays(value, overlays) };
}

/** A fixture or an overlay given as text is parsed as its file would be; `name` stands for the file in errors. */
async function fixtureSource(name: string, value: object | string): Promise<FixtureSource> {
  return { file: name, value: typeof value === 'string' ? await parseText(name, value) : value };
}

/** The document, or several mounted as one (as the server's `--spec` repeated). */
async function openDocuments(options: ResolvedFetchOptions): Promise<LoadedDocument> {
  const valueOf = async (file: string, document: object | string) => (typeof document === 'string' ? parseDocument(file, document) : document);
  if (options.documents.length === 0) {
    const { value, overlayWarnings } = await withOverlays(options.document!, options.overlays);
    const spec = await openDocument('document', value, NO_FILES);
    return overlayWarnings.length === 0 ? spec : { ...spec, overlayWarnings };
  }
  if (options.overlays.length > 0) throw new ConfigError('overlays', 'apply to `document`; with `documents`, give each document already corrected');
  const parts = await Promise.all(options.documents.map(async (entry, i) => {
    const spec = await openDocument(`documents[${i}]`, await valueOf(`documents[${i}]`, entry.document), NO_FILES);
    return { spec, mount: entry.mount ?? null, name: entry.name ?? nameOf(spec, i) };
  }));
  // Imported when several documents are given: a page serving one does not download it.
  const { mountDocuments } = await import('../openapi/mount-documents.js');
  return mountDocuments(parts);
}

/** A document's name from its title (`Orders API` -> `orders-api`), else its place in `documents`. */
function nameOf(spec: LoadedDocument, i: number): string {
  const title = typeof spec.document.info?.title === 'string' ? spec.document.info.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') : '';
  return title || `documents-${i}`;
}

/** Each document's own fixtures, which name its operations as it writes them. */
function documentFixtures(options: ResolvedFetchOptions, compiled: CompiledSpec): Promise<LoadedFixtures[]> {
  return Promise.all(options.documents.map(async (entry, i) => {
    const { name, mount } = compiled.mounted[i];
    const sources = await Promise.all((entry.fixtures ?? []).map((value, j) => fixtureSource(`documents[${i}].fixtures[${j}]`, value)));
    return scenarioTable(sources, compiled, { document: name, mount });
  }));
}
