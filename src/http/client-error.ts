// Requests node:http cannot even parse (garbage request lines, oversized headers, slow clients)
// never reach the engine; they still get a short, honest answer instead of a silent hang-up.
import type { Duplex } from 'node:stream';

const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADERS_TIMEOUT: '408 Request Timeout',
};

export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const status = ANSWERS[error.code ?? ''] ?? '400 Bad Request';
  const body = JSON.stringify({ type: 'about:blank', title: status.slice(4), status: Number(status.slice(0, 3)), detail: 'the request could not be parsed as HTTP/1.1' });
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
