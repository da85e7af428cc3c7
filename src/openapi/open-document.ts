// An OpenAPI document already read (parsed YAML or JSON, or the object a caller passes) made ready
// to compile: its version checked, Swagger 2.0 converted, `$ref`s to other files bundled in by the
// reader's own means, internal references looked up once. Reads no file, so that runtimes without
// a file system (the fetch handler in a browser) open a document the way the server does.
import type { DocumentWarning } from './document-warnings.js';
import { ConfigError } from '../config/config-error.js';
import { parsedIfJson } from '../config/json-first.js';
import { escapePointerToken } from '../common/json-pointer.js';

export type OpenApiVersion = '3.0' | '3.1';

export interface LoadedDocument {
  file: string;
  /** The schema dialect: 3.0 (draft-04 with `nullable`), or 3.1 (JSON Schema 2020-12, also for 3.2). */
  version: OpenApiVersion;
  /** How the file was written, when the stub serves it under another version's rules. */
  convertedFrom?: 'Swagger 2.0' | 'OpenAPI 3.2';
  /** The bundled document: only internal (`#/...`) references remain. */
  document: OpenApiDocument;
  /** Resolves an internal reference (`#/components/schemas/Plant`) to its target. */
  resolveRef(ref: string): unknown;
  /** Every file the document was read from: the spec and each file reached by `$ref` (absolute). */
  files: string[];
  /** What applying --overlay files warned of (an action whose target selects nothing). */
  overlayWarnings?: DocumentWarning[];
  /** Several documents mounted as this one (mount-documents.ts): each one's name, mount path and file. */
  mounted?: MountedDocument[];
}

/** The extension each path item of a mounted document carries (mount-documents.ts): the name of the document it came from. */
export const DOCUMENT_EXTENSION = 'x-mounted-from';

/** One of several documents served on one port. */
export interface MountedDocument {
  /** How the journal, coverage and metrics name it: its file name without extension (its title where two clash). */
  name: string;
  /** Where its paths are served: `/orders`, or '' at the root. */
  mount: string;
  file: string;
}

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

/** What only the reader can do: bundle `$ref`s to other files, convert Swagger 2.0 (both Node-only). */
export interface DocumentReader {
  /** The document's files when it references some: the spec and each file reached (absolute). */
  files: string[];
  bundle(parsed: OpenApiDocument): Promise<{ document: OpenApiDocument; files: string[] }>;
  fromSwagger2(parsed: OpenApiDocument): Promise<OpenApiDocument>;
}

/** Opens a parsed document; `file` names it in every error (a path, or the option it came from). */
export async function openDocument(file: string, value: unknown, reader: DocumentReader): Promise<LoadedDocument> {
  let parsed = asDocument(file, value);
  const written = parsed.swagger === '2.0' ? 'Swagger 2.0' : /^3\.2\.\d+/.test(String(parsed.openapi ?? '')) ? 'OpenAPI 3.2' : undefined;
  if (written === 'Swagger 2.0') parsed = await reader.fromSwagger2(parsed);
  const version = written === 'OpenAPI 3.2' ? '3.1' : checkVersion(file, parsed);
  const resolveParsed = lookingUpOnce(parsed);
  const internal = onlyInternalRefs(file, parsed, resolveParsed);
  const { document, files } = internal ? { document: parsed, files: reader.files } : await reader.bundle(parsed);
  const resolveRef = document === parsed ? resolveParsed : lookingUpOnce(document);
  return {
    file,
    version,
    ...(written ? { convertedFrom: written } : {}),
    document,
    resolveRef,
    files,
  };
}

/** YAML or JSON text parsed into a document, errors naming `file` with line and column. */
export async function parseDocument(file: string, text: string): Promise<OpenApiDocument> {
  return asDocument(file, await parseText(file, text));
}

/**
 * A document or fixture given as text: JSON read at once, anything else by the YAML reader, which
 * is imported only then (a page whose documents are JSON or objects never downloads it).
 */
export async function parseText(file: string, text: string): Promise<unknown> {
  const json = /\.json$/i.test(file) ? undefined : parsedIfJson(text);
  if (json !== undefined) return json;
  const { parseYamlFile } = await import('../config/parse-yaml.js');
  return parseYamlFile(file, text);
}

/**
 * Whether every `$ref` in the document is internal (`#/...`). Then each must point at something: a
 * `$ref` to nothing stops the start, naming where it is written. False at the first reference to
 * another file, checking nothing: the bundler resolves, and refuses, those itself.
 */
