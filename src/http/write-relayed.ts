// Sends an answer relayed from the real API (--proxy): its status and headers as the upstream sent them, what was
// held back for checking, then the rest of the upstream's body piped through (back-pressure and
// all). The one exit (serve-request.ts) calls it after the delay, as it calls write-stream.ts for
// a stream of events; `recorded` runs once, when the answer is over however it ended.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { EngineResponse } from '../engine/engine-response.js';

/** The upstream's body as the exit sends it. */
export interface RelayedBody {
  /** The upstream's headers as the client gets them (proxy-headers.ts), X-Mock-Violations added. */
  headers: OutgoingHttpHeaders;
  /** What was read already (held back to be checked), written first. */
  held: Buffer[];
  /** The rest of the upstream's answer, to pipe; null when it was read whole. */
  rest: IncomingMessage | null;
  /** --proxy-timeout: how long the rest may go without a byte before the client's connection is cut. */
  idleMs: number;
}

export function writeRelayed(res: ServerResponse, response: EngineResponse, body: RelayedBody, recorded: (response: EngineResponse) => void): void {
  res.writeHead(response.status, body.headers);
  const { rest } = body;
  if (rest === null) {
    res.end(body.held.length === 1 ? body.held[0] : Buffer.concat(body.held));
    return recorded(response);
  }
  for (const chunk of body.held) res.write(chunk);
  let over = false;
  const end = (abandoned = false) => {
    if (over) return;
    over = true;
    clearInterval(stalled);
    recorded(abandoned ? { ...response, abandoned } : response);
  };
  const cutOff = (outcome: string) => {
    // The client must see a broken answer, not a complete-looking short one.
    response.proxy!.outcome = outcome;
    end();
    rest.destroy();
    res.destroy();
  };
  // The head is out: an upstream that then stops sending gets its client's connection cut after
  // --proxy-timeout without a byte, so the client sees a broken answer instead of waiting for
  // ever. A pause the client's own slow reading causes (the pipe's back-pressure) is no stall.
  const stalled = setInterval(() => {
    if (rest.isPaused()) return stalled.refresh();
    cutOff('timeout (answer cut off)');
  }, body.idleMs);
  if (rest.errored || (rest.destroyed && !rest.complete)) return cutOff('bad gateway (answer cut off)');
  rest.on('data', () => stalled.refresh());
  rest.once('error', () => cutOff('bad gateway (answer cut off)'));
  rest.pipe(res);
  res.once('close', () => {
    // The client left before the whole answer reached it: journaled as abandoned, like a delayed mock answer.
    const left = !res.writableFinished && !rest.complete;
    if (left) rest.destroy();
    end(left);
  });
}
