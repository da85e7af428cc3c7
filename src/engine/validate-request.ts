// Stage 3 (validate): the request against the operation's parameters and body. Every violation is collected
// before answering, so a client fixing a form sees all of them at once.
import type { CompiledOperation, MediaPlan } from '../openapi/compiled-model.js';
import type { FormPlan } from '../openapi/compile-form.js';
import { baseMediaType } from '../openapi/media-types.js';
import { JsonSyntaxError, parseExactJson } from '../common/exact-json.js';
import type { Refusal } from './engine-types.js';
import { requestRefusals } from './refusals.js';
import type { ExactJson, PlainRequest } from '../common/plain-http.js';
import { strictUtf8 } from '../common/bytes.js';

/** A form body: read into an object (multipart parts come parsed from the adapter), then validated. */
function readForm(form: FormPlan, request: PlainRequest, violations: string[]): ExactJson | null {
  const multipart = request.multipart;
  if (form.kind === 'multipart' && (multipart === undefined || 'error' in multipart)) {
    violations.push(`/: the multipart body cannot be read${multipart ? `: ${multipart.error}` : ''}`);
    return null;
  }
  const { value, violations: found } = form.read(request.body, multipart && 'parts' in multipart ? multipart.parts : []);
  for (const violation of found) violations.push(violation);
  for (const violation of form.validate(value)) violations.push(violation);
  return { value, exact: undefined, rawNumbers: NO_RAW_NUMBERS, form: true };
}

const NO_RAW_NUMBERS: ReadonlyMap<string, string> = new Map();

function unsupported(violations: string[], operation: CompiledOperation): Refusal {
  return requestRefusals.unsupportedMediaType(violations, (operation.body?.media ?? []).map((m) => m.type).join(','));
}

function hasBom(body: Uint8Array): boolean {
  return body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
}

/** The parsed body when the request is valid (null for an operation or request without one). */
export function validateRequest(
  operation: CompiledOperation,
  request: PlainRequest,
  pathParams: Record<string, string>,
  query: URLSearchParams,
): ExactJson | null | Refusal {
  const violations = operation.validateParameters(pathParams, query, request.headers);
  const media = requestMediaOf(operation, request);
  // A body the operation cannot take at all is 415 (RFC 9110 §15.5.16), naming what it takes.
  if (typeof media === 'string') return unsupported([...violations, media], operation);
  const body = operation.body ? parseRequestBody(operation.body.required, media, request, violations) : null;
  return violations.length > 0 ? requestRefusals.invalid(violations, operation.invalidStatus) : body;
}

/**
 * The documented media type the request's body is in: null when there is no body, a violation
 * (text) when the operation documents no body or not this media type.
 */
function requestMediaOf(operation: CompiledOperation, request: PlainRequest): MediaPlan | null | string {
  if (request.body.length === 0) return null;
  if (!operation.body || operation.body.media.length === 0) return '/: this operation takes no request body; send none';
  const contentType = String(request.headers['content-type'] ?? '');
  const plan = matchMedia(operation.body.media, contentType);
  if (plan) return plan;
  const accepted = operation.body.media.map((m) => m.type).join(', ');
  return `/: the content type ${contentType === '' ? 'is missing' : `"${contentType}" is not accepted`}; send ${accepted}`;
}

function parseRequestBody(required: boolean, plan: MediaPlan | null, request: PlainRequest, violations: string[]): ExactJson | null {
  if (plan === null) {
    if (required) violations.push('/: a request body is required');
    return null;
  }
  if (plan.form) return readForm(plan.form, request, violations);
  if (!plan.json) return null; // other media types are accepted as sent
  const contentType = String(request.headers['content-type'] ?? '');
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    violations.push(`/: charset "${charset}" is not supported; JSON bodies must be UTF-8`);
    return null;
  }
  // A byte order mark is allowed before JSON text (RFC 8259 lets parsers ignore it).
  const text = strictUtf8(hasBom(request.body) ? request.body.subarray(3) : request.body);
  if (text === null) {
    violations.push('/: the body is not valid UTF-8');
    return null;
  }
  let parsed: ExactJson;
  try {
    parsed = parseExactJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    violations.push(`/: ${error.message}`);
    return null;
  }
  if (plan.validate) for (const violation of plan.validate(parsed.value, parsed.rawNumbers)) violations.push(violation);
  return parsed;
}

/** Clients send the same few Content-Type values over and over; their match is remembered. */
const MEMO_LIMIT = 64;
const memos = new WeakMap<MediaPlan[], Map<string, MediaPlan | null>>();

/** The documented media type that accepts the request's Content-Type (exact, `type/*`, `*\/*`). */
function matchMedia(media: MediaPlan[], contentType: string): MediaPlan | null {
  let memo = memos.get(media);
  if (!memo) memos.set(media, (memo = new Map()));
  const known = memo.get(contentType);
  if (known !== undefined) return known;
  const found = findMedia(media, contentType);
  // Bounded, so a client inventing a new Content-Type per request cannot grow it.
  if (memo.size < MEMO_LIMIT) memo.set(contentType, found);
  return found;
}

function findMedia(media: MediaPlan[], contentType: string): MediaPlan | null {
  const base = baseMediaType(contentType);
  if (base === '') return null;
  const [type] = base.split('/');
  return (
    media.find((m) => m.type === base) ??
    media.find((m) => m.type === `${type}/*`) ??
    media.find((m) => m.type === '*/*') ??
    null
  );
}
