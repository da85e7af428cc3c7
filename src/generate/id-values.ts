// New identities shaped like a known one: the value's last characters redrawn within their own
// class (digit, hex letter, letter), so a uuid stays a uuid and `SM` + 32 hex digits still fits
// its pattern. What keeps list items distinct and gives stateful creates ids in the document's
// own format; derived from a hash, so the same inputs give the same id.
import { fnv1a } from './seeded-random.js';
import { generatorLibraries } from './generator-libraries.js';
import { EXTRA_FORMATS } from './extra-formats.js';

/** What of a string id's schema a new id must fit. */
export interface IdConstraints {
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export function redrawId(value: string, hash: number): string {
  const chars = [...value];
  let drawn = 0;
  for (let i = chars.length - 1; i >= 0 && drawn < 6; i--) {
    const pick = (hash >>> (drawn * 5)) + drawn;
    const c = chars[i];
    if (/[0-9]/.test(c)) chars[i] = String(pick % 10);
    else if (/[a-f]/.test(c)) chars[i] = 'abcdef'[pick % 6];
    else if (/[A-F]/.test(c)) chars[i] = 'ABCDEF'[pick % 6];
    else if (/[a-z]/.test(c)) chars[i] = String.fromCharCode(97 + (pick % 26));
    else if (/[A-Z]/.test(c)) chars[i] = String.fromCharCode(65 + (pick % 26));
    else continue;
    drawn++;
  }
  return chars.join('');
}

/**
 * A version-4-shaped uuid made from `text`'s hashes instead of the system's randomness: the same
 * seed and the same requests give the same ids, so a stateful run is repeatable byte for byte.
 */
export function uuidFrom(text: string): string {
  let hex = '';
  for (let part = 0; part < 4; part++) hex += fnv1a(`${part}\u0000${text}`).toString(16).padStart(8, '0');
  const variant = '89ab'[parseInt(hex[16], 16) % 4];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A string generated for the id's own constraints (`pattern: ^se(-[a-z0-9]+)+$`, `minLength`,
 * `format`) by json-schema-faker, from `key`'s hash: where the answer's generated data has no id
 * that fits what the read's path parameter asks. Null where none is made (a pattern it cannot read).
 */
export function idFromConstraints(constraints: IdConstraints, key: string): string | null {
  try {
    const value = generatorLibraries().generateSync({ type: 'string', ...constraints }, { seed: fnv1a(key) | 0, formats: EXTRA_FORMATS });
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  } catch {
    return null;
  }
}
