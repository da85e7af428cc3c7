// The exact JSON reader on its own: numbers a double would change keep their text, errors name the
// line and column, nesting is bounded, and exactInteger reads integer literals in any notation.
import { describe, expect, it } from 'vitest';
import { exactInteger, JsonSyntaxError, MAX_JSON_DEPTH, parseExactJson, stringifyExact } from '../../src/common/exact-json.js';

describe('parseExactJson', () => {
  it.each([
    ['{"id": 1, "name": "Fern"}', { id: 1, name: 'Fern' }, []],
    ['{"id": 9223372036854775807}', { id: 9223372036854775807 }, [['/id', '9223372036854775807']]],
    ['[1e400, 0.1, 12345678901234567890]', [Infinity, 0.1, 12345678901234567890], [['/0', '1e400'], ['/2', '12345678901234567890']]],
    ['{"a/b": {"c~d": 9007199254740993}}', { 'a/b': { 'c~d': 9007199254740992 } }, [['/a~1b/c~0d', '9007199254740993']]],
  ])('parses %s keeping the raw text of numbers a double changes', (text, value, raw) => {
    const parsed = parseExactJson(text);
    expect(parsed.value).toEqual(value);
    expect([...parsed.rawNumbers]).toEqual(raw);
  });

  it('writes kept numbers back verbatim', () => {
    const parsed = parseExactJson('{"id":-9223372036854775809,"n":"x"}');
    expect(stringifyExact(parsed.exact, true)).toBe('{"id":-9223372036854775809,"n":"x"}');
  });

  it('keeps a __proto__ key as an own property on both paths', () => {
    for (const text of ['{"__proto__": {"x": 1}}', '{"__proto__": {"x": 12345678901234567890}}']) {
      const { value } = parseExactJson(text);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value as object)).toEqual(['__proto__']);
    }
  });

  it.each([
    ['{"id": 1,}', /^invalid JSON at line 1, column 10: /],
    ['{\n  "id": 1\n  "name": "x"\n}', /^invalid JSON at line 3, column 3: /],
    ['{"id": 1} trailing', /^invalid JSON at line 1, column 11: /],
    ['', /^invalid JSON: the body is empty$/],
    ['[1e400, ', /^invalid JSON/],
  ])('reports where %j stops being JSON', (text, message) => {
    expect(() => parseExactJson(text)).toThrowError(message);
  });

  it('refuses nesting deeper than the limit without recursing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseExactJson(deep)).toThrow(JsonSyntaxError);
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(parseExactJson(ok).value).toBeInstanceOf(Array);
  });
});

describe('exactInteger', () => {
  it.each([
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['1.0', 1n],
    ['1e2', 100n],
    ['1.50e1', 15n],
    ['120e-1', 12n],
    ['-0', 0n],
    ['0.000', 0n],
  ])('reads %s as the integer %s', (text, expected) => {
    expect(exactInteger(text)).toBe(expected);
  });

  it.each(['1.5', '1e-1', '12345678901234567.5'])('reads %s as not an integer', (text) => {
    expect(exactInteger(text)).toBeNull();
  });

  it('caps absurd exponents instead of building huge numbers', () => {
    expect(exactInteger('1e400')! > 2n ** 63n).toBe(true);
    expect(exactInteger('1e999999999')! > 2n ** 63n).toBe(true);
  });
});
