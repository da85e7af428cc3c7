// `--spec /orders=./orders.yaml`, `--fixtures /orders=./fixtures/orders`, `--overlay /orders=fix.yaml`:
// a value that names the mount path of one of several documents before `=`, or none. Parsed once
// here so every option that takes one reads it the same way.
import { ConfigError } from './config-error.js';

export interface MountedSource {
  /** The mount path named before `=` (`/orders`); null when the value names none. */
  mount: string | null;
  /** The file, folder or URL after it. */
  source: string;
}

/** A mount path: segments of non-space characters without templates, no trailing slash. */
const MOUNT = /^((?:\/[^/{}?#=\s]+)+)=(.+)$/;

export function mountedSource(option: string, value: string): MountedSource {
  if (typeof value !== 'string' || value === '') throw new ConfigError(option, 'must be a file, a folder or a URL, optionally after a mount path (/orders=./orders.yaml)');
  const named = MOUNT.exec(value);
  return named ? { mount: named[1], source: named[2] } : { mount: null, source: value };
}

/** One value or several, as the option was given (a string, or an array in startStub), parsed. */
export function mountedSources(option: string, value: string | readonly string[] | undefined): MountedSource[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map((item) => mountedSource(option, item as string));
  return [mountedSource(option, value as string)];
}

/**
 * The documents, fixtures folders and overlays as given: with one document, no mount path may be
 * named (it has nothing to tell apart) and one fixtures folder is taken; `documents` is empty.
 */
export function resolveDocuments(options: { spec?: string | readonly string[]; fixtures?: string | readonly string[]; overlays?: readonly string[]; proxy?: string }): {
  first: string | undefined;
  documents: MountedSource[];
  wholeFolder: string | undefined;
  documentFixtures: MountedSource[];
} {
  const documents = mountedSources('spec', options.spec);
  const folders = mountedSources('fixtures', options.fixtures);
  const several = documents.length > 1;
  // --proxy forwards to one real API, whose paths are one document's: a mount path would be sent to it.
  if (several && options.proxy !== undefined) throw new ConfigError('proxy', 'forwards to one real API, and several documents are served; run one stub with --proxy per API');
  if (!several) {
    const one = 'a mount path before = names one of several documents, and one document is served';
    if (documents[0]?.mount != null) throw new ConfigError('spec', `${documents[0].mount}= names a mount path, which only several documents take; pass ${documents[0].source} alone, or more documents`);
    if (folders.some((folder) => folder.mount !== null)) throw new ConfigError('fixtures', one);
    if (folders.length > 1) throw new ConfigError('fixtures', 'one document takes one fixtures folder');
    if (Array.isArray(options.overlays) && options.overlays.some((file) => typeof file === 'string' && file !== '' && mountedSource('overlays', file).mount !== null)) throw new ConfigError('overlays', one);
  }
  return {
    first: documents[0]?.source,
    documents: several ? documents : [],
    wholeFolder: folders.find((folder) => folder.mount === null)?.source,
    documentFixtures: folders.filter((folder) => folder.mount !== null),
  };
}
