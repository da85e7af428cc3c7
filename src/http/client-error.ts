// Requests node:http cannot even parse (garbage request lines, oversized headers, slow clients)
// never reach the engine; they still get a short, honest answer instead of a silent hang-up.
import type { Duplex } from 'node:stream';
import { problem } from '../openapi/error-renderer.js';

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADERS_TIMEOUT: 408,
};

export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_CODE[error.code ?? ''] ?? 400;
  const { contentType, body } = problem(status, 'the request could not be parsed as HTTP/1.1');
  const text = JSON.stringify(body);
  const title = (body as { title: string }).title;
  socket.end(`HTTP/1.1 ${status} ${title}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}
