// CORS for browser clients: preflights are answered by the stub, and every answer reflects the
// request's Origin, so a frontend on any dev-server port can call the stub.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackName } from '../common/loopback.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer, X-Mock-Scenario, X-Mock-Delay, X-Mock-Fault, X-Mock-Session';
const EXPOSED_HEADERS = 'X-Mock-Scenario, WWW-Authenticate, Allow, X-Mock-Proxy, X-Mock-Violations';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';

export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** Answers a preflight at once (the admin API's). */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  applyCors(req, res);
  res.writeHead(204, { ...preflightHeaders(req), 'content-length': '0' });
  res.end();
}

/** A preflight's grants; the API's preflights leave through the one exit with them (engine/answer-values.ts's preflightAnswer). */
export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  // Requested headers are echoed too, so a client library's own headers do not fail the preflight.
  const requested = req.headers['access-control-request-headers'];
  return {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': requested ? `${ALLOWED_HEADERS}, ${requested}` : ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}

/**
 * `documentedHeaders`: the answering operation's documented response headers (`Location, X-Total-Count`),
 * exposed too, so frontend code can read what the API documents; '' for none.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, documentedHeaders = ''): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-allow-credentials', 'true');
  res.setHeader('access-control-expose-headers', documentedHeaders === '' ? EXPOSED_HEADERS : `${EXPOSED_HEADERS}, ${documentedHeaders}`);
  res.setHeader('vary', 'Origin');
}

/** `http://localhost:5173`, `http://127.0.0.1:3000`, `http://[::1]`: a page served from this machine. */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return isLoopbackName(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** A Host header naming this machine (any port); absent means an HTTP/1.0 client on the box. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return isLoopbackName(name.toLowerCase());
}
