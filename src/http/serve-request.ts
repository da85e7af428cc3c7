// The node:http adapter: reads a request into a StubRequest (bounded body), runs the engine, and
// writes the StubResponse back, with CORS, scripted delays and faults. The default server calls it
// directly for API paths, so the hot path pays nothing for Express; the Express app calls the same
// function, so both behave alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Stub } from '../stub/stub.js';
import type { StubRequest, StubResponse } from '../shared/plain-http.js';
import { refuse, refusalResponse } from '../engine/refusal.js';
import { applyCors, isPreflight, answerPreflight } from './cors.js';
import { MAX_OWED, type InFlight } from './in-flight.js';

export interface ServeSettings {
  maxBodyBytes: number;
  cors: boolean;
  inFlight: InFlight;
}

const EMPTY = Buffer.alloc(0);

export function serveRequest(stub: Stub, req: IncomingMessage, res: ServerResponse, settings: ServeSettings): void {
  const started = performance.now();
  if (settings.cors && isPreflight(req)) return answerPreflight(req, res);
  const url = originForm(req.url ?? '/');
  const queryAt = url.indexOf('?');
  const request: StubRequest = {
    method: req.method ?? 'GET',
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    rawQuery: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers: req.headers,
    body: EMPTY,
  };
  const finish = (body: Buffer) => {
    request.body = body;
    respond(stub, request, req, res, settings, started);
  };

  // A body parser mounted before the stub has already drained the stream; use what it kept.
  if (req.readableEnded) return finish(bodyFromParser((req as { body?: unknown }).body));

  const declared = Number(req.headers['content-length']);
  if (declared > settings.maxBodyBytes) return tooLarge(stub, request, req, res, settings, started);
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return finish(EMPTY);

  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > settings.maxBodyBytes) {
      refused = true;
      tooLarge(stub, request, req, res, settings, started);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!refused) finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
  });
  // A client that drops mid-body gets no answer; there is nobody left to read it.
  req.on('error', () => {});
}

function respond(stub: Stub, request: StubRequest, req: IncomingMessage, res: ServerResponse, settings: ServeSettings, started: number): void {
  let handled: StubResponse | Promise<StubResponse>;
  try {
    handled = stub.handle(request);
  } catch (error) {
    handled = internalError(request, error);
  }
  if (handled instanceof Promise) {
    handled.then(
      (response) => deliver(stub, request, response, req, res, settings, started),
      (error: unknown) => deliver(stub, request, internalError(request, error), req, res, settings, started),
    );
  } else deliver(stub, request, handled, req, res, settings, started);
}

/** A bug of ours must still not leak internals: log it, answer a plain problem. */
function internalError(request: StubRequest, error: unknown): StubResponse {
  process.stderr.write(`internal error on ${request.method} ${request.path}: ${(error as Error).stack ?? error}\n`);
  return refusalResponse(refuse(500, 'the stub failed to handle this request; see its log', { fromStub: true }), null);
}

function deliver(stub: Stub, request: StubRequest, response: StubResponse, req: IncomingMessage, res: ServerResponse, settings: ServeSettings, started: number): void {
  const send = () => {
    if (res.destroyed) return;
    if (settings.cors) applyCors(req, res);
    if (response.fault) injectFault(response, res, req, settings);
    else write(res, response, request);
    // Faults are journaled too: a resilience test still asserts that its request arrived.
    stub.record(request, response, performance.now() - started);
  };
  const owes = response.delayMs > 0 || response.fault === 'timeout';
  if (owes && settings.inFlight.full) {
    const refused = refusalResponse(refuse(429, `more than ${MAX_OWED} delayed or held answers are already waiting; retry later`, { fromStub: true, headers: { 'retry-after': '1' } }), null);
    if (settings.cors) applyCors(req, res);
    write(res, refused, request);
    stub.record(request, refused, performance.now() - started);
  } else if (response.delayMs > 0) {
    // A client that gives up on a slow answer is still a request its test may want to see.
    const abandoned = () => stub.record(request, { ...response, abandoned: true }, performance.now() - started);
    settings.inFlight.delay(response.delayMs, send, res, abandoned);
  }
  else send();
}

function write(res: ServerResponse, response: StubResponse, request: StubRequest): void {
  response.headers['content-length'] = String(Buffer.byteLength(response.body));
  try {
    res.writeHead(response.status, response.headers);
  } catch (error) {
    // A header value Node refuses (a character outside Latin-1 that slipped past start-up checks).
    const fallback = internalError(request, error);
    res.writeHead(fallback.status, { ...fallback.headers, 'content-length': String(Buffer.byteLength(fallback.body)) });
    res.end(fallback.body);
    return;
  }
  res.end(response.body);
}

function tooLarge(stub: Stub, request: StubRequest, req: IncomingMessage, res: ServerResponse, settings: ServeSettings, started: number): void {
  const response = stub.refuse(request, refuse(413, `the request body is larger than ${settings.maxBodyBytes} bytes`, { headers: { connection: 'close' } }));
  if (settings.cors) applyCors(req, res);
  res.writeHead(413, response.headers);
  // Stop reading the rest of the body: the connection closes once the answer is out.
  res.end(response.body, () => req.destroy());
  stub.record(request, response, performance.now() - started);
}

/** Deliberate failures for client resilience tests; only when a fixture or X-Mock-Fault asks. */
function injectFault(response: StubResponse, res: ServerResponse, req: IncomingMessage, settings: ServeSettings): void {
  switch (response.fault) {
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'close':
      // Promise a full body, send half, then hang up.
      res.writeHead(response.status, { ...response.headers, 'content-length': String(Buffer.byteLength(response.body) + 64) });
      res.write(response.body.slice(0, Math.ceil(response.body.length / 2)));
      setImmediate(() => req.socket.destroy());
      return;
    case 'timeout':
      // Never answer; the socket is released when the client gives up or the server shuts down.
      settings.inFlight.hold(res);
      return;
    case 'malformed':
      res.writeHead(response.status, response.headers);
      res.end(response.body.slice(0, Math.max(1, response.body.length - 1)) + ',');
      return;
  }
}

/**
 * `http://host/plants?x` -> `/plants?x`. Clients that reach the stub through a proxy setting send the
 * absolute form, which servers must accept (RFC 9112 §3.2.2); routing needs only the path.
 */
export function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!match) return url;
  const rest = url.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** What an earlier body parser kept, back as bytes; it leaves `undefined` when there was no body. */
function bodyFromParser(body: unknown): Buffer {
  if (body === undefined) return EMPTY;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}
