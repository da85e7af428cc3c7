// The worker thread a reload reads the document in (see load-off-thread.ts): read, parse, bundle
// the `$ref`s and make the validation copy, all plain data, then hand them to the main thread in
// pieces. Everything here runs beside the version still serving, never in front of a request.
import { parentPort, workerData } from 'node:worker_threads';
import { ConfigError } from '../config/config-error.js';
import type { DocumentWarning } from './document-warnings.js';
import { loadDocument } from './load-document.js';
import type { OverlaySource } from './apply-overlays.js';
import { cutIntoPieces } from './tree-pieces.js';
import { validationCopy } from './validation-copy.js';
import type { DocumentFromWorker } from './load-off-thread.js';

const { file, overlays } = workerData as { file: string; overlays: OverlaySource[] };

async function read(): Promise<DocumentFromWorker> {
  try {
    const spec = await loadDocument(file, overlays);
    const warnings: DocumentWarning[] = [];
    const copy = validationCopy(spec.document, spec.version, spec.file, (warning) => warnings.push(warning));
    const { resolveRef: _notData, document, ...about } = spec;
    return { kind: 'loaded', about, document: cutIntoPieces(document), copy: cutIntoPieces(copy), warnings };
  } catch (error) {
    if (error instanceof ConfigError) return { kind: 'refused', source: error.source, problem: error.problem };
    return { kind: 'failed', message: (error as Error).message ?? String(error) };
  }
}

const message = await read();
parentPort!.postMessage(message, message.kind === 'loaded' ? [message.document.bytes, message.copy.bytes] : []);
