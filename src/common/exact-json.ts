// JSON bodies whose numbers stay exact. JSON.parse rounds integers above 2^53 (so an int64 of
// 9223372036854775808 would pass as 2^63 - 1), and Node 20 has no JSON.parse source-text access,
// so bodies that may hold such numbers are parsed with lossless-json and keep their raw text.
import { LosslessNumber, isLosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { ExactJson } from './plain-http.js';
import { escapePointerToken } from './json-pointer.js';
import { setOwn } from './json-value.js';

/** Deeper bodies are refused before any recursive code (parser, logger, serializer) sees them. */
export const MAX_JSON_DEPTH = 512;

/** A body that is not JSON, with a message a client can act on. */
export class JsonSyntaxError extends Error {}

// Only texts with a run of 16+ digits (more precision than a double keeps) or an exponent can hold
// a number that a double changes; everything else takes the fast native path.
const MAY_HOLD_INEXACT_NUMBER = /[\d.]{16,}|\d[eE]/;

/** Parses JSON text, keeping the raw text of every number a double would not round-trip. */
export function parseExactJson(text: string): ExactJson {
  if (text.length > MAX_JSON_DEPTH * 2) assertDepth(text);
  if (!MAY_HOLD_INEXACT_NUMBER.test(text)) {
    try {
      return { value: JSON.parse(text), exact: undefined, rawNumbers: NO_RAW_NUMBERS };
    } catch (error) {
      throw new JsonSyntaxError(describeSyntaxError(text, (error as Error).message));
    }
  }
  let tree: unknown;
  try {
    tree = parseLossless(text, null, keepInexactNumber);
  } catch (error) {
    throw new JsonSyntaxError(describeSyntaxError(text, (error as Error).message));
  }
  return toPlain(tree);
}

const NO_RAW_NUMBERS: ReadonlyMap<string, string> = new Map();

/**
 * Splits a tree that may hold LosslessNumber leaves into plain doubles (for validation) plus a
 * pointer -> raw text map (for exact checks). `exact` keeps the original tree for serialization.
 */
export function toPlain(tree: unknown): ExactJson {
  const rawNumbers = new Map<string, string>();
  const value = plainCopy(tree, '', rawNumbers);
  return { value, exact: rawNumbers.size > 0 ? tree : undefined, rawNumbers };
}

function plainCopy(node: unknown, pointer: string, rawNumbers: Map<string, string>): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (isLosslessNumber(node)) {
    rawNumbers.set(pointer, (node as LosslessNumber).value);
    return Number((node as LosslessNumber).value);
  }
  if (Array.isArray(node)) return node.map((item, i) => plainCopy(item, `${pointer}/${i}`, rawNumbers));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    // A `__proto__` key stays an ordinary own property, as JSON.parse keeps it.
    setOwn(copy, key, plainCopy((node as Record<string, unknown>)[key], `${pointer}/${escapePointerToken(key)}`, rawNumbers));
  }
  return copy;
}

/** Serializes a value that may hold LosslessNumber leaves, writing their raw text. */
export function stringifyExact(value: unknown, hasRawNumbers: boolean): string {
  if (!hasRawNumbers) return JSON.stringify(value);
  return stringifyLossless(value) ?? 'null';
}


/**
 * The exact integer value of a JSON number text, or null when the text is not an integer
 * (JSON Schema counts `1.0` and `1e2` as integers). Used for int32/int64 range checks.
 */
export function exactInteger(text: string): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  let scale = exponent - fraction.length;
  // Trailing zeros can pay for a negative scale; anything left over is a fractional part.
  while (scale < 0 && digits.endsWith('0') && digits.length > 1) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (/^0+$/.test(digits)) return 0n;
  if (scale < 0) return null;
  // Beyond this the number is far outside any integer format; no need to build a huge BigInt.
  if (digits.length + scale > 400) return BigInt(sign === '-' ? -1 : 1) * 10n ** 400n;
  const magnitude = BigInt(digits) * 10n ** BigInt(scale);
  return sign === '-' ? -magnitude : magnitude;
}

function keepInexactNumber(text: string): number | LosslessNumber {
  const number = Number(text);
  if (String(number) === text) return number;
  // A safe integer is exact only when the text is that integer: `1e-400` and `0.99999999999999999999`
  // also become safe integers (0, 1), and must keep their text to be refused as fractions.
  return Number.isSafeInteger(number) && exactInteger(text) === BigInt(number) ? number : new LosslessNumber(text);
}

/** Refuses nesting deeper than MAX_JSON_DEPTH with one linear scan that skips strings. */
function assertDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new JsonSyntaxError(`body is nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** Turns a parser message into "invalid JSON at line L, column C: <reason>". */
function describeSyntaxError(text: string, message: string): string {
  if (text.trim() === '') return 'invalid JSON: the body is empty';
  const at = /position (\d+)/.exec(message) ?? positionFromLossless(text);
  const reason = message.replace(/ in JSON at position \d+.*$/s, '').replace(/ at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/, (?:\.\.\.)?"[^]*"(?:\.\.\.)? is not valid JSON$/, ''); // V8 quotes the body, cut with `...` when long
  if (!at) return `invalid JSON: ${reason}`;
  const position = Number(at[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${reason}`;
}

/** V8's "Unexpected token" messages carry no position (Node 20); lossless-json's always do. */
function positionFromLossless(text: string): RegExpExecArray | null {
  try {
    parseLossless(text);
  } catch (error) {
    return /position (\d+)/.exec((error as Error).message);
  }
  return null;
}

/** An integer's text as a tree's number: a plain number where it is exact, else a LosslessNumber keeping every digit. */
export function exactIntegerValue(text: string): number | LosslessNumber {
  const number = Number(text);
  return Number.isSafeInteger(number) && String(number) === text ? number : new LosslessNumber(text);
}

/** A JSON object of a tree that may hold LosslessNumber leaves (which are objects too, but numbers). */
export function isExactObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isLosslessNumber(value);
}

/** The text of a value that can name an item (`1`, `"a7"`, an exact int64), or null for anything else. */
export function identityOf(value: unknown): string | null {
  return typeof value === 'number' || typeof value === 'string' || isLosslessNumber(value) ? String(value) : null;
}
