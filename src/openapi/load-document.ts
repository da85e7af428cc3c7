// Reads an OpenAPI 3.0/3.1 document from disk and makes every $ref in it internal, so that the
// compiler can hand the whole document to Ajv as one schema resource.
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { ConfigError } from '../config/config-error.js';
import { parseYamlFile } from '../config/parse-yaml.js';

export type OpenApiVersion = '3.0' | '3.1';

export interface LoadedDocument {
  file: string;
  version: OpenApiVersion;
  /** The bundled document: only internal (`#/...`) references remain. */
  document: OpenApiDocument;
  /** Resolves an internal reference (`#/components/schemas/Plant`) to its target. */
  resolveRef(ref: string): unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

/** Loads and bundles the document at `file`; every failure is a ConfigError naming the file. */
export async function loadDocument(file: string): Promise<LoadedDocument> {
  const path = resolvePath(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, code === 'ENOENT' ? `no such file (looked for ${path})` : `cannot read the spec (${code ?? (error as Error).message})`);
  }
  const parsed = parseDocument(file, text);
  const version = checkVersion(file, parsed);
  const parser = new $RefParser();
  let document: OpenApiDocument;
  try {
    document = (await parser.bundle(path, parsed, {
      mutateInputSchema: true,
      resolve: { http: false },
    })) as OpenApiDocument;
  } catch (error) {
    throw new ConfigError(file, `unresolvable $ref: ${firstLine((error as Error).message)}`);
  }
  return {
    file,
    version,
    document,
    resolveRef: (ref) => parser.$refs.get(ref),
  };
}

function parseDocument(file: string, text: string): OpenApiDocument {
  const value = parseYamlFile(file, text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError(file, 'not an OpenAPI document (expected a mapping at the top level)');
  }
  return value as OpenApiDocument;
}

function checkVersion(file: string, document: OpenApiDocument): OpenApiVersion {
  const declared = String(document.openapi ?? '');
  const version = /^3\.0\.\d+/.test(declared) ? '3.0' : /^3\.1\.\d+/.test(declared) ? '3.1' : null;
  if (!version) {
    const what = document.openapi === undefined ? (document as { swagger?: unknown }).swagger ? 'a Swagger 2.0 document' : 'no "openapi" field' : `"openapi: ${declared}"`;
    throw new ConfigError(file, `/openapi: only OpenAPI 3.0.x and 3.1.x are served, found ${what}`);
  }
  const paths = document.paths;
  if (paths !== undefined && (paths === null || typeof paths !== 'object' || Array.isArray(paths))) {
    throw new ConfigError(file, '/paths: must be a mapping of path templates to operations');
  }
  return version;
}

function firstLine(message: string): string {
  return message.split('\n')[0].trim();
}
