// Generators for values that read like a real API's, named by formats of the stub's own (the
// `stub-` prefix: they exist only in the schemas handed to json-schema-faker, never in a schema
// that validates). They draw from jsf's seeded random, so they stay reproducible.
import type { Random } from 'json-schema-faker';

/**
 * The moment generated dates are counted from. A constant rather than the clock: the same request
 * gets the same bytes across restarts and days (contract tests keep snapshots of answers), and a
 * date counted back from it is never in the future. Move it forward with each release.
 */
export const REFERENCE_TIME = Date.UTC(2026, 10, 1);

const DAY = 86_400_000;
const YEAR = 365 * DAY;

/** A time within [from, to] ms of REFERENCE_TIME, whole seconds. */
function timeBetween(random: Random, from: number, to: number): Date {
  const seconds = random.int(Math.ceil((REFERENCE_TIME + from) / 1000), Math.floor((REFERENCE_TIME + to) / 1000));
  return new Date(seconds * 1000);
}

const dateTime = (date: Date) => date.toISOString().replace('.000Z', 'Z');
const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

/** ISO 639-1 codes of widely used languages, and BCP 47 tags of locales: both valid BCP 47. */
const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'ja', 'zh', 'ko', 'pl'];
const LOCALES = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'ja-JP', 'zh-CN', 'ko-KR'];

export const REALISTIC_FORMATS: Record<string, (random: Random) => string> = {
  // created_at, updated_at, *_at: within the last two years.
  'stub-past-date-time': (random) => dateTime(timeBetween(random, -2 * YEAR, 0)),
  'stub-past-date': (random) => dateOnly(timeBetween(random, -2 * YEAR, 0)),
  // expires_at, due_date, deadline: within the next year.
  'stub-future-date-time': (random) => dateTime(timeBetween(random, DAY, YEAR)),
  'stub-future-date': (random) => dateOnly(timeBetween(random, DAY, YEAR)),
  // birthday, date_of_birth: an adult's.
  'stub-birth-date': (random) => dateOnly(timeBetween(random, -80 * YEAR, -18 * YEAR)),
  'stub-language': (random) => random.pick(LANGUAGES),
  'stub-locale': (random) => random.pick(LOCALES),
};

/** Unix seconds within the last two years, or the next one, for an integer timestamp (Stripe's `created`, `expires_at`). */
export const PAST_UNIX_SECONDS = { min: Math.floor((REFERENCE_TIME - 2 * YEAR) / 1000), max: Math.floor(REFERENCE_TIME / 1000) };
export const FUTURE_UNIX_SECONDS = { min: Math.floor((REFERENCE_TIME + DAY) / 1000), max: Math.floor((REFERENCE_TIME + YEAR) / 1000) };
