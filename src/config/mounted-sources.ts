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
