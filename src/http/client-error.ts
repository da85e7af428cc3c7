// Requests node:http cannot even parse (garbage request lines, oversized headers, slow clients)
// never reach the engine; they still get a short, honest answer instead of a silent hang-up.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { endSocketWithProblem, sendProblem } from './send-problem.js';
import { edgeRefusals } from './http-refusals.js';

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADERS_TIMEOUT: 408,
};

/** Header lines a request may carry; at this many it is refused with 431. */
export const MAX_HEADER_LINES = 1000;

export function tooManyHeaders(res: ServerResponse): void {
  sendProblem(res, edgeRefusals.tooManyHeaders(MAX_HEADER_LINES));
}

/** CONNECT asks for a tunnel, which a stub of an API does not open: an answer, never a silent close. */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  endSocketWithProblem(socket, edgeRefusals.connectNotServed());
}

export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  endSocketWithProblem(socket, edgeRefusals.unparsable(STATUS_BY_CODE[error.code ?? ''] ?? 400));
}
