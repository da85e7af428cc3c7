// The one writer in http/ of the stub's own refusals that never reach the engine (the admin API,
// its guard, requests node:http cannot parse, a broken install): all problem+json, built by
// openapi/problem-details.ts like the engine's own refusals, which leave through serve-request.ts.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problem } from '../openapi/problem-details.js';

/** Writes a problem+json answer; `headers` adds e.g. WWW-Authenticate or `connection: close`. */
export function sendProblem(res: ServerResponse, status: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  const { contentType, body } = problem(status, detail, [], extra);
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(text) }).end(text);
}

/** A problem+json answer written straight to a socket node:http gave up on, then the connection closed. */
export function endSocketWithProblem(socket: Duplex, status: number, detail: string): void {
  const { contentType, body } = problem(status, detail);
  const text = JSON.stringify(body);
  const title = (body as { title: string }).title;
  socket.end(`HTTP/1.1 ${status} ${title}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}
