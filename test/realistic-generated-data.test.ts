// Generated data that reads like a real API's: a property's name (in any spelling), the object
// around it, or its title and description say what its value looks like, and the stub draws such
// a value (a person's name, an ISO country code, a recent timestamp, a sentence) wherever the
// schema leaves room. Each kind is judged by a check of its own (an address's shape, the ISO lists
// Intl knows, a date window), not by the stub's rules. Over ../shared/realworld (skipped with one
// line when absent), the share of plausible values among the properties of a table of names taken
// from those documents is printed and kept above its floor. An id is never generated empty or null.
import { existsSync, readdirSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { sendBuilt, validRequests } from './helpers/corpus.js';
import { request } from './helpers/http.js';
import { REFERENCE_TIME } from '../src/generate/realistic-formats.js';

const YEAR = 365 * 86_400_000;
const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const currencies = new Set(Intl.supportedValuesOf('currency'));

/** What a value of each kind must be, checked without the stub's own rules. */
const KINDS: Record<string, (value: unknown) => boolean> = {
  person: (v) => typeof v === 'string' && /^\p{Lu}[\p{L}'.-]*( \p{Lu}?[\p{L}'.-]+)+$/u.test(v),
  word: (v) => typeof v === 'string' && /^\p{Lu}[\p{L}'-]+$/u.test(v),
  username: (v) => typeof v === 'string' && /^[\w.-]{2,30}$/.test(v) && /[a-z]/i.test(v),
  email: (v) => typeof v === 'string' && /^[^@\s]+@[a-z\d-]+(\.[a-z\d-]+)*\.[a-z]{2,}$/i.test(v),
  e164: (v) => typeof v === 'string' && /^\+[1-9]\d{6,14}$/.test(v),
  countryCode: (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v) && regions.of(v) !== v,
  country: (v) => typeof v === 'string' && /^\p{Lu}[\p{L} ,.'()-]+$/u.test(v) && v.length > 3,
  currency: (v) => typeof v === 'string' && currencies.has(v),
  language: (v) => typeof v === 'string' && /^[a-z]{2,3}(-[A-Z]{2})?$/.test(v) && Intl.getCanonicalLocales(v)[0] === v,
  timezone: (v) => typeof v === 'string' && v.includes('/') && (() => { try { new Intl.DateTimeFormat('en', { timeZone: v }); return true; } catch { return false; } })(),
  // An absolute http(s) URL, or a path on the API's own host (Stripe's list `url: /v1/charges`).
  https: (v) => typeof v === 'string' && (/^\/[\w./{}-]*$/.test(v) || (URL.canParse(v) && ['https:', 'http:'].includes(new URL(v).protocol))),
  ipv4: (v) => typeof v === 'string' && isIPv4(v),
  colour: (v) => typeof v === 'string' && /^#[\da-f]{6}$/i.test(v),
  street: (v) => typeof v === 'string' && /^\d+ \p{Lu}[\p{L}' ]+$/u.test(v),
  sentence: (v) => typeof v === 'string' && /^\p{L}[\p{L}\d ,.'!?;:()-]*$/u.test(v) && v.trim().split(/\s+/).length >= 3,
  recent: (v) => within(v, -2 * YEAR, 0),
  upcoming: (v) => within(v, 0, YEAR + 86_400_000),
  adultBirthday: (v) => within(v, -81 * YEAR, -18 * YEAR + 86_400_000),
  // A price as a number with at most two decimals, or as text ("12.99").
  money: (v) => (typeof v === 'number' || (typeof v === 'string' && /^\d+(\.\d{1,2})?$/.test(v))) && Number(v) >= 0 && Math.round(Number(v) * 100) === Number((Number(v) * 100).toFixed(6)),
  latitude: (v) => typeof v === 'number' && v >= -90 && v <= 90,
  longitude: (v) => typeof v === 'number' && v >= -180 && v <= 180,
  count: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  text: (v) => typeof v === 'string',
};

/**
 * A date (ISO 8601 text or Unix seconds) within [from, to] ms of the reference the stub counts
 * from (a constant, so that answers stay the same across days), and in the past when `to` is 0.
 */
function within(value: unknown, from: number, to: number): boolean {
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  return Number.isFinite(ms) && ms >= REFERENCE_TIME + from && ms <= REFERENCE_TIME + to && (to > 0 || ms <= Date.now());
}

const PEOPLE = `
openapi: 3.0.3
info: {title: People, version: "1"}
paths:
  /users/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200": {description: a user, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
  /models:
    get:
      parameters: [{ name: page, in: query, schema: { type: integer } }]
      responses:
        "200": {description: models, content: {application/json: {schema: {type: object, properties: {data: {type: array, items: {type: object, required: [id], properties: {id: {type: string, nullable: true}, object: {type: string}}}}}}}}}
  /products/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200": {description: a product, content: {application/json: {schema: {$ref: '#/components/schemas/Product'}}}}
components:
  schemas:
    User:
      type: object
      properties:
        id: {type: integer}
        name: {type: string}
        firstName: {type: string}
        last_name: {type: string}
        FullName: {type: string}
        user-name: {type: string}
        email: {type: string}
        billingEmailAddress: {type: string}
        phone_number: {type: string}
        country_code: {type: string}
        country: {type: string}
        home_country: {type: string, maxLength: 2}
        nationality: {type: string, description: Two-letter ISO 3166 country code}
        currency: {type: string}
        locale: {type: string}
        language: {type: string}
        TimeZone: {type: string}
        avatarUrl: {type: string}
        website: {type: string}
        last_login_ip: {type: string}
        favourite_colour: {type: string}
        bio: {type: string}
        created_at: {type: string, format: date-time}
        updatedAt: {type: string}
        expires_at: {type: string, format: date-time}
        created: {type: integer}
        birthday: {type: string, format: date}
        contact: {type: string, title: Email address}
        billing:
          type: object
          properties:
            address:
              type: object
              properties:
                city: {type: string}
                street: {type: string}
                postal_code: {type: string}
                latitude: {type: number}
                longitude: {type: number}
    Product:
      type: object
      properties:
        name: {type: string, enum: [Fern, Monstera]}
        code: {type: string, pattern: '^[A-Z]{3}$'}
        price: {type: number}
        amount: {type: integer}
        stock_count: {type: integer}
        description: {type: string}
        summary: {type: string, maxLength: 10}
        nickname: {type: string, x-faker: commerce.productName}
`;

/** Property path -> the kind its value must be. */
const USER_CASES: Array<[string, string]> = [
  ['name', 'person'], ['firstName', 'word'], ['last_name', 'word'], ['FullName', 'person'], ['user-name', 'username'],
  ['email', 'email'], ['billingEmailAddress', 'email'], ['phone_number', 'e164'],
  ['country_code', 'countryCode'], ['country', 'country'], ['home_country', 'countryCode'], ['nationality', 'countryCode'],
  ['currency', 'currency'], ['locale', 'language'], ['language', 'language'], ['TimeZone', 'timezone'],
  ['avatarUrl', 'https'], ['website', 'https'], ['last_login_ip', 'ipv4'], ['favourite_colour', 'colour'], ['bio', 'sentence'],
  ['created_at', 'recent'], ['updatedAt', 'recent'], ['expires_at', 'upcoming'], ['created', 'recent'], ['birthday', 'adultBirthday'],
  ['contact', 'email'],
  ['billing.address.city', 'text'], ['billing.address.street', 'street'], ['billing.address.postal_code', 'text'],
  ['billing.address.latitude', 'latitude'], ['billing.address.longitude', 'longitude'],
];

const at = (value: any, path: string) => path.split('.').reduce((v, key) => v?.[key], value);

describe('generated values that read like the real thing', () => {
  let stub: DocumentStub;
  const users: any[] = [];
  let product: any;
  beforeAll(async () => {
    stub = await startStubOn(PEOPLE);
    for (const id of [1, 2, 3, 4, 5]) {
      const answer = await request(`${stub.url}/users/${id}`);
      expect([answer.status, answer.headers.get('x-mock-scenario')]).toEqual([200, 'generated']);
      users.push(answer.json);
    }
    product = (await request(`${stub.url}/products/1`)).json;
  });
  afterAll(async () => {
    await stub?.close();
  });

  it.each(USER_CASES)('%s is %s in every answer', (path, kind) => {
    const values = users.map((user) => at(user, path));
    expect(values.filter((value) => !KINDS[kind](value)), JSON.stringify(values)).toEqual([]);
  });

  it('keeps the document\'s own choices: an enum, a pattern, x-faker and a maxLength too short for a sentence', () => {
    expect(['Fern', 'Monstera']).toContain(product.name);
    expect(product.code).toMatch(/^[A-Z]{3}$/);
    expect(product.summary.length).toBeLessThanOrEqual(10);
    expect(KINDS.word(product.nickname.split(' ')[0])).toBe(true);
    expect([KINDS.money(product.price), KINDS.count(product.amount) && product.amount >= 100, KINDS.count(product.stock_count), KINDS.sentence(product.description)]).toEqual([true, true, true, true]);
  });

  it('never generates an empty id, nor a null one, in a list of 200 generated answers', async () => {
    const ids: unknown[] = [];
    for (let page = 1; page <= 200; page++) {
      const answer = await request(`${stub.url}/models?page=${page}`, { headers: { prefer: 'dynamic=true' } });
      ids.push(...answer.json.data.map((model: { id: unknown }) => model.id));
    }
    expect(ids.filter((id) => typeof id !== 'string' || id === '')).toEqual([]);
  });

  it('gives the same bytes to the same request, from another stub on the same document too', async () => {
    const again = await startStubOn(PEOPLE);
    try {
      const [first, second] = await Promise.all([request(`${stub.url}/users/3`), request(`${again.url}/users/3`)]);
      expect(second.text).toBe(first.text);
      expect(JSON.parse(first.text)).toEqual(users[2]);
    } finally {
      await again.close();
    }
  });
});

// The measurement over real documents: a table of property names found in them, with the kind
// each should have; every GET operation answered once with data generated from its schema
// (`dynamic`, so the documents' own examples do not count), and the values of those properties
// judged by their kind.
const REALWORLD = join(import.meta.dirname, '..', '..', 'shared', 'realworld');
// 97.2% on the last run; the issue asked for 90% on documents held back.
const MIN_PLAUSIBLE = 0.95;
const TABLE: Record<string, string> = {
  email: 'email', shopperEmail: 'email', receipt_email: 'email',
  phone: 'e164', telephoneNumber: 'e164',
  countryCode: 'countryCode', country_code: 'countryCode',
  currency: 'currency', language: 'language', shopperLocale: 'language', locale: 'language',
  firstName: 'word', lastName: 'word', first_name: 'word', last_name: 'word', displayName: 'person', username: 'username',
  created_at: 'recent', modified_at: 'recent', created: 'recent', updated_at: 'recent', expires_at: 'upcoming',
  description: 'sentence', message: 'sentence', instructions: 'sentence', reason: 'sentence', amount: 'money',
  city: 'text', postal_code: 'text', price: 'money', quantity: 'count', total_count: 'count', total_tokens: 'count',
  url: 'https', website: 'https',
};

function realworldDocuments(): string[] {
  if (!existsSync(REALWORLD)) return [];
  const sdk = join(REALWORLD, 'sdk');
  return [REALWORLD, ...(existsSync(sdk) ? [sdk] : [])].flatMap((dir) => readdirSync(dir).filter((name) => /\.(json|ya?ml)$/.test(name)).map((name) => join(dir, name)));
}

const documents = realworldDocuments();
if (documents.length === 0) console.log(`realistic data: ${REALWORLD} is absent, so the measurement on real documents is not run`);

describe.skipIf(documents.length === 0)('plausible values on the real documents of ../shared/realworld', () => {
  it(`at least ${MIN_PLAUSIBLE * 100}% of the table's properties hold a plausible value`, async () => {
    const judged = new Map<string, { plausible: number; all: number; misses: string[] }>();
    for (const file of documents) {
      const requests = await validRequests(file);
      const stub: RunningStub = await startStub({ spec: file, port: 0, watch: false, log: () => {}, warn: () => {}, dynamic: true, fixtures: join(REALWORLD, 'no-fixtures') });
      try {
        for (const built of [...requests.values()].filter((r) => r.method === 'GET')) {
          const answer = await sendBuilt(`${stub.url}${built.path}${built.query ? `?${built.query}` : ''}`, 'GET', built);
          if (answer.status >= 300 || !answer.text.startsWith('{') && !answer.text.startsWith('[')) continue;
          collect(JSON.parse(answer.text), (name, value) => {
            const kind = TABLE[name];
            if (kind === undefined || value === null || typeof value === 'object') return;
            const tally = judged.get(kind) ?? { plausible: 0, all: 0, misses: [] };
            tally.all++;
            if (KINDS[kind](value)) tally.plausible++;
            else if (tally.misses.length < 3) tally.misses.push(`${name}=${JSON.stringify(value).slice(0, 60)}`);
            judged.set(kind, tally);
          });
        }
      } finally {
        await stub.close();
      }
    }
    const plausible = [...judged.values()].reduce((sum, t) => sum + t.plausible, 0);
    const all = [...judged.values()].reduce((sum, t) => sum + t.all, 0);
    console.log(`realistic data: ${plausible}/${all} plausible (${((100 * plausible) / all).toFixed(1)}%) over ${documents.length} documents\n${[...judged].map(([kind, t]) => `  ${kind}: ${t.plausible}/${t.all}${t.misses.length ? ` (${t.misses.join(', ')})` : ''}`).join('\n')}`);
    expect(all).toBeGreaterThan(100);
    expect(plausible / all).toBeGreaterThanOrEqual(MIN_PLAUSIBLE);
  }, 300_000);
});

function collect(value: unknown, visit: (name: string, value: unknown) => void): void {
  if (Array.isArray(value)) for (const item of value) collect(item, visit);
  else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      visit(name, inner);
      collect(inner, visit);
    }
  }
}
