// --proxy, step 2: one request to the real API with node:http(s), kept-alive connections reused.
// What can go wrong is sorted here: a target that refuses the connection or cannot be resolved
// (the mock answers instead), no answer headers in time (504), or a broken answer (502).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export type UpstreamResult =
  | { kind: 'answer'; response: IncomingMessage }
  /** No connection could be made (refused, name not resolved): the upstream is not there. */
  | { kind: 'unreachable'; code: string }
  | { kind: 'timeout' }
  /** The client left before the answer's headers came: the request was cancelled. */
  | { kind: 'abandoned' }
  /** `reason` completes "the upstream URL …": `sent a broken answer (ECONNRESET: socket hang up)`. */
  | { kind: 'broken'; reason: string };

/** Connection errors that mean nothing answers there, as opposed to an answer that went wrong. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export class Upstream {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  /** The target's path without a trailing slash: what the request's path is appended to. */
  private readonly basePath: string;

  constructor(readonly target: URL, readonly timeoutMs: number) {
    const https = target.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.send = https ? httpsRequest : httpRequest;
    this.basePath = target.pathname.replace(/\/+$/, '');
  }

  /**
   * The URL a request path goes to, without its query (the query may carry credentials; this is
   * what the journal shows); null when its dot segments (`..`, `%2e%2e`, `\..`) would climb out of
   * the target's base path: a client of `--proxy http://host/base/api` reaches `/base/api/…` only.
   */
  urlFor(path: string): string | null {
    // Resolved as the request would be (WHATWG URL rules, as node:http applies them), then checked.
    const resolved = new URL(`${this.target.origin}${this.basePath}${path.startsWith('/') ? '' : '/'}${path}`);
    const inside = this.basePath === '' || resolved.pathname === this.basePath || resolved.pathname.startsWith(`${this.basePath}/`);
    return inside ? `${resolved.origin}${resolved.pathname}` : null;
  }

  /**
   * Resolves once the answer's headers arrived (its body is left to stream) or the exchange failed;
   * `cancelled` (the client left) ends it at once, the connection to the upstream closed.
   */
  request(method: string, path: string, rawQuery: string, headers: OutgoingHttpHeaders, body: Uint8Array, cancelled?: AbortSignal): Promise<UpstreamResult> {
    return new Promise((resolve) => {
      if (cancelled?.aborted) return resolve({ kind: 'abandoned' });
      let settled = false;
      const settle = (result: UpstreamResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      let outgoing: ReturnType<typeof httpRequest>;
      try {
        const url = this.urlFor(path);
        if (url === null) return resolve({ kind: 'broken', reason: `was not sent ${path}: it climbs out of the target's path` });
        outgoing = this.send(`${url}${rawQuery === '' ? '' : `?${rawQuery}`}`, { method, headers, agent: this.agent });
      } catch (error) {
        // Node refuses to send what it would not have parsed (a method or header it finds invalid).
        return resolve({ kind: 'broken', reason: `could not be sent the request (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
      }
      const timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        outgoing.destroy();
      }, this.timeoutMs);
      const cancel = () => {
        settle({ kind: 'abandoned' });
        outgoing.destroy();
      };
      cancelled?.addEventListener('abort', cancel, { once: true });
      outgoing.once('close', () => cancelled?.removeEventListener('abort', cancel));
      outgoing.on('response', (response) => settle({ kind: 'answer', response }));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? 'ERROR';
        settle(UNREACHABLE.has(code) ? { kind: 'unreachable', code } : { kind: 'broken', reason: `sent a broken answer (${code}: ${error.message})` });
      });
      outgoing.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
