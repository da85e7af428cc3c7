// Reads a request body into one buffer, up to a limit. Past the limit it stops keeping bytes and
// reports the body as too large, so the engine can refuse it like any other bad request.
import type { IncomingMessage } from 'node:http';

const EMPTY = Buffer.alloc(0);

/** Calls `done` once: with the body, or with what was kept and `exceeded` when it passed `limit`. */
export function readBody(req: IncomingMessage, limit: number, done: (body: Buffer, exceeded: boolean) => void): void {
  // A body parser mounted before the stub has already drained the stream; use what it kept.
  if (req.readableEnded) return done(bodyFromParser((req as { body?: unknown }).body), false);
  if (Number(req.headers['content-length']) > limit) return done(EMPTY, true);
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return done(EMPTY, false);

  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  req.on('data', (chunk: Buffer) => {
    if (finished) return; // past the limit: read and discarded, so the client can read the 413
    size += chunk.length;
    if (size <= limit) return void chunks.push(chunk);
    finished = true;
    done(EMPTY, true);
  });
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), false);
  });
  // A client that drops mid-body gets no answer; there is nobody left to read it.
  req.on('error', ignore);
}

/** One shared listener, not a new closure per request. */
function ignore(): void {}

/** What an earlier body parser kept, back as bytes; it leaves `undefined` when there was no body. */
function bodyFromParser(body: unknown): Buffer {
  if (body === undefined) return EMPTY;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}
