// What the fetch handler serves, loaded from values for runtimes without files (a page, MSW): the
// document (its overlays applied, or several mounted as one) and fixtures given as objects or
// text, compiled into what the pipeline reads, as the server's load-state.ts does from files. The
// libraries a document may need are loaded first, and only then, so a page downloads only those.
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
import type { EngineState } from '../engine/pipeline.js';
import type { ResolvedFetchOptions } from './fetch-options.js';

/** Files are the server's business: a document given as a value must hold everything itself. */
const NO_FILES: DocumentReader = {
  files: [],
  bundle: () => Promise.reject(new ConfigError('document', 'a $ref points into another file, which cannot be read here; bundle the document into one first (e.g. `npx @redocly/cli bundle`)')),
  fromSwagger2: () => Promise.reject(new ConfigError('document', 'Swagger 2.0 is converted to OpenAPI 3.0 only by the server (swagger2openapi needs Node); convert it first (e.g. `npx swagger2openapi`)')),
};

/**
 * Opens and compiles the document and fixtures given as values, into what the pipeline reads (as
 * load-state.ts does from files); a broken document or fixture rejects with a ConfigError naming it.
 */
export async function loadValues(options: ResolvedFetchOptions): Promise<EngineState> {
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
  return engineState(spec, compiled, fixtures, resources, options);
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
