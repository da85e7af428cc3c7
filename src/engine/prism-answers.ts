// Refusals and violations as Prism answers them (the compat policy's `refusals: 'prism'` and
// `violationsHeader`). refusal.ts calls this where refusals become HTTP, the pipeline for the
// `sl-violations` header. The problem types, titles and details are Prism's own wire values:
// clients written against Prism compare them, so they are reproduced as they are.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import { readViolation } from '../openapi/ajv-wording.js';
import { PROBLEM_MEDIA_TYPE } from '../openapi/problem-details.js';
import type { Refusal } from './engine-types.js';
import type { EngineResponse } from './engine-response.js';
import { serializeBody } from './serialize-body.js';
import { refusedAnswer } from './answer-values.js';

interface ProblemType {
  type: string;
  title: string;
  status: number;
}

const PROBLEMS = {
  noPath: { type: 'NO_PATH_MATCHED_ERROR', title: 'Route not resolved, no path matched', status: 404 },
  noMethod: { type: 'NO_METHOD_MATCHED_ERROR', title: 'Route resolved, but no method matched', status: 405 },
  unauthorized: { type: 'UNAUTHORIZED', title: 'Invalid security scheme used', status: 401 },
  unprocessable: { type: 'UNPROCESSABLE_ENTITY', title: 'Invalid request', status: 422 },
  invalidContentType: { type: 'INVALID_CONTENT_TYPE', title: 'Invalid content type', status: 415 },
  notFound: { type: 'NOT_FOUND', title: 'The server cannot find the requested content', status: 404 },
  notAcceptable: { type: 'NOT_ACCEPTABLE', title: 'The server cannot produce a representation for your accept header', status: 406 },
  violations: { type: 'VIOLATIONS', title: 'Request/Response not valid', status: 500 },
  tooComplex: { type: 'SCHEMA_TOO_COMPLEX', title: 'Schema too complex', status: 500 },
  notText: { type: 'NO_COMPLEX_OBJECT_TEXT', title: 'Cannot serialise complex objects as text', status: 500 },
} satisfies Record<string, ProblemType>;

/** One item of Prism's `validation` list and `sl-violations` header. */
interface ValidationItem {
  location: string[];
  severity: 'Error' | 'Warning';
  code?: string;
  message: string;
}

/**
 * A refusal as Prism answers it, or null where Prism has no convention of its own (the stub's own
 * steering: scenarios, delays, faults), which keep the stub's answer. A contract refusal (401,
 * an invalid request, 415) is answered by the operation's documented response for it, as any
 * answer (its example, else its schema's sample, else no body), with what was wrong in
 * `sl-violations`; else by Prism's problem. `example`: the example the client named for it.
 */
export function prismRefusal(refusal: Refusal, operation: CompiledOperation | null, example: string | null): EngineResponse | null {
  const facts = refusal.facts ?? {};
  switch (refusal.name) {
    case 'unauthenticated':
    case 'invalid':
    case 'unsupportedMediaType':
      return operation === null ? problemFor(refusal, operation) : documentedAnswer(refusal, operation, example) ?? problemFor(refusal, operation);
    case 'noOperation':
      return problemAnswer(PROBLEMS.noPath, `The route ${facts.path} hasn't been found in the specification file`, refusal, operation);
    case 'methodNotAllowed':
      return problemAnswer(PROBLEMS.noMethod, `The route ${facts.path} has been matched, but it does not have "${facts.method?.toLowerCase()}" method defined`, refusal, operation);
    case 'undocumentedCode':
      return problemAnswer(PROBLEMS.notFound, `Requested status code ${facts.status} is not defined in the document.`, refusal, operation);
    case 'unknownExample':
      return problemAnswer(PROBLEMS.notFound, `Response for contentType: ${facts.contentType} and exampleKey: ${facts.example} does not exist.`, refusal, operation);
    case 'notAcceptable':
      return problemAnswer(PROBLEMS.notAcceptable, `Unable to find content for ${mediaRanges(facts.accept ?? '')}`, refusal, operation);
    case 'brokenAnswer': {
      const detail = 'Your request/response is not valid and the --errors flag is set, so Prism is generating this error for you.';
      return problemAnswer(PROBLEMS.violations, detail, refusal, operation, { validation: refusal.violations.map((text) => validationItem(text, 'response')) });
    }
    case 'tooComplex':
      return problemAnswer(PROBLEMS.tooComplex, 'Unable to generate body for response. The schema is too complex to generate.', refusal, operation);
    case 'notText':
      return problemAnswer(PROBLEMS.notText, 'Cannot serialise complex objects as text', refusal, operation);
    default:
      return null;
  }
}

