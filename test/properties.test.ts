// Property-based tests over real HTTP: arbitrary JSON, arbitrary bytes and arbitrary steering
// headers never produce a 5xx, and every answer has the documented shape for its status; every
// valid NewPlant, however odd its id, name, tag or extra fields, is echoed exactly.
import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';

const RUNS = { numRuns: 200 } as const;
/** Vitest's own limit per property; fast-check runs exactly numRuns cases, never cut short. */
const TEST_TIMEOUT = 15_000;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, journalLimit: 0 });
});
afterAll(async () => {
  await stub?.close();
});

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** POST /plants with exactly these headers; a hung request fails the run after 5 s. */
async function send(body: string | Uint8Array, headers: Record<string, string>): Promise<Answer> {
  // fetch keeps connections alive between runs, so 200 runs take well under a second.
  const res = await request(`${stub.url}/plants`, { method: 'POST', headers, body: typeof body === 'string' ? body : Buffer.from(body), signal: AbortSignal.timeout(5_000) });
  return { status: res.status, contentType: res.headers.get('content-type'), text: res.text };
}

/**
 * The documented shape for each status; returns the parsed body. `steered`: the request carried
 * X-Mock-Scenario, X-Mock-Delay or Prefer, so a 400 may be a fixture's Error with its own code
 * (duplicate-id is error 1001), and a steering header the stub cannot honour is its own 422
 * problem+json. A 400 is never problem+json: the API documents 400 with its Error shape.
 */
function expectDocumentedShape(answer: Answer, options: { steered: boolean }): unknown {
  expect(answer.status).toBeLessThan(500);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(body).toBeTypeOf('object');
  expect(body).not.toBeNull();
  switch (answer.status) {
    case 200:
      expect(answer.contentType).toBe('application/json');
      expect(typeof body.name).toBe('string');
      expect(Object.keys(body).every((key) => key === 'name' || (key === 'tag' && typeof body.tag === 'string'))).toBe(true);
      break;
    case 422:
      // Only a steering header can ask for what the stub cannot do.
      expect(options.steered).toBe(true);
      expect(answer.contentType).toBe('application/problem+json');
      expectProblem(body, 422);
      expect(Object.keys(body).every((key) => ['type', 'title', 'status', 'detail', 'knownScenarios', 'knownExamples', 'documentedStatuses'].includes(key))).toBe(true);
      break;
    case 400:
    case 401:
    case 413:
    case 415:
      expect(answer.contentType).toBe('application/json');
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      if (answer.status === 400 && options.steered) expect(Number.isInteger(body.error) && Math.abs(body.error as number) < 2 ** 31).toBe(true);
      else expect(body.error).toBe(answer.status);
      expect(typeof body.message).toBe('string');
      expect((body.message as string).length).toBeGreaterThan(0);
      break;
    case 404:
    case 405:
      expect(answer.contentType).toBe('application/problem+json');
      expectProblem(body, answer.status);
      break;
    default:
      throw new Error(`undocumented status ${answer.status}: ${answer.text}`);
  }
  return body;
}

function expectProblem(body: Record<string, unknown>, status: number): void {
  expect(body).toMatchObject({ type: 'about:blank', title: STATUS_CODES[status], status });
  expect(typeof body.detail).toBe('string');
  expect((body.detail as string).length).toBeGreaterThan(0);
}

/** What a correct server must answer for a parsed body: the echo, or null for "must be 400". */
function expectedEcho(value: unknown, idText: (id: number) => string = String): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const plant = value as Record<string, unknown>;
  if (!Object.hasOwn(plant, 'id') || !Object.hasOwn(plant, 'name')) return null;
  if (typeof plant.id !== 'number' || !Number.isInteger(plant.id)) return null;
  const id = BigInt(idText(plant.id));
  if (id < INT64_MIN || id > INT64_MAX) return null;
  if (typeof plant.name !== 'string') return null;
  if (Object.hasOwn(plant, 'tag') && typeof plant.tag !== 'string') return null;
  return JSON.stringify(Object.hasOwn(plant, 'tag') ? { name: plant.name, tag: plant.tag } : { name: plant.name });
}

describe('arbitrary request bodies', () => {
  // Objects that have some of id, name and tag, each of any JSON type, plus extra members: most
  // plain fc.jsonValue() cases never get near a NewPlant.
  const plantLike = fc.tuple(
    fc.record({ id: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()), name: fc.oneof(fc.string(), fc.jsonValue()), tag: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  ).map(([plant, extra]) => ({ ...extra, ...plant }));

  it('any JSON value is answered 200 with its echo when it is a valid NewPlant, else 400 with the Error shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), plantLike), async (value) => {
        const text = JSON.stringify(value);
        const answer = await send(text, JSON_HEADERS);
        expectDocumentedShape(answer, { steered: false });
        // JSON.stringify writes every integer double in a form whose exact value is that double.
        const expected = expectedEcho(value, (id) => BigInt(id).toString());
        if (expected === null) expect(answer.status).toBe(400);
        else expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: expected });
      }),
      RUNS,
    );
  }, TEST_TIMEOUT);

  it('arbitrary bytes are never a 5xx and are a 400 unless they spell a valid NewPlant', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 512 }),
      // Valid plants with a few bytes flipped, so some cases get past the JSON parser.
      fc.tuple(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }))
        .map(([name, flips]) => {
          const buffer = Buffer.from(JSON.stringify({ id: 1, name }));
          for (const [at, byte] of flips) buffer[at % buffer.length] = byte;
          return new Uint8Array(buffer);
        }),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (body) => {
        const answer = await send(body, JSON_HEADERS);
        expectDocumentedShape(answer, { steered: false });
        let parsed: unknown;
        let valid = false;
        try {
          parsed = JSON.parse(UTF8.decode(body));
          valid = true;
        } catch {
          // not UTF-8 or not JSON: must be a 400
        }
        // A body with a BOM or >15-digit numbers is left to the JSON-value property above.
        const expected = valid && !/[\d.]{16,}|\d[eE]/.test(Buffer.from(body).toString('latin1')) && body[0] !== 0xef ? expectedEcho(parsed) : null;
        if (expected !== null) expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: expected });
        else if (!valid || body.length === 0) expect(answer.status).toBe(400);
      }),
      RUNS,
    );
  }, TEST_TIMEOUT);
});

