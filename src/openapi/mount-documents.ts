// Several documents served as one: each document's paths under its mount path, its components,
// security schemes and webhooks kept apart (a name two documents share is renamed in the later one,
// `orders.Error`), every `$ref` rewritten to match, and each operation marked with the document it
// came from (`x-mounted-from`, not an `x-stub-` hint of the user's), so the one compiled model routes, validates, journals and covers
// them all. What the whole stub then does for one document it does for each; only naming (the
// journal's `document`, coverage per document, the 404) needs to know they were several.
// Browser-safe: the fetch handler mounts documents given as objects with it too.
import { ConfigError } from '../config/config-error.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { setOwn } from '../common/json-value.js';
import { DOCUMENT_EXTENSION, lookingUpOnce, type LoadedDocument, type MountedDocument, type OpenApiDocument } from './open-document.js';
import { upgradeTo31 } from './upgrade-to-31.js';
import { serverBasePath } from './server-urls.js';

export { DOCUMENT_EXTENSION };

export type { MountedDocument };

/** A document to mount: as loaded, and the mount path given for it (null: its first server's path). */
export interface DocumentToMount {
  spec: LoadedDocument;
  mount: string | null;
  /** Its name when the caller gives one (the fetch handler's documents have no file name). */
  name?: string;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/**
 * One document serving every document's operations, each under its mount path. Refused (a
 * ConfigError naming both) when two documents would answer the same path.
 */
export function mountDocuments(parts: readonly DocumentToMount[]): LoadedDocument {
  const mounted = namesAndMounts(parts);
  refuseSharedPaths(parts, mounted);
  const mixed = new Set(parts.map((part) => part.spec.version)).size > 1;
  const merged: OpenApiDocument = { openapi: mixed ? '3.1.0' : parts[0].spec.document.openapi, info: { title: mounted.map((m) => titleOf(parts[mounted.indexOf(m)].spec, m.name)).join(' + '), version: '1' }, paths: {} };
  const taken = new Map<string, Set<string>>();
  parts.forEach((part, i) => {
    const { name, mount } = mounted[i];
    // A 3.0 document beside a 3.1 one is read with 3.1's rules: its `nullable` and boolean
    // exclusive bounds are written the 3.1 way first, so one schema dialect validates both.
    const document = mixed && part.spec.version === '3.0' ? upgradeTo31(part.spec.document) : part.spec.document;
    const renames = componentRenames(document, name, taken);
    const rewrite = (value: unknown) => {
      try {
        return rewriteRefs(value, name, mount, renames);
      } catch (error) {
        if (error instanceof RangeError) throw new ConfigError(part.spec.file, 'the document nests deeper than several documents can be mounted together; serve it alone');
        throw error;
      }
    };
    for (const [path, written] of Object.entries(document.paths ?? {})) {
      // A path item written as a `$ref` (`components/pathItems`) is copied in, so that its
      // operations get the document's security and the mark of the document they are from.
      const item = pathItemOf(written, part.spec);
      merged.paths![mount + path] = { ...(rewrite(withSecurity(item, document)) as Record<string, unknown>), [DOCUMENT_EXTENSION]: name };
    }
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      if (entries === null || typeof entries !== 'object') continue;
      const target = ((merged.components ??= {})[section] ??= {}) as Record<string, unknown>;
      for (const [entry, value] of Object.entries(entries)) setOwn(target, renames.get(`${section}/${entry}`) ?? entry, rewrite(value));
    }
    for (const [hook, value] of Object.entries((document.webhooks as Record<string, unknown> | undefined) ?? {})) {
      setOwn((merged.webhooks ??= {}) as Record<string, unknown>, renames.get(`webhooks/${hook}`) ?? hook, rewrite(value));
    }
    if (Array.isArray(document.tags)) merged.tags = [...((merged.tags as unknown[]) ?? []), ...document.tags];
    // Anything else a `$ref` may point into (an `x-` key at the top) is kept under the document's name.
    for (const [key, value] of Object.entries(document)) {
      if (!SECTIONS.has(key)) (((merged['x-mounted-documents'] ??= {}) as Record<string, Record<string, unknown>>)[name] ??= {})[key] = rewrite(value);
    }
  });
  return {
    file: parts.map((part) => part.spec.file).join(' + '),
    version: mixed ? '3.1' : parts[0].spec.version,
    document: merged,
    resolveRef: lookingUpOnce(merged),
    files: parts.flatMap((part) => part.spec.files),
    overlayWarnings: parts.flatMap((part) => part.spec.overlayWarnings ?? []),
    mounted,
  };
}

