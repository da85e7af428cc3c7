// The one writer in http/ of the stub's own refusals that never reach the engine (the admin API,
// its guard, requests node:http cannot parse, a broken install; named in http-refusals.ts): all
// problem+json, built by openapi/problem-details.ts like the engine's own refusals, which leave
// through serve-request.ts.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problem } from '../openapi/problem-details.js';
import type { HttpRefusal } from './http-refusals.js';

/** Writes a refusal (named in http-refusals.ts) as a problem+json answer, with its own headers. */
export function sendProblem(res: ServerResponse, { status, detail, extra = {}, headers = {} }: HttpRefusal): void {
  const { contentType, body } = problem(status, detail, [], extra);
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(text) }).end(text);
}

/** A refusal written straight to a socket node:http gave up on, then the connection closed. */
export function endSocketWithProblem(socket: Duplex, { status, detail }: HttpRefusal): void {
  const { contentType, body } = problem(status, detail);
  const text = JSON.stringify(body);
  const title = (body as { title: string }).title;
  socket.end(`HTTP/1.1 ${status} ${title}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}
