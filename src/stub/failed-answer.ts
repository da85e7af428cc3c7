// The one catch around answering a request: what was thrown is told apart by its class, never by
// its message. A store in another process that did not answer or refused a command
// (StoreUnavailable) is a 503 in plain words, retry; anything else is a bug of the stub, a plain
// 500 problem holding nothing of the error, its stack in the log.
import type { PlainRequest } from '../common/plain-http.js';
import type { EngineResponse } from '../engine/engine-response.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals } from '../engine/refusals.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import { StoreUnavailable } from './store-unavailable.js';

/** Where a bug's stack goes: the server's stderr; the fetch handler passes its `log`. */
export type ReportBug = (line: string) => void;

/** The one catch's answer to a request whose answering threw, routed to `operation` when known (stub-core.ts). */
export type FailedAnswer = (request: PlainRequest, error: unknown, operation: CompiledOperation | null) => EngineResponse;

const toStderr: ReportBug = (line) => void process.stderr.write(`${line}\n`);

/**
 * The answer to a request whose answering threw, for every host (the server, the fetch handler);
 * `operation`: the one it was routed to, when known.
 */
export function failedAnswer(request: PlainRequest, error: unknown, operation: CompiledOperation | null = null, report: ReportBug = toStderr): EngineResponse {
  if (error instanceof StoreUnavailable) return refusalResponse(serverRefusals.storeUnavailable(error.message), operation);
  return internalError(request, error, operation, report);
}

/** Reports the error with its stack and answers the internal-error refusal. */
export function internalError(request: PlainRequest, error: unknown, operation: CompiledOperation | null = null, report: ReportBug = toStderr): EngineResponse {
  report(`internal error on ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`);
  return refusalResponse(serverRefusals.internalError(), operation);
}