function onlyInternalRefs(file: string, document: unknown, resolve: (ref: string) => unknown): boolean {
  // An explicit stack, so a document nested deeper than the call stack cannot crash the start.
  // Only nodes are stacked (nothing is allocated per value); where a
  // bad reference is written is found by a second walk, when there is one.
  const stack: unknown[] = [document];
  let broken: string | null = null;
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) return false;
      if (broken === null && resolve(ref) === undefined) broken = ref;
    }
    for (const key in node) {
      const value = node[key];
      if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  if (broken !== null) {
    throw new ConfigError(file, `${whereWritten(document, broken)}/$ref: unresolvable $ref "${broken}": the document has nothing there`);
  }
  return true;
}

/** The JSON pointer of the first object (in the walk's order) whose `$ref` is `ref`. */
function whereWritten(document: unknown, ref: string): string {
  type Step = { node: unknown; key: string; parent: Step | null };
  const stack: Step[] = [{ node: document, key: '', parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const node = step.node as Record<string, unknown>;
    if (node.$ref === ref) {
      const keys: string[] = [];
      for (let at: Step | null = step; at?.parent; at = at.parent) keys.push(`/${escapePointerToken(at.key)}`);
      return keys.reverse().join('');
    }
    for (const key in node) {
      const value = node[key];
      if (value !== null && typeof value === 'object') stack.push({ node: value, key, parent: step });
    }
  }
  return '';
}

/**
 * Resolves internal references of `document`, each looked up once: the document is not changed
 * after loading, GitHub's has about 10,000 `$ref`s to about 1,800 places, and compiling follows
 * many of them again.
 */
export function lookingUpOnce(document: unknown): (ref: string) => unknown {
  const targets = new Map<string, unknown>();
  return (ref) => {
    if (targets.has(ref)) return targets.get(ref);
    const target = resolveInternalRef(document, ref);
    targets.set(ref, target);
    return target;
  };
}

/**
 * The target of an internal `$ref`. Like json-schema-ref-parser's pointers, a pointer may pass
 * through another `$ref` (bundled documents point into places reached that way). Hand-written
 * because the parser's `$refs.get` builds a URL for every lookup: 390 ms of GitHub's start-up.
 */
function resolveInternalRef(document: unknown, ref: string, hops = 0): unknown {
  if (!ref.startsWith('#') || hops > MAX_REF_HOPS) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let node = document;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
      continue;
    }
    const through = node !== null && typeof node === 'object' ? (node as { $ref?: unknown }).$ref : undefined;
    if (typeof through !== 'string') return undefined;
    node = resolveInternalRef(document, through, hops + 1);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const MAX_REF_HOPS = 32;

function asDocument(file: string, value: unknown): OpenApiDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError(file, 'not an OpenAPI document (expected a mapping at the top level)');
  }
  return value as OpenApiDocument;
}

function checkVersion(file: string, document: OpenApiDocument): OpenApiVersion {
  const declared = String(document.openapi ?? '');
  const version = /^3\.0\.\d+/.test(declared) ? '3.0' : /^3\.1\.\d+/.test(declared) ? '3.1' : null;
  if (!version) {
    const older = olderSwagger(document);
    if (older) {
      throw new ConfigError(file, `${older.pointer}: this is a Swagger ${older.version} document; the stub serves OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0: convert it first (npx api-spec-converter --from=swagger_1 --to=openapi_3 --syntax=yaml FILE > openapi.yaml)`);
    }
    const swagger = (document as { swagger?: unknown }).swagger;
    const what = document.openapi !== undefined ? `"openapi: ${declared}"` : swagger !== undefined ? `"swagger: ${String(swagger)}" (Swagger 2.0 is written swagger: "2.0")` : 'no "openapi" field';
    throw new ConfigError(file, `/openapi: only OpenAPI 3.0.x, 3.1.x, 3.2.x and Swagger 2.0 are served, found ${what}`);
  }
  const paths = document.paths;
  if (paths !== undefined && (paths === null || typeof paths !== 'object' || Array.isArray(paths))) {
    throw new ConfigError(file, '/paths: must be a mapping of path templates to operations');
  }
  return version;
}

/** A Swagger 1.x document (`swaggerVersion: "1.2"`, or `swagger: "1.x"`): where it says so, and which version. */
function olderSwagger(document: OpenApiDocument): { pointer: string; version: string } | null {
  const { swagger, swaggerVersion } = document as { swagger?: unknown; swaggerVersion?: unknown };
  if (swaggerVersion !== undefined) return { pointer: '/swaggerVersion', version: String(swaggerVersion) };
  if (/^1\./.test(String(swagger))) return { pointer: '/swagger', version: String(swagger) };
  return null;
}

export function firstLine(message: string): string {
  return message.split('\n')[0].trim();
}