/** Prism's problem for a contract refusal nothing documented answers. */
function problemFor(refusal: Refusal, operation: CompiledOperation | null): EngineResponse {
  if (refusal.name === 'unauthenticated') {
    const challenge = refusal.headers?.['www-authenticate'];
    const detail = 'Your request does not fullfil the security requirements and no HTTP unauthorized response was found in the spec, so Prism is generating this error for you.';
    return problemAnswer(PROBLEMS.unauthorized, detail, refusal, operation, challenge ? { headers: { 'WWW-Authenticate': challenge } } : {});
  }
  if (refusal.name === 'unsupportedMediaType') {
    const accepted = refusal.facts?.accepted ?? '';
    return problemAnswer(PROBLEMS.invalidContentType, accepted === '' ? 'No supported content types, but request included a non-empty body' : `Supported content types: ${accepted}`, refusal, operation);
  }
  const detail = 'Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.';
  return problemAnswer(PROBLEMS.unprocessable, detail, refusal, operation, { validation: refusal.violations.map((text) => validationItem(text, null)) });
}

function problemAnswer(problem: ProblemType, detail: string, refusal: Refusal, operation: CompiledOperation | null, extra: Record<string, unknown> = {}): EngineResponse {
  const body = { type: `https://stoplight.io/prism/errors#${problem.type}`, title: problem.title, status: problem.status, detail, ...extra };
  const headers: Record<string, string> = { ...refusal.headers, 'content-type': PROBLEM_MEDIA_TYPE };
  if (refusal.name === 'invalid' || refusal.name === 'brokenAnswer') headers['sl-violations'] = violationsHeader(refusal.name === 'invalid' ? refusal.violations : [], [], refusal.name === 'brokenAnswer' ? refusal.violations : []);
  return prismAnswer(problem.status, headers, JSON.stringify(body), refusal, operation, null);
}

/**
 * Prism's documented answer to a contract refusal: the first of the statuses it looks for that
 * the operation documents (its exact code or range), else `default` under the first status.
 */
function documentedAnswer(refusal: Refusal, operation: CompiledOperation, example: string | null): EngineResponse | null {
  const statuses = refusal.name === 'unauthenticated' ? [401] : refusal.name === 'unsupportedMediaType' ? [415, 422, 400] : [422, 400];
  let found: { plan: ResponsePlan; status: number } | null = null;
  for (const status of statuses) {
    const plan = operation.responses.get(String(status)) ?? operation.responses.get(`${Math.floor(status / 100)}XX`);
    if (plan) {
      found = { plan, status };
      break;
    }
  }
  const fallback = operation.responses.get('default');
  found ??= fallback ? { plan: fallback, status: statuses[0] } : null;
  if (found === null) return null;
  const { plan, status } = found;
  const headers: Record<string, string> = { ...plan.sampleHeaders, ...refusal.headers };
  headers['sl-violations'] = violationsHeader(refusal.violations.length > 0 ? refusal.violations : [refusal.message], [], []);
  // The first media type with examples answers with one (the one named, when it was), else the first with a schema, its sample.
  const withExamples = plan.variants.find((variant) => variant.examples.size > 0 || variant.brokenExamples.size > 0);
  if (withExamples) {
    const name = example ?? [...withExamples.examples.keys(), ...withExamples.brokenExamples.keys()][0];
    const value = withExamples.examples.has(name) ? withExamples.examples.get(name) : withExamples.brokenExamples.get(name);
    if (value === undefined) {
      return problemAnswer(PROBLEMS.notFound, `Response for contentType: ${withExamples.contentType} and exampleKey: ${name} does not exist.`, { ...refusal, name: 'unknownExample' }, operation);
    }
    return body(status, headers, withExamples, value, refusal, operation);
  }
  const withSchema = plan.variants.find((variant) => variant.schemaPointer !== null);
  if (withSchema) return body(status, headers, withSchema, operation.generate(withSchema.schemaPointer!, 'error', false), refusal, operation);
  return prismAnswer(status, headers, '', refusal, operation, plan);
}

