// Generators for the string formats OpenAPI uses that json-schema-faker 0.6 has none for (it would
// emit a random string). They draw from jsf's seeded random, so they stay reproducible.
import type { Random } from 'json-schema-faker';
import { base64Of } from '../common/bytes.js';
import { REALISTIC_FORMATS } from './realistic-formats.js';

export const EXTRA_FORMATS: Record<string, (random: Random) => string> = {
  byte: (random) => {
    const bytes = new Uint8Array(random.int(1, 4) * 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(0, 255);
    return base64Of(bytes);
  },
  binary: (random) => randomWord(random, 8, 16),
  password: (random) => randomWord(random, 10, 16),
  regex: (random) => `^[a-z]{${random.int(1, 5)}}$`,
  'uri-template': (random) => `https://example.com/${randomWord(random, 3, 8)}/{id}`,
  // Not a JSON Schema format, but common (Box, ShipEngine, DigitalOcean) and checked by ajv-formats.
  url: (random) => `https://example.com/${randomWord(random, 3, 8)}`,
  ...REALISTIC_FORMATS,
};

const WORD_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

function randomWord(random: Random, min: number, max: number): string {
  let word = '';
  for (let n = random.int(min, max); n > 0; n--) word += random.pick(WORD_CHARS);
  return word;
}
