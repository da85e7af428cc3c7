// Loads a document for a reload without holding up requests: a worker thread reads, parses and
// bundles it and makes its validation copy (half of a reload's time, all plain data), and the main
// thread rebuilds both from the worker's pieces in slices. What the worker found wrong comes back
// as data: a ConfigError naming the file, as loadDocument would have thrown.
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../config/config-error.js';
import { runInSlices } from '../common/slices.js';
import type { DocumentWarning } from './document-warnings.js';
import { lookingUpOnce, type LoadedDocument } from './load-document.js';
import { gatherPieces, type TreePieces } from './tree-pieces.js';
import type { OverlaySource } from './apply-overlays.js';

/** What the worker sends back. */
export type DocumentFromWorker =
  | { kind: 'loaded'; about: Omit<LoadedDocument, 'document' | 'resolveRef'>; document: TreePieces; copy: TreePieces; warnings: DocumentWarning[] }
  | { kind: 'refused'; source: string; problem: string }
  | { kind: 'failed'; message: string };

/** A document and its validation copy, made ahead (see CompileOptions.validationCopy). */
export interface DocumentLoadedOffThread {
  spec: LoadedDocument;
  validationCopy: { copy: object; warnings: readonly DocumentWarning[] };
}

/**
 * The compiled worker, from the sources as from dist/ (tests run the sources; the worker always
 * runs compiled JavaScript, so `npm run build` comes first, as `npm test` does).
 */
const WORKER = new URL('../../dist/openapi/document-worker.js', import.meta.url);

/** Loads `file` as loadDocument does, in a worker thread; an abort ends the worker and rejects. */
export async function loadDocumentOffThread(file: string, signal: AbortSignal, overlays: readonly OverlaySource[] = []): Promise<DocumentLoadedOffThread> {
  const message = await inWorker(file, signal, overlays);
  if (message.kind === 'refused') throw new ConfigError(message.source, message.problem);
  if (message.kind === 'failed') throw new Error(message.message);
  const document = (await runInSlices(gatherPieces(message.document), signal)) as LoadedDocument['document'];
  const copy = (await runInSlices(gatherPieces(message.copy), signal)) as object;
  return {
    spec: { ...message.about, document, resolveRef: lookingUpOnce(document) },
    validationCopy: { copy, warnings: message.warnings },
  };
}

async function inWorker(file: string, signal: AbortSignal, overlays: readonly OverlaySource[]): Promise<DocumentFromWorker> {
  signal.throwIfAborted();
  const worker = new Worker(WORKER, { workerData: { file, overlays } });
  // A reload never keeps the process alive, and a stub that closes ends the worker (the abort).
  worker.unref();
  const abandon = () => void worker.terminate();
  signal.addEventListener('abort', abandon, { once: true });
  try {
    return await new Promise<DocumentFromWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(signal.aborted ? signal.reason : new Error(`the worker reading the document stopped (exit code ${code})`)));
    });
  } finally {
    signal.removeEventListener('abort', abandon);
    // The message is all the worker had to say; its memory goes with it.
    void worker.terminate();
  }
}
