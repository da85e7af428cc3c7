// --proxy, step 3: the real API's answer against the document. The status must be documented,
// the documented headers present and valid, the media type documented and the body valid for its
// schema; fields the schema does not declare are drift to report, not violations. The body is
// checked decoded (gzip, deflate, br) from a capped prefix: one larger than the cap is said to be
// unchecked rather than read into memory.
import type { IncomingHttpHeaders } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import { documentedResponse } from '../openapi/documented-response.js';
import { JsonSyntaxError, parseExactJson } from '../common/exact-json.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';

/** The most of an answer's body read for checking (and kept back before the answer is sent). */
export const CHECK_CAP_BYTES = 1024 * 1024;
/** A decoded body larger than this is not checked: a small gzip answer can inflate to gigabytes. */
const DECODED_CAP_BYTES = 8 * CHECK_CAP_BYTES;

export interface AnswerCheck {
  violations: string[];
  undeclared: string[];
  unchecked?: string;
  /** The decoded JSON body, when it was read (for --record). */
  value?: unknown;
}

/** Statuses by which a server says it lacks an operation (RFC 9110 §15.5.5, §15.5.6, §15.6.2). */
const LACKING = new Set([404, 405, 501]);

/**
 * Whether the upstream lacks the operation: a 404, 405 or 501 the document does not list for it
 * (a documented 404 for an unknown id is the API's answer; `default` lists nothing in particular).
 */
export function lacksOperation(operation: CompiledOperation, status: number): boolean {
  if (!LACKING.has(status)) return false;
  return !operation.responses.has(String(status)) && !operation.responses.has(`${Math.floor(status / 100)}XX`);
}

/** The status and headers, known before the body arrives. */
export function checkHead(operation: CompiledOperation, status: number, headers: IncomingHttpHeaders): { plan: ResponsePlan | null; violations: string[] } {
  const plan = documentedResponse(operation.responses, status);
  if (!plan) return { plan, violations: [`status ${status} is not documented for ${operation.key} (documented: ${[...operation.responses.keys()].join(', ')})`] };
  const violations: string[] = [];
  for (const header of plan.headers) {
    const value = headers[header.name];
    if (value === undefined) {
      if (header.required) violations.push(`/headers/${header.name}: is required for ${status}`);
      continue;
    }
    // The header's validator names it already (`/headers/x-rate-limit: must be an integer`).
    for (const problem of header.validate?.(Array.isArray(value) ? value.join(', ') : value) ?? []) violations.push(problem);
  }
  return { plan, violations };
}

/** `body`: the whole body as received (still encoded), or null when it was larger than the cap. */
export function checkUpstreamBody(plan: ResponsePlan, headers: IncomingHttpHeaders, body: Buffer | null): AnswerCheck {
  if (body !== null && body.length === 0) return { violations: plan.contentType !== null && plan.validateBody ? [`/: the body is empty; the document describes one for ${plan.key}`] : [], undeclared: [] };
  const media = checkMedia(plan, headers);
  if (media.length > 0 || plan.contentType === null) return { violations: media, undeclared: [] };
  const variant = answeredMediaOf(plan, String(headers['content-type'] ?? ''))!;
  if (body === null) return { violations: [], undeclared: [], unchecked: `the body is larger than ${CHECK_CAP_BYTES} bytes; only its status, headers and media type were checked` };
  if (!variant.json || !variant.validateBody) return { violations: [], undeclared: [] };
  const decoded = decode(body, String(headers['content-encoding'] ?? ''));
  if (typeof decoded === 'string') return { violations: [], undeclared: [], unchecked: decoded };
  if (!isUtf8(decoded)) return { violations: ['/: the body is not valid UTF-8'], undeclared: [] };
  let parsed;
  try {
    parsed = parseExactJson(decoded.toString('utf8'));
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { violations: [`/: ${error.message}`], undeclared: [] };
    throw error;
  }
  const violations = variant.validateBody(parsed.value, parsed.rawNumbers);
  const undeclared = variant.project ? undeclaredFields(parsed.value, variant.project(parsed.value, () => undefined), '') : [];
  return { violations, undeclared, value: parsed.value };
}

/** Whether the answer's media type is one the document lists for its status (a body it lists none for is a violation). */
export function checkMedia(plan: ResponsePlan, headers: IncomingHttpHeaders): string[] {
  const contentType = headers['content-type'];
  if (plan.contentType === null) return contentType === undefined ? [] : [`/: the document describes no body for ${plan.key}, the answer has one (${contentType})`];
  if (answeredMediaOf(plan, String(contentType ?? '')) !== null) return [];
  const documented = [...new Set([plan, ...plan.variants].map((v) => v.contentType))].join(', ');
  return [`/headers/content-type: "${contentType ?? ''}" is not documented for ${plan.key} (documented: ${documented})`];
}

/** Whether the answer's body is one the document lets the stub check (a documented JSON media type), so it is worth holding back. */
export function wantsBody(plan: ResponsePlan, headers: IncomingHttpHeaders): boolean {
  const variant = answeredMediaOf(plan, String(headers['content-type'] ?? ''));
  return variant !== null && variant.json && variant.validateBody !== null;
}

/** The documented media type the answer is in (exact, `type/*`, `*\/*`), else null. */
function answeredMediaOf(plan: ResponsePlan, contentType: string): ResponsePlan | null {
  const base = contentType.split(';')[0].trim().toLowerCase();
  const variants = plan.variants.length > 0 ? plan.variants : [plan];
  const [type] = base.split('/');
  return variants.find((v) => v.contentType?.toLowerCase() === base) ?? variants.find((v) => v.contentType === `${type}/*` || v.contentType === '*/*') ?? null;
}

/** The body with its Content-Encoding undone, or why it could not be. */
function decode(body: Buffer, encoding: string): Buffer | string {
  // Codings apply in the order listed, so they are undone from the last (RFC 9110 §8.4).
  const codings = encoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity').reverse();
  let bytes = body;
  try {
    for (const coding of codings) {
      const limit = { maxOutputLength: DECODED_CAP_BYTES };
      if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes, limit);
      else if (coding === 'br') bytes = brotliDecompressSync(bytes, limit);
      // `deflate` is zlib-wrapped by the RFC, raw by some servers; both are read.
      else if (coding === 'deflate') bytes = bytes[0] === 0x78 ? inflateSync(bytes, limit) : inflateRawSync(bytes, limit);
      else return `the body's Content-Encoding "${coding}" cannot be decoded here; it was not checked`;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ERR_BUFFER_TOO_LARGE' ? `the decoded body is larger than ${DECODED_CAP_BYTES} bytes; it was not checked` : `the body could not be decoded as ${encoding} (${code ?? (error as Error).message}); it was not checked`;
  }
  return bytes;
}

/** Pointers of members of `value` that its projection onto the schema dropped (array items as `*`). */
function undeclaredFields(value: unknown, projected: unknown, at: string): string[] {
  if (Array.isArray(value)) {
    const items = Array.isArray(projected) ? projected : [];
    return [...new Set(value.flatMap((item, i) => undeclaredFields(item, items[i], `${at}/*`)))];
  }
  if (!isObject(value)) return [];
  const kept = isObject(projected) ? projected : {};
  return Object.entries(value).flatMap(([key, member]) => {
    const pointer = `${at}/${escapePointerToken(key)}`;
    return Object.hasOwn(kept, key) ? undeclaredFields(member, kept[key], pointer) : [pointer];
  });
}
