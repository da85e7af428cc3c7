// Reads an OpenAPI document from disk or an http(s) URL (3.0, 3.1 and 3.2; Swagger 2.0 converted to 3.0 on load)
// and makes every $ref in it internal, so that the compiler can hand the whole document to Ajv as
// one schema resource. What follows the reading is open-document.ts, shared with the fetch handler.
import { readdir, readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { Semaphore } from 'async-mutex';
import type { FileInfo, HTTPResolverOptions } from '@apidevtools/json-schema-ref-parser';
import { ConfigError } from '../config/config-error.js';
import { firstLine, openDocument, parseDocument, type LoadedDocument, type OpenApiDocument } from './open-document.js';
import { downloadDocument, isPrivateDocument, isRemoteDocument } from './download-document.js';
import { keepFormConsumes } from './swagger-consumes.js';
import { applyOverlays, type OverlaySource } from './apply-overlays.js';

export { lookingUpOnce, type LoadedDocument, type OpenApiDocument, type OpenApiVersion } from './open-document.js';

/** Loads and bundles the document at `file` (a path, or an http(s) URL); every failure is a ConfigError naming it. */
export async function loadDocument(file: string, overlays: readonly OverlaySource[] = []): Promise<LoadedDocument> {
  if (isRemoteDocument(file)) return loadRemoteDocument(file, overlays);
  const path = resolvePath(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(file, await unreadable(file, path, (error as NodeJS.ErrnoException).code ?? (error as Error).message));
  }
  return withOverlays(file, await parseDocument(file, text), overlays, (parsed) => openDocument(file, parsed, {
    files: [path],
    bundle: (value) => bundle(file, path, value),
    fromSwagger2: (value) => fromSwagger2(file, value),
  }));
}

/** The document opened after the overlays are applied to it as parsed, their warnings kept with it. */
async function withOverlays(file: string, parsed: OpenApiDocument, overlays: readonly OverlaySource[], open: (parsed: OpenApiDocument) => Promise<LoadedDocument>): Promise<LoadedDocument> {
  const overlayWarnings = overlays.length === 0 ? [] : applyOverlays(parsed, overlays);
  const loaded = await open(parsed);
  return overlayWarnings.length === 0 ? loaded : { ...loaded, overlayWarnings };
}

/** Downloads the document and bundles what its `$ref`s reach, resolved against its URL. Nothing to watch. */
async function loadRemoteDocument(url: string, overlays: readonly OverlaySource[]): Promise<LoadedDocument> {
  const downloaded = await downloadDocument(url);
  return withOverlays(url, await parseDocument(url, downloaded.text), overlays, (parsed) => openDocument(url, parsed, {
    files: [],
    bundle: (value) => bundle(url, downloaded.url, value, true),
    fromSwagger2: (value) => fromSwagger2(url, value),
  }));
}

/**
 * Why `file` could not be read, with what to do: a URL of a scheme other than http(s) says how to
 * get a file; a folder (DigitalOcean's document is one file among 2,900 in a folder) names the
 * documents in it.
 */
async function unreadable(file: string, path: string, code: string): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    return `a URL the stub cannot read (it reads files and http(s) URLs): save the document as a file and pass --spec openapi.yaml`;
  }
  if (code === 'ENOENT') return `no such file (looked for ${path})`;
  if (code === 'EISDIR') {
    const documents = (await readdir(path, { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/i.test(entry.name)).map((entry) => entry.name).sort();
    return `a folder, not a document; ${documents.length > 0 ? `the documents in it: ${documents.slice(0, 5).join(', ')}${documents.length > 5 ? ', …' : ''}` : 'it holds no .yaml or .json file'}`;
  }
  return `cannot read the spec (${code})`;
}

/**
 * Files reached by `$ref` are bundled into the document by json-schema-ref-parser. A document
 * without them skips it: bundling GitHub's (13 MB, internal references only) took 1.1 s.
 */
async function bundle(file: string, path: string, parsed: OpenApiDocument, remote = false): Promise<{ document: OpenApiDocument; files: string[] }> {
  // Imported only here: most documents are one file, and loading the parser costs about 40 ms of start-up.
  const { $RefParser, HTTPResolver } = await import('@apidevtools/json-schema-ref-parser');
  const parser = new $RefParser();
  try {
    // A file's `$ref`s reach files only; a downloaded document's reach what lies beside it on its
    // server. The parser's guard against private addresses stays on for a public document and is
    // off for one on this machine or the company's network, whose `$ref`s point at the same.
    const document = (await parser.bundle(path, parsed, {
      mutateInputSchema: true,
      resolve: remote ? { file: false, http: fewAtATime(HTTPResolver, { timeout: 30_000, safeUrlResolver: !isPrivateDocument(path) }) } : { http: false },
    })) as OpenApiDocument;
    return { document, files: remote ? [] : parser.$refs.paths('file') };
  } catch (error) {
    throw new ConfigError(file, `unresolvable $ref: ${firstLine((error as Error).message)}`);
  }
}

/** How many of a downloaded document's `$ref`d files are fetched at once. */
const DOWNLOADS_AT_ONCE = 8;

/**
 * The bundler's HTTP resolver, fetching a few files at a time. On its own it asks for every file
 * at once: DigitalOcean's document (2,900 files) served by `python3 -m http.server` left some
 * connections unanswered until the timeout, and the start failed after 30 s.
 */
function fewAtATime(resolver: HTTPResolverOptions, options: Partial<HTTPResolverOptions>): HTTPResolverOptions {
  const read = resolver.read as (this: HTTPResolverOptions, file: FileInfo) => Promise<string | Buffer>;
  const downloads = new Semaphore(DOWNLOADS_AT_ONCE);
  return {
    ...resolver,
    ...options,
    // `this` is the resolver as the bundler merged it with its defaults and these options.
    read(this: HTTPResolverOptions, file: FileInfo) {
      return downloads.runExclusive(() => read.call(this, file));
    },
  };
}

/** Swagger 2.0 becomes OpenAPI 3.0 through swagger2openapi, loaded only for such documents. */
async function fromSwagger2(file: string, document: OpenApiDocument): Promise<OpenApiDocument> {
  const { default: converter } = await import('swagger2openapi');
  try {
    const { openapi } = await converter.convertObj(document, { patch: true, warnOnly: true, resolve: false });
    keepFormConsumes(document, openapi);
    return openapi as OpenApiDocument;
  } catch (error) {
    throw new ConfigError(file, `this Swagger 2.0 document could not be converted to OpenAPI 3.0: ${firstLine((error as Error).message)}`);
  }
}
