// Several documents (`--spec` given more than once): each read with the overlays meant for it and
// mounted as one document (openapi/mount-documents.ts), and the fixtures folders named for one of
// them loaded against its operations. With one document, load-state.ts reads it directly.
import { ConfigError } from '../config/config-error.js';
import { mountedSource } from '../config/mounted-sources.js';
import type { ResolvedOptions } from '../config/options.js';
import type { OverlaySource } from '../openapi/apply-overlays.js';
import type { CompiledSpec } from '../openapi/compiled-model.js';
import type { DocumentWarning } from '../openapi/document-warnings.js';
import { loadDocument, type LoadedDocument } from '../openapi/load-document.js';
import { loadDocumentOffThread } from '../openapi/load-off-thread.js';
import { mountDocuments } from '../openapi/mount-documents.js';
import { loadFixtures } from '../scenarios/fixture-folder.js';
import { joinFixtures, type LoadedFixtures } from '../scenarios/load-fixtures.js';

/**
 * Every document read (in a worker thread for a reload, when `signal` is given) and mounted. An
 * overlay named for a mount path (`--overlay /orders=fix.yaml`) applies to the document given that
 * mount path with --spec; one named for none applies to each, and warns of a target that selects
 * nothing only when it selects nothing in any of them.
 */
export async function loadMountedDocuments(options: ResolvedOptions, overlays: readonly OverlaySource[], signal?: AbortSignal): Promise<LoadedDocument> {
  const aimed = overlays.map((overlay) => ({ ...overlay, mount: mountedSource('overlays', overlay.file).mount }));
  const given = new Set(options.documents.map((document) => document.mount));
  for (const overlay of aimed) {
    if (overlay.mount !== null && !given.has(overlay.mount)) {
      throw new ConfigError(overlay.file, `no document is mounted at ${overlay.mount} by --spec; give it that mount path (--spec ${overlay.mount}=FILE), or leave the overlay's mount path out to apply it to every document`);
    }
  }
  const parts = await Promise.all(options.documents.map(async ({ mount, source }) => {
    const own = aimed.filter((overlay) => overlay.mount === null || overlay.mount === mount).map(({ file, value }) => ({ file: mountedSource('overlays', file).source, value }));
    const spec = signal ? (await loadDocumentOffThread(source, signal, own)).spec : await loadDocument(source, own);
    return { spec, mount };
  }));
  const mounted = mountDocuments(parts);
  return { ...mounted, overlayWarnings: warningsOfEvery(parts.map((part) => part.spec.overlayWarnings ?? []), aimed) };
}

/** The overlay warnings to keep: all of an overlay aimed at one document, those of an overlay for every document that each of them gave. */
function warningsOfEvery(perDocument: DocumentWarning[][], aimed: ReadonlyArray<{ file: string; mount: string | null }>): DocumentWarning[] {
  const forEvery = new Set(aimed.filter((overlay) => overlay.mount === null).map((overlay) => overlay.file));
  const key = (warning: DocumentWarning) => `${warning.file}|${warning.pointer}|${warning.reason}`;
  const counts = new Map<string, number>();
  for (const warnings of perDocument) for (const warning of new Map(warnings.map((w) => [key(w), w])).values()) counts.set(key(warning), (counts.get(key(warning)) ?? 0) + 1);
  const kept = new Map<string, DocumentWarning>();
  for (const warning of perDocument.flat()) {
    if (!forEvery.has(warning.file) || counts.get(key(warning)) === perDocument.length) kept.set(key(warning), warning);
  }
  return [...kept.values()];
}

/**
 * The fixtures of every folder: the one named without a mount path (its files name operations
 * with their mount paths, as served) and each named for one document, which name that
 * document's operations as it writes them. Two folders scripting one scenario name for one
 * operation stop the start.
 */
export async function loadDocumentFixtures(options: ResolvedOptions, compiled: CompiledSpec): Promise<LoadedFixtures> {
  const all = [await loadFixtures(options.fixtures, compiled, options.fixturesGiven)];
  for (const { mount, source } of options.documentFixtures) {
    const document = compiled.mounted.find((candidate) => candidate.mount === mount);
    if (!document) throw new ConfigError(source, `--fixtures ${mount}=${source}: no document is mounted at ${mount}; mounted: ${compiled.mounted.map((m) => `${m.name} at ${m.mount || '/'}`).join(', ')}`);
    all.push(await loadFixtures(source, compiled, true, { document: document.name, mount: document.mount }));
  }
  return all.reduce(joinFixtures);
}
