// The node:http adapter: reads a request into a PlainRequest (bounded body), has it answered (the
// engine, or with --proxy the real API: proxy-exchange.ts), and sends every answer through one
// exit, once: the delay, CORS, a fault or the write (or the pipe of a relayed body), then the record.
// The default server calls it directly for API paths, so the hot path pays nothing for Express;
// the Express app calls the same function, so both behave alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Stub } from '../stub/stub.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { ProxyNote, EngineResponse } from '../engine/engine-response.js';
import { serveProxied } from './proxy-exchange.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals } from '../engine/refusals.js';
import { failedAnswer } from '../stub/failed-answer.js';
import { applyCors, isPreflight, preflightHeaders } from './cors.js';
import { preflightAnswer } from '../engine/answer-values.js';
import { MAX_OWED } from './in-flight.js';
import { readBody } from './read-body.js';
import { isMultipart, readMultipart } from './read-multipart.js';
import type { Exchange, ServeSettings } from './exchange.js';
import { writeStream } from './write-stream.js';
import { planFault } from '../common/faults.js';
import { writeRelayed, type RelayedBody } from './write-relayed.js';

export type { ServeSettings } from './exchange.js';

const EMPTY = Buffer.alloc(0);

export function serveRequest(stub: Stub, req: IncomingMessage, res: ServerResponse, settings: ServeSettings): void {
  const exchange: Exchange = { stub, req, res, settings, request: toPlainRequest(req), started: performance.now() };
  // A preflight is the stub's own answer, sent and recorded as any other.
  if (settings.cors && isPreflight(req)) return sendAnswer(exchange, preflightAnswer(preflightHeaders(req)));
  readBody(req, settings.maxBodyBytes, (body, exceeded) => {
    exchange.request.body = body;
    if (exceeded) exchange.request.bodyLimitExceeded = settings.maxBodyBytes;
    // A multipart body is split into its parts first (asynchronously); no other body waits.
    if (!exceeded && body.length > 0 && isMultipart(req.headers['content-type'])) readMultipart(exchange.request, () => proceed(exchange));
    else proceed(exchange);
  });
}

function proceed(exchange: Exchange): void {
  // --proxy: the real API answers, unless the stub's own answer was asked for (proxy-exchange.ts).
  const proxy = exchange.stub.proxy;
  if (proxy) return serveProxied(exchange, proxy, { mock: (note) => answerFromMock(exchange, note), send: (response, relayed) => sendAnswer(exchange, response, relayed) });
  answerFromMock(exchange);
}

/** `note`: --proxy fell back to the mock, and why (said in X-Mock-Proxy and the journal). */
function answerFromMock(exchange: Exchange, note?: ProxyNote): void {
  const marked = note ? (response: EngineResponse) => ({ ...response, headers: { ...response.headers, 'x-mock-proxy': note.outcome }, proxy: note }) : unmarked;
  // The stub's `handle` neither throws nor rejects: whatever answering throws is its one catch's answer (stub-core.ts).
  const answered = exchange.stub.handle(exchange.request);
  // Only a store outside this process (stateful mode across workers or instances) answers later.
  if (answered instanceof Promise) void answered.then((response) => sendAnswer(exchange, marked(response)));
  else sendAnswer(exchange, marked(answered));
}

/** Without --proxy's note an answer goes out as the engine made it (one shared function, no closure per request). */
const unmarked = (response: EngineResponse): EngineResponse => response;

function toPlainRequest(req: IncomingMessage): PlainRequest {
  // server.ts and the Express app have already turned an absolute-form target into origin form.
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  return {
    method: req.method ?? 'GET',
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    rawQuery: queryAt === -1 ? '' : url.slice(queryAt + 1),
    // Express's mount path of the stub's app (`app.use('/api', stubApp)`); undefined under node:http.
    mountPath: (req as IncomingMessage & { baseUrl?: string }).baseUrl,
    headers: req.headers,
    body: EMPTY,
  };
}

/**
 * The one exit: every answer, refusal, fault or answer relayed from the real API (`relayed`: its
 * head and body) leaves through here, delayed and recorded alike, once.
 */
function sendAnswer(exchange: Exchange, response: EngineResponse, relayed?: RelayedBody): void {
  const { res, settings } = exchange;
  // The client left before there was anything to send (a relayed answer it did not wait for).
  if (response.abandoned) return record(exchange, response);
  const owes = response.delayMs > 0 || response.fault === 'timeout';
  if (owes && settings.inFlight.full) {
    relayed?.rest?.destroy();
    return send(exchange, refusalResponse(serverRefusals.tooManyOwed(MAX_OWED), null));
  }
  if (response.delayMs > 0) {
    // A client that gives up on a slow answer is still a request its test may want to see.
    const abandoned = () => {
      relayed?.rest?.destroy();
      record(exchange, { ...response, abandoned: true });
    };
    return settings.inFlight.delay(response.delayMs, () => send(exchange, response, relayed), res, abandoned);
  }
  send(exchange, response, relayed);
}

