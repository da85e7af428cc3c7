// Stage 10 (finish): conditional reads (RFC 9110 §13.1.2). Where an operation documents an `ETag` header or a
// `304`, a successful GET carries an ETag derived from its bytes, and a request whose
// If-None-Match names it is answered 304 with no body: a client's cache works against the stub.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { fnv1a } from '../generate/seeded-random.js';
import type { EngineResponse } from './engine-response.js';
import type { PlainRequest } from '../common/plain-http.js';

/** Generic so the pipeline can pass an answer whose delay it decides afterwards (the delay stage, stages/delay.ts). */
export function conditionalGet<R extends Pick<EngineResponse, 'status' | 'headers' | 'body' | 'fault' | 'documented'>>(operation: CompiledOperation, request: PlainRequest, response: R): R {
  if (request.method !== 'GET' && request.method !== 'HEAD') return response;
  if (response.status < 200 || response.status >= 300 || response.fault !== undefined || !documentsEtag(operation)) return response;
  const etag = `"${fnv1a(response.body).toString(16)}-${response.body.length.toString(16)}"`;
  const headers: Record<string, string> = { ...response.headers, etag };
  if (!matches(request.headers['if-none-match'], etag)) return { ...response, headers };
  // A 304 repeats the validator and drops what describes the body it does not send.
  delete headers['content-type'];
  return { ...response, status: 304, headers, body: '', documented: operation.responses.get('304') ?? response.documented };
}

const documented = new WeakMap<CompiledOperation, boolean>();

function documentsEtag(operation: CompiledOperation): boolean {
  let answer = documented.get(operation);
  if (answer === undefined) {
    answer = operation.responses.has('304') || [...operation.responses.values()].some((plan) => plan.headers.some((header) => header.name === 'etag'));
    documented.set(operation, answer);
  }
  return answer;
}

/** `If-None-Match: *`, or a list of tags compared weakly (a `W/` prefix set aside). */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  return text.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