/** Top-level keys mountDocuments merges itself; any other is kept under `x-mounted-documents`. */
const SECTIONS = new Set(['openapi', 'info', 'servers', 'paths', 'components', 'webhooks', 'tags', 'security', 'jsonSchemaDialect', 'externalDocs', 'swagger']);

function titleOf(spec: LoadedDocument, fallback: string): string {
  return typeof spec.document.info?.title === 'string' && spec.document.info.title !== '' ? spec.document.info.title : fallback;
}

/** Each document's name (its file name without extension, its title where two file names clash) and mount path. */
function namesAndMounts(parts: readonly DocumentToMount[]): MountedDocument[] {
  const base = (file: string) => file.replace(/[?#].*$/, '').split(/[\\/]/).pop()!.replace(/\.(ya?ml|json)$/i, '');
  const counts = new Map<string, number>();
  for (const part of parts) counts.set(base(part.spec.file), (counts.get(base(part.spec.file)) ?? 0) + 1);
  const names = new Set<string>();
  return parts.map((part, i) => {
    let name = part.name ?? (counts.get(base(part.spec.file))! > 1 ? titleOf(part.spec, base(part.spec.file)) : base(part.spec.file));
    if (names.has(name)) name = `${name}-${i + 1}`;
    names.add(name);
    const mount = part.mount ?? serverBasePath(part.spec.document);
    if (mount !== '' && !/^(\/[^/{}?#\s]+)+$/.test(mount)) throw new ConfigError(part.spec.file, `mount path "${mount}" must be a path such as /orders (no trailing slash, no template)`);
    if (mount === '/__admin' || mount.startsWith('/__admin/')) throw new ConfigError(part.spec.file, `mount path ${mount} is the admin API's; mount the document elsewhere`);
    return { name, mount, file: part.spec.file };
  }).map((document, i, all) => {
    const other = all.find((candidate, j) => j < i && candidate.mount === document.mount && document.mount !== '');
    if (other) throw new ConfigError(document.file, `is mounted at ${document.mount}, as ${other.file} is; give each document its own mount path (--spec /other=FILE)`);
    return document;
  });
}

/** Two documents answering one path (templates compared with their parameters' names left out) cannot share a port. */
function refuseSharedPaths(parts: readonly DocumentToMount[], mounted: readonly MountedDocument[]): void {
  const owners = new Map<string, string>();
  parts.forEach((part, i) => {
    for (const [path, item] of Object.entries(part.spec.document.paths ?? {})) {
      // A `#fragment` tells operations apart on one path (fragment-operations.ts): the path is the same.
      const shape = (mounted[i].mount + path.split('#', 1)[0]).replace(/\{[^}]*\}/g, '{}');
      const first = Object.keys(item ?? {}).find((key) => METHODS.has(key)) ?? 'get';
      const operation = `${mounted[i].name}: ${first.toUpperCase()} ${mounted[i].mount}${path}`;
      const other = owners.get(shape);
      if (other !== undefined && !other.startsWith(`${mounted[i].name}: `)) {
        throw new ConfigError(part.spec.file, `/paths/${escapePointerToken(path)}: ${operation} and ${other} answer the same path; mount one apart (--spec /${mounted[i].name}=${part.spec.file})`);
      }
      owners.set(shape, operation);
    }
  });
}

/** The path item itself where it is written as an internal `$ref`, its siblings (summary, description) kept. */
function pathItemOf(item: unknown, spec: LoadedDocument): unknown {
  if (item === null || typeof item !== 'object' || typeof (item as { $ref?: unknown }).$ref !== 'string') return item;
  const { $ref, ...siblings } = item as Record<string, unknown>;
  const target = ($ref as string).startsWith('#/') ? spec.resolveRef($ref as string) : undefined;
  return target !== null && typeof target === 'object' ? { ...(target as Record<string, unknown>), ...siblings } : item;
}

/** A path item whose operations carry the document's top-level `security` where they state none. */
function withSecurity(item: unknown, document: OpenApiDocument): unknown {
  if (!Array.isArray(document.security) || item === null || typeof item !== 'object') return item;
  const copy: Record<string, unknown> = { ...(item as Record<string, unknown>) };
  for (const [key, operation] of Object.entries(copy)) {
    if (METHODS.has(key) && operation !== null && typeof operation === 'object' && !('security' in operation)) copy[key] = { ...operation, security: document.security };
  }
  return copy;
}

/** `section/name` -> the name it is kept under, for each component or webhook whose name an earlier document took. */
function componentRenames(document: OpenApiDocument, name: string, taken: Map<string, Set<string>>): Map<string, string> {
  const renames = new Map<string, string>();
  const sections: Array<[string, Record<string, unknown>]> = [...Object.entries(document.components ?? {}), ['webhooks', (document.webhooks as Record<string, unknown>) ?? {}]];
  for (const [section, entries] of sections) {
    if (entries === null || typeof entries !== 'object') continue;
    const names = taken.get(section) ?? new Set<string>();
    taken.set(section, names);
    for (const entry of Object.keys(entries)) {
      let kept = entry;
      for (let n = 2; names.has(kept); n++) kept = n === 2 ? `${name}.${entry}` : `${name}.${entry}.${n}`;
      names.add(kept);
      if (kept !== entry) renames.set(`${section}/${entry}`, kept);
    }
  }
  return renames;
}

/**
 * A copy of `value` with every internal `$ref` pointing where the target now is: a path under the
 * mount, a renamed component, a top-level extension under `x-mounted-documents`. Security
 * requirements name renamed schemes too. Recursive: a document nested deeper than the call stack
 * allows is refused by mountDocuments with a ConfigError, not a crash.
 */
function rewriteRefs(value: unknown, name: string, mount: string, renames: Map<string, string>): unknown {
  const copy = (node: unknown, key: string | null): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item) => (key === 'security' ? renameSchemes(item, renames) : copy(item, null)));
    const out: Record<string, unknown> = {};
    // setOwn: a key written `__proto__` stays a key, not the copy's prototype.
    for (const [k, v] of Object.entries(node)) setOwn(out, k, k === '$ref' && typeof v === 'string' ? movedRef(v, name, mount, renames) : copy(v, k));
    if (out.discriminator !== null && typeof out.discriminator === 'object') out.discriminator = renamedMapping(node as Record<string, unknown>, out.discriminator as Record<string, unknown>, name, mount, renames);
    return out;
  };
  return copy(value, null);
}

/**
 * A discriminator whose schemas were renamed still tells them by the names the document wrote:
 * its mapping's values follow the rename, and a branch renamed without a mapping entry gets one
 * under its old name (the implicit mapping is the schema's name, which changed).
 */
function renamedMapping(schema: Record<string, unknown>, discriminator: Record<string, unknown>, name: string, mount: string, renames: Map<string, string>): Record<string, unknown> {
  const written = discriminator.mapping !== null && typeof discriminator.mapping === 'object' ? (discriminator.mapping as Record<string, unknown>) : {};
  const mapping: Record<string, unknown> = {};
  for (const [value, target] of Object.entries(written)) {
    const moved = typeof target !== 'string' ? target : target.startsWith('#') ? movedRef(target, name, mount, renames) : renames.has(`schemas/${target}`) ? `#/components/schemas/${escapePointerToken(renames.get(`schemas/${target}`)!)}` : target;
    setOwn(mapping, value, moved);
  }
  const branches = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])];
  for (const branch of branches) {
    const ref = branch !== null && typeof branch === 'object' ? (branch as { $ref?: unknown }).$ref : undefined;
    const old = typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
    if (old === undefined || !renames.has(`schemas/${old}`) || Object.values(written).includes(ref)) continue;
    if (!(old in mapping)) setOwn(mapping, old, movedRef(ref as string, name, mount, renames));
  }
  return Object.keys(mapping).length === 0 ? discriminator : { ...discriminator, mapping };
}