function send(exchange: Exchange, response: EngineResponse, relayed?: RelayedBody): void {
  const { req, res, settings, request } = exchange;
  if (res.destroyed) return void relayed?.rest?.destroy();
  // The one place CORS is applied; a relayed answer's own CORS headers, if any, win.
  if (settings.cors) applyCors(req, res, response.operation?.responseHeaderNames);
  if (relayed) return writeRelayed(res, response, relayed, (sent) => record(exchange, sent));
  if (response.fault) injectFault(response, exchange);
  else if (request.bodyLimitExceeded !== undefined) writeAndDrain(res, req, response, request);
  // A stream is journaled once it ends, with the events the client got.
  else if (response.stream && request.method !== 'HEAD') return writeStream(res, response.status, response.headers, response.stream, (sent) => record(exchange, { ...response, body: sent }));
  else write(res, response, request);
  // Faults are journaled too: a resilience test still asserts that its request arrived.
  record(exchange, response);
}

function record({ stub, request, started }: Exchange, response: EngineResponse): void {
  stub.recorder.answeredSoon(request, response, performance.now() - started);
}

function write(res: ServerResponse, response: EngineResponse, request: PlainRequest): void {
  response.headers['content-length'] = String(Buffer.byteLength(response.body));
  try {
    res.writeHead(response.status, response.headers);
  } catch (error) {
    // A header value Node refuses (a character outside Latin-1 that slipped past start-up checks).
    const fallback = failedAnswer(request, error);
    res.writeHead(fallback.status, { ...fallback.headers, 'content-length': String(Buffer.byteLength(fallback.body)) });
    res.end(fallback.body);
    return;
  }
  res.end(response.body);
}

/** How long the rest of a refused body is read and thrown away before the connection closes. */
const DRAIN_MS = 2_000;

/**
 * A 413 must reach a client that is still sending: closing a socket with unread bytes makes the
 * kernel answer with a reset, which wipes the 413 from the client's buffers. So the answer goes
 * out with `Connection: close`, our side half-closes, and the rest of the body is read and
 * discarded until the client closes its side (or DRAIN_MS passes).
 */
function writeAndDrain(res: ServerResponse, req: IncomingMessage, response: EngineResponse, request: PlainRequest): void {
  const socket = req.socket;
  const close = () => socket.destroy();
  // Node would destroy the socket once a `Connection: close` answer is finished; half-close instead.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(close, DRAIN_MS);
    timer.unref();
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
  req.resume(); // whatever else of the body arrives is read and discarded
  write(res, response, request);
}

/** Deliberate failures for client resilience tests (common/faults.ts decides what each makes of the answer); only when a fixture or X-Mock-Fault asks. */
function injectFault(response: EngineResponse, { req, res, settings }: Exchange): void {
  const plan = planFault(response.fault!, response.body);
  switch (plan.kind) {
    case 'drop':
      req.socket.resetAndDestroy();
      return;
    case 'breakOff':
      res.writeHead(response.status, { ...response.headers, 'content-length': String(plan.promisedBytes) });
      res.write(plan.sent);
      setImmediate(() => req.socket.destroy());
      return;
    case 'hold':
      // The socket is released when the client gives up or the server shuts down.
      settings.inFlight.hold(res);
      return;
    case 'broken':
      res.writeHead(response.status, response.headers);
      res.end(plan.body);
      return;
  }
}

/**
 * `http://host/plants?x` -> `/plants?x`. Clients that reach the stub through a proxy setting send the
 * absolute form, which servers must accept (RFC 9112 §3.2.2); routing needs only the path.
 */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const match = ABSOLUTE_FORM.exec(url);
  if (!match) return url;
  const rest = url.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** The authority of an absolute-form target (`http://host:1/x` -> `host:1`), else null. */
function absoluteFormAuthority(url: string): string | null {
  return url.startsWith('/') ? null : (ABSOLUTE_FORM.exec(url)?.[1] ?? null);
}

/**
 * Both adapters' first step: an absolute-form target's authority replaces Host (RFC 9112
 * §3.2.2), so /__admin's Host rules apply to the host the client actually named, and the target
 * becomes a path before anything routes it.
 */
export function toOriginForm(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const authority = absoluteFormAuthority(url);
  if (authority !== null) req.headers.host = authority;
  return (req.url = originForm(url));
}
