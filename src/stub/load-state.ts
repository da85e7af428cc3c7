// Loading: the spec read and compiled, the fixtures loaded and checked against it, stateful
// mode's resources inferred; the whole of what the pipeline reads (EngineState), made at start
// and again on each reload.
import { readFile } from 'node:fs/promises';
import type { ResolvedOptions } from '../config/options.js';
import { ConfigError } from '../config/config-error.js';
import { parseYamlFile } from '../config/parse-yaml.js';
import type { OverlaySource } from '../openapi/apply-overlays.js';
import { loadFixtures } from '../scenarios/fixture-folder.js';
import { compileSteps } from '../openapi/compile-operations.js';
import { loadDocument } from '../openapi/load-document.js';
import { loadDocumentOffThread } from '../openapi/load-off-thread.js';
import { runAtOnce, runInSlices } from '../common/slices.js';
import { summarizeWarnings } from '../openapi/document-warnings.js';
import type { EngineState } from '../engine/pipeline.js';
import { loadGeneratorLibraries } from '../generate/generator-libraries.js';
import { compileResources } from '../openapi/compile-resources.js';
import { engineState } from './engine-state.js';
import { loadDocumentFixtures, loadMountedDocuments } from './load-documents.js';
import { mountedSource } from '../config/mounted-sources.js';
import { loadTemplateEngine } from '../engine/templates.js';

/**
 * Loads spec and fixtures; `specFilesRead` hears which files the spec was read from, even if a
 * later step fails. At start-up (no `signal`) the document is read and compiled at once: nothing
 * waits for an answer yet, and that is the fastest way. A reload (`signal` given, aborted when it
 * is abandoned) reads it in a worker thread and compiles it in slices, so that the version still
 * serving answers between them.
 */
export async function loadState(options: ResolvedOptions, log: (line: string) => void, specFilesRead: (files: string[]) => void, signal?: AbortSignal): Promise<EngineState> {
  const overlays = await readOverlays(options.overlays);
  const { spec, validationCopy } = options.documents.length > 1
    ? { spec: await loadMountedDocuments(options, overlays, signal), validationCopy: undefined }
    : signal ? await loadDocumentOffThread(options.spec, signal, overlays) : { spec: await loadDocument(options.spec, overlays), validationCopy: undefined };
  for (const warning of spec.overlayWarnings ?? []) log(`warning: ${warning.file}: ${warning.pointer}: ${warning.reason}`);
  specFilesRead(spec.files);
  // The generator's libraries take about 25 ms to load; loading them before compiling means no
  // request (and no compile step that samples headers) ever waits for them or runs twice.
  await Promise.all([loadGeneratorLibraries(), loadTemplateEngine()]);
  const steps = compileSteps(spec, { tokens: options.tokens, seed: options.seed, strict: options.strict, validationCopy, policy: options.policy });
  const compiled = signal ? await runInSlices(steps, signal) : runAtOnce(steps);
  if (spec.convertedFrom === 'Swagger 2.0') log(`note: ${options.spec} is Swagger 2.0; served as OpenAPI 3.0 (converted on load by swagger2openapi)`);
  if (spec.convertedFrom === 'OpenAPI 3.2') log(`note: ${options.spec} is OpenAPI 3.2; served with 3.1's schema rules, \`query\` and \`additionalOperations\` included`);
  if (!compiled.compiledWhole) log(`note: ${compiled.operations.length} operations: each operation's validators are compiled on first use and its response examples checked then (what that finds is added to GET /__admin/warnings)`);
  for (const line of summarizeWarnings(compiled.warnings)) log(line);
  const fixtures = options.documents.length > 1 ? await loadDocumentFixtures(options, compiled) : await loadFixtures(options.fixtures, compiled, options.fixturesGiven);
  for (const line of fixtures.said ?? []) log(line);
  for (const warning of fixtures.warnings) log(`warning: ${warning.file}: ${warning.reason}`);
  const resources = options.stateful ? compileResources(spec, compiled) : null;
  return engineState(spec, compiled, fixtures, resources, options);
}

/** The --overlay files, read and parsed (YAML or JSON); one that cannot be read stops the start, naming it. */
async function readOverlays(files: readonly string[]): Promise<OverlaySource[]> {
  return Promise.all(files.map(async (file) => {
    let text: string;
    // `/orders=fix.yaml` (several documents) names the file after its mount path.
    const path = mountedSource('overlays', file).source;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ConfigError(file, `cannot read the overlay (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    return { file, value: parseYamlFile(path, text) };
  }));
}