function renameSchemes(requirement: unknown, renames: Map<string, string>): unknown {
  if (requirement === null || typeof requirement !== 'object') return requirement;
  const renamed: Record<string, unknown> = {};
  for (const [scheme, scopes] of Object.entries(requirement)) setOwn(renamed, renames.get(`securitySchemes/${scheme}`) ?? scheme, scopes);
  return renamed;
}

function movedRef(ref: string, name: string, mount: string, renames: Map<string, string>): string {
  if (!ref.startsWith('#/')) return ref;
  const tokens = ref.slice(2).split('/');
  const decode = (token: string) => {
    try {
      return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return token;
    }
  };
  const [section] = tokens;
  if (section === 'paths' && tokens.length > 1) return ['#', 'paths', escapePointerToken(mount + decode(tokens[1])), ...tokens.slice(2)].join('/');
  if (section === 'components' && tokens.length > 2) {
    const renamed = renames.get(`${decode(tokens[1])}/${decode(tokens[2])}`);
    return renamed === undefined ? ref : ['#', 'components', tokens[1], escapePointerToken(renamed), ...tokens.slice(3)].join('/');
  }
  if (section === 'webhooks' && tokens.length > 1) {
    const renamed = renames.get(`webhooks/${decode(tokens[1])}`);
    return renamed === undefined ? ref : ['#', 'webhooks', escapePointerToken(renamed), ...tokens.slice(2)].join('/');
  }
  if (SECTIONS.has(section)) return ref;
  return ['#', 'x-mounted-documents', escapePointerToken(name), ...tokens].join('/');
}
