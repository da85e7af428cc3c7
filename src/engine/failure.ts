// Errors are data: a stage that refuses a request returns a Failure, and `failureResponse` is the
// one place that turns it into HTTP. Failures of the API's contract (401, 400, 413) take the
// operation's documented error shape; failures of the stub itself (404, 405, unknown scenario)
// are problem+json, since the API does not describe them.
import type { CompiledOperation } from '../spec/compile-operations.js';
import { problem } from '../spec/error-renderer.js';
import type { StubResponse } from './types.js';

export interface Failure {
  failure: true;
  status: number;
  message: string;
  violations: string[];
  /** True when the answer is the stub's own (routing, selection), never the API's documented error. */
  fromStub?: boolean;
  headers?: Record<string, string>;
  /** Extra problem+json members, e.g. the known scenario names. */
  extra?: Record<string, unknown>;
}

/**
 * The status of a selection the stub cannot honour (unknown scenario or example, undocumented
 * Prefer code, bad X-Mock-Delay). Not 400: the API documents 400 with its own body shape, and a
 * problem+json 400 would break that contract (Prism's proxy flags it); 422 says the request was
 * understood but the stub cannot act on its instructions.
 */
export const SELECTION_ERROR_STATUS = 422;

export function fail(status: number, message: string, options: Partial<Omit<Failure, 'failure' | 'status' | 'message'>> = {}): Failure {
  return { failure: true, status, message, violations: options.violations ?? [], ...options };
}

/** A request that broke the contract: message is the violations, joined as the API's error text. */
export function invalid(violations: string[], status = 400): Failure {
  return fail(status, violations.join('; '), { violations });
}

export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && (value as Failure).failure === true;
}

export function failureResponse(failure: Failure, operation: CompiledOperation | null): StubResponse {
  const rendered = operation && !failure.fromStub
    ? operation.renderError(failure.status, failure.message, failure.violations)
    : problem(failure.status, failure.message, failure.violations, failure.extra);
  return {
    status: failure.status,
    headers: { 'content-type': rendered.contentType, ...failure.headers },
    body: JSON.stringify(rendered.body),
    scenario: null,
    violations: failure.violations.length > 0 ? failure.violations : [failure.message],
    selfCheck: [],
    delayMs: 0,
    operation: operation?.key ?? null,
    fromStub: failure.fromStub === true,
  };
}