describe('arbitrary steering headers', () => {
  // Header values fetch can send: visible ASCII, spaces, tabs and Latin-1, no CR/LF/NUL.
  const headerText = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(0x09)).map((c) => String.fromCharCode(c)), maxLength: 40 });
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

  const authorization = optional(fc.oneof(headerText, headerText.map((t) => `Bearer ${t}`), fc.constant('Bearer ok'), headerText.map((t) => `bEaReR ${t}`), headerText.map((t) => `Basic ${t}`)));
  const contentType = optional(fc.oneof(headerText, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/*', '*/*', 'APPLICATION/JSON')));
  const scenario = optional(fc.oneof(headerText, fc.constantFrom('duplicate-id', 'unknown-tag', 'name-too-long', 'echo', '')));
  // Small delays or invalid ones: never a valid delay above 30 ms, so a run stays fast.
  const delay = optional(fc.oneof(fc.integer({ min: 0, max: 30 }).map(String), fc.integer({ min: -1000, max: -1 }).map(String), headerText)
    .filter((text) => {
      const ms = Number(text.trim());
      return text.trim() === '' || !Number.isInteger(ms) || ms <= 30;
    }));
  const prefer = optional(fc.oneof(
    headerText,
    fc.integer({ min: 0, max: 999 }).map((code) => `code=${code}`),
    fc.constantFrom('code=200', 'code=400', 'dynamic=true', 'example=nope', 'example="duplicate-id"', 'code=200, dynamic=true', 'code=4xx'),
  ));
  const body = fc.oneof(fc.constant('{"id":1,"name":"Fern","tag":"fern"}'), fc.constant('{"id":1}'), fc.constant(''), fc.jsonValue().map((v) => JSON.stringify(v)));

  it('any combination of Authorization, Content-Type, X-Mock-Scenario, X-Mock-Delay and Prefer is never a 5xx and always has its documented shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ authorization, contentType, scenario, delay, prefer, body }), async (input) => {
        const headers: Record<string, string> = {};
        if (input.authorization !== undefined) headers.authorization = input.authorization;
        if (input.contentType !== undefined) headers['content-type'] = input.contentType;
        if (input.scenario !== undefined) headers['x-mock-scenario'] = input.scenario;
        if (input.delay !== undefined) headers['x-mock-delay'] = input.delay;
        if (input.prefer !== undefined) headers.prefer = input.prefer;
        const answer = await send(input.body, headers);
        const steered = input.scenario !== undefined || input.delay !== undefined || input.prefer !== undefined;
        expectDocumentedShape(answer, { steered });
        // Without a usable bearer token nothing but a 401 comes back, whatever else was sent.
        const auth = (input.authorization ?? '').trim();
        if (!/^bearer\s+\S/i.test(auth)) expect(answer.status).toBe(401);
      }),
      RUNS,
    );
  }, TEST_TIMEOUT);
});

describe('valid NewPlant objects', () => {
  const id = fc.oneof(
    fc.integer().map(String),
    fc.maxSafeInteger().map(String),
    fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(String),
    fc.constantFrom(String(INT64_MIN), String(INT64_MAX), '0', '-0', '9007199254740993', '1.0', '1e2', '12345678901234567e2'),
  );
  const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('', '\u0000', '\u2028\u2029', '🌱🌵', '"\\/\b\f\n\r\t', '\ud800'));
  const reserved = new Set(['id', 'name', 'tag']);
  const extras = fc.dictionary(fc.string({ maxLength: 12 }).filter((key) => !reserved.has(key)), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });

  it('are always echoed exactly as {name, tag?}, whatever the id text, the unicode and the extra fields', async () => {
    await fc.assert(
      fc.asyncProperty(id, text, fc.option(text, { nil: undefined }), extras, fc.boolean(), async (idText, name, tag, extra, idFirst) => {
        const members = [`"name":${JSON.stringify(name)}`, ...(tag === undefined ? [] : [`"tag":${JSON.stringify(tag)}`])];
        const rest = Object.entries(extra).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
        const all = idFirst ? [`"id":${idText}`, ...members, ...rest] : [...rest, ...members, `"id":${idText}`];
        const answer = await send(`{${all.join(',')}}`, JSON_HEADERS);
        const expected = JSON.stringify(tag === undefined ? { name } : { name, tag });
        expect({ status: answer.status, contentType: answer.contentType, text: answer.text }).toEqual({ status: 200, contentType: 'application/json', text: expected });
      }),
      RUNS,
    );
  }, TEST_TIMEOUT);

  it('one past either end of int64 is always a 400 naming /id', async () => {
    const outside = fc.oneof(fc.bigInt({ min: INT64_MAX + 1n, max: INT64_MAX * 4n }), fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MIN - 1n }));
    await fc.assert(
      fc.asyncProperty(outside, text, async (big, name) => {
        const answer = await send(`{"id":${big},"name":${JSON.stringify(name)}}`, JSON_HEADERS);
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.text)).toEqual({ error: 400, message: '/id: must be an int64 (from -9223372036854775808 to 9223372036854775807)' });
      }),
      { ...RUNS, numRuns: 100 },
    );
  }, TEST_TIMEOUT);
});