function body(status: number, headers: Record<string, string>, plan: ResponsePlan, value: unknown, refusal: Refusal, operation: CompiledOperation): EngineResponse {
  if (plan.contentType !== null) headers['content-type'] = plan.contentType;
  return prismAnswer(status, headers, serializeBody(value, false, plan.contentType, plan.writeXml), refusal, operation, plan);
}

function prismAnswer(status: number, headers: Record<string, string>, text: string, refusal: Refusal, operation: CompiledOperation | null, documented: ResponsePlan | null): EngineResponse {
  return refusedAnswer(refusal, status, headers, text, operation, documented, documented === null);
}

/**
 * The `sl-violations` header: what was wrong with the request (errors that stopped it, warnings
 * that did not, such as a deprecated parameter) and with the answer, as one JSON list.
 */
export function violationsHeader(requestErrors: readonly string[], requestWarnings: readonly string[], answerErrors: readonly string[]): string {
  const items = [
    ...answerErrors.map((text) => located(validationItem(text, 'response'), 'response')),
    ...requestErrors.map((text) => located(validationItem(text, null), 'request')),
    ...requestWarnings.map((text) => ({ ...located(validationItem(text, null), 'request'), severity: 'Warning' as const })),
  ];
  // Header values are Latin-1 text: anything else is escaped by JSON.stringify's \u form.
  const parts = items.map((item) => JSON.stringify(item).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const whole = `[${parts.join(',')}]`;
  if (whole.length <= VIOLATIONS_HEADER_MAX) return whole;
  // Node's HTTP clients refuse an answer whose headers pass 16 KiB in all (Parse Error: Header
  // overflow): a client would get no answer. Prism has no cut; the journal keeps every violation.
  const left = (n: number) => JSON.stringify({
    location: ['response'], severity: 'Warning', code: 'truncated',
    message: `${n} more violations not listed here, to keep the header under 8 KiB (GET /__admin/requests lists them all)`,
  });
  let kept = 0;
  let length = 2 + left(parts.length).length;
  while (kept < parts.length && length + parts[kept].length + 1 <= VIOLATIONS_HEADER_MAX) length += parts[kept++].length + 1;
  return `[${[...parts.slice(0, kept), left(parts.length - kept)].join(',')}]`;
}

/** The most characters of an `sl-violations` header: half of what Node's clients take for all headers. */
const VIOLATIONS_HEADER_MAX = 8192;

function located(item: ValidationItem, side: 'request' | 'response'): ValidationItem {
  return item.location[0] === side ? item : { ...item, location: [side, ...item.location] };
}

const PARAMETER_LOCATIONS = new Set(['query', 'path', 'header', 'headers', 'cookie']);

/**
 * A violation line as Prism's item: `/query/limit: must be integer [type]` ->
 * `{location: ['query', 'limit'], code: 'type', message: 'Request query parameter limit must be integer'}`.
 * The request's body violations have no location prefix (a body property named like a parameter
 * location is read as one: the price of keeping violations one line of text). A request warning
 * (`deprecated`) is already worded.
 */
function validationItem(text: string, side: 'response' | null): ValidationItem {
  const { path, message, code } = readViolation(text);
  if (code === 'deprecated') return { location: path, severity: 'Warning', code, message };
  const inParameters = PARAMETER_LOCATIONS.has(path[0]) ? path[0].replace(/s$/, '') : null;
  const where = inParameters ?? 'body';
  const rest = inParameters === null ? path : path.slice(1);
  const location = side === 'response' ? ['response', where, ...rest] : [where, ...rest];
  if (code === undefined) return { location, severity: 'Error', message };
  const subject = rest.length === 0 ? '' : `${where === 'body' ? 'property' : 'parameter'} ${rest.join('.')} `;
  return { location, severity: 'Error', code, message: `${side === 'response' ? 'Response' : 'Request'} ${where} ${subject}${message}` };
}

/** `application/json;q=0.9, text/plain` -> `application/json,text/plain`, as Prism lists an Accept header's types. */
function mediaRanges(accept: string): string {
  return accept.split(',').map((range) => range.split(';')[0].trim()).filter((range) => range !== '').join(',');
}
