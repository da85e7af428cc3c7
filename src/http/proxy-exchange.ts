// --proxy at the edge: a request the real API should answer is forwarded (proxy/ decides and
// checks), its answer relayed to the client unchanged (status, headers, body bytes: a gzip body
// stays gzip) while a capped prefix is checked against the document, and the exchange is
// recorded once. A JSON answer up to the cap is held back until it is checked, so its
// violations can go out in X-Mock-Violations; a larger one streams at once.
import { violationsHeaderText } from '../common/violations-header.js';
import type { IncomingMessage } from 'node:http';
import type { ProxyDecision } from '../proxy/proxy-decision.js';
import { checkUpstreamBody, checkHead, checkMedia, lacksOperation, wantsBody, CHECK_CAP_BYTES, type AnswerCheck } from '../proxy/check-answer.js';
import { clientHeaders, upstreamHeaders } from '../proxy/proxy-headers.js';
import type { ProxySetup } from '../proxy/proxy-setup.js';
import { RECORD_BODY_CAP, type FixtureRecorder } from '../proxy/record-fixtures.js';
import { refusalResponse } from '../engine/refusal.js';
import { serverRefusals } from '../engine/refusals.js';
import type { ProxyNote, EngineResponse } from '../engine/engine-response.js';
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import { applyCors } from './cors.js';
import type { Exchange } from './exchange.js';

/** Where a proxied exchange ends when the stub answers itself: the mock (a fallback notes why), or a ready answer. */
export interface ProxyExits {
  mock(note?: ProxyNote): void;
  send(response: EngineResponse): void;
}


export function serveProxied(exchange: Exchange, proxy: ProxySetup, exits: ProxyExits): void {
  const { stub, req, request } = exchange;
  const { upstream } = proxy;
  const decision = stub.decideProxy(request);
  if (decision.kind === 'mock') return exits.mock();
  const forwardedPath = decision.kind === 'forward' ? decision.path : request.path;
  const confined = upstream.urlFor(forwardedPath);
  if (confined === null) return exits.send(refusalResponse(serverRefusals.outsideProxyTarget(forwardedPath, upstream.target.pathname), null));
  const target = confined;
  const note = (outcome: string, more: Partial<ProxyNote> = {}): ProxyNote => ({
    outcome, target, documented: decision.kind === 'refuse' || decision.operation !== null, responseViolations: [], undeclared: [], ...more,
  });
  if (decision.kind === 'refuse') return exits.send({ ...decision.response, proxy: note('refused') });
  const { operation, violations } = decision;
  const headers = upstreamHeaders(req.headers, upstream.target, req.socket.remoteAddress, request.body);
  // Watched from the start: a client that leaves while the upstream thinks cancels the request to it.
  const left = new AbortController();
  exchange.res.once('close', () => {
    if (!exchange.res.writableFinished) left.abort();
  });
  void upstream.request(request.method, decision.path, request.rawQuery, headers, request.body, left.signal).then((result) => {
    switch (result.kind) {
      case 'abandoned':
        // 499: no status was ever sent (nginx's code for a client that closed its request first).
        return exchange.stub.recorder.answered(request, recorded(499, operation, null, violations, note('abandoned'), true), performance.now() - exchange.started);
      case 'unreachable':
        return exits.mock(note(`fallback (upstream unreachable: ${result.code})`));
      case 'timeout':
        return exits.send(gatewayProblem(504, `no answer from the upstream ${target} within ${upstream.timeoutMs} ms (--proxy-timeout)`, operation, violations, note('timeout')));
      case 'broken':
        return exits.send(gatewayProblem(502, `the upstream ${target} ${result.reason}`, operation, violations, note('bad gateway')));
      case 'answer': {
        const status = result.response.statusCode ?? 502;
        // The document has the operation, the upstream not yet: the mock answers it.
        if (operation && lacksOperation(operation, status)) {
          result.response.resume();
          return exits.mock(note(`fallback (upstream ${status})`, { upstreamStatus: status }));
        }
        return relay(exchange, result.response, decision, note('forwarded', { upstreamStatus: status }), exits, proxy.recorder, left.signal, upstream.timeoutMs);
      }
    }
  }).catch((error: unknown) => {
    // A bug of ours: logged, and the client still gets an answer rather than a hung request.
    process.stderr.write(`internal error proxying ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}\n`);
    if (!exchange.res.headersSent) exits.send(gatewayProblem(502, `the stub failed relaying the answer of ${target}; see its log`, operation, violations, note('bad gateway')));
    else exchange.res.destroy();
  });
}

/** The stub's own 502/504: problem+json that says it came from the stub (the API documents neither). */
function gatewayProblem(status: number, detail: string, operation: CompiledOperation | null, violations: string[], note: ProxyNote): EngineResponse {
  const response = refusalResponse(serverRefusals.gateway(status, detail), operation);
  return { ...response, violations, proxy: note };
}

/**
 * `left`: the client has gone (the upstream's answer is then cut off, whenever that happens);
 * `idleMs`: how long a body held back for checking may go without a byte before the client gets a 504.
 */
function relay(exchange: Exchange, answer: IncomingMessage, forward: Extract<ProxyDecision, { kind: 'forward' }>, note: ProxyNote, exits: ProxyExits, recorder: FixtureRecorder | null, left: AbortSignal, idleMs: number): void {
  const { req, res } = exchange;
  const { operation, violations } = forward;
  const status = answer.statusCode!;
  const head = operation ? checkHead(operation, status, answer.headers) : { plan: null, violations: [] };
  note.responseViolations.push(...head.violations);
  const plan = head.plan;
  // The client left: the upstream's answer is not wanted any more.
  let recordedOnce = false;
  const record = (abandoned = false) => {
    if (recordedOnce) return;
    recordedOnce = true;
    exchange.stub.recorder.answered(exchange.request, recorded(status, operation, plan, violations, note, abandoned), performance.now() - exchange.started);
  };
  const clientLeft = () => {
    if (answer.complete) return;
    answer.destroy();
    // The client left before the whole answer reached it: journaled as abandoned, like a delayed mock answer.
    record(true);
  };
  if (left.aborted) return clientLeft();
  left.addEventListener('abort', clientLeft, { once: true });
  const finish = (check: AnswerCheck, whole: boolean) => {
    note.responseViolations.push(...check.violations);
    note.undeclared.push(...check.undeclared);
    if (check.unchecked) note.unchecked = check.unchecked;
    if (recorder && operation && plan) recordFixture(recorder, forward, exchange.request.rawQuery, operation, plan, answer, check, whole, note);
  };
  const writeHead = () => {
    // Frontend code may read the violations too (the upstream's own CORS headers, if any, win).
    if (exchange.settings.cors) applyCors(req, res, operation?.responseHeaderNames ?? '');
    const headers = clientHeaders(answer.headers);
    const header = proxiedViolationsHeader(violations, note.responseViolations);
    if (header !== null) headers['x-mock-violations'] = header;
    res.writeHead(status, headers);
  };

  // Held back only when there is a document body to check; anything else streams at once.
  const checkable = plan !== null && wantsBody(plan, answer.headers);
  if (!checkable || Number(answer.headers['content-length']) > CHECK_CAP_BYTES) {
    if (plan) finish(checkable ? checkUpstreamBody(plan, answer.headers, null) : { violations: checkMedia(plan, answer.headers), undeclared: [] }, false);
    return stream(exchange, answer, writeHead, record, note, [], idleMs);
  }
  const chunks: Buffer[] = [];
  let held = 0;
  // Held back, the body reaches the client only once whole: an upstream that stops sending it
  // must not hold the client for ever. No byte within --proxy-timeout: 504, nothing sent yet.
  const stalled = setTimeout(() => {
    answer.off('data', onData).off('end', onEnd);
    answer.destroy();
    recordedOnce = true; // the 504 is recorded where it is sent
    exits.send(gatewayProblem(504, `the upstream ${note.target} sent its answer's head and then nothing for ${idleMs} ms (--proxy-timeout)`, operation, violations, { ...note, outcome: 'timeout' }));
  }, idleMs);
  answer.once('close', () => clearTimeout(stalled));
  const onData = (chunk: Buffer) => {
    if (plan === null) return;
    stalled.refresh();
    chunks.push(chunk);
    held += chunk.length;
    if (held <= CHECK_CAP_BYTES) return;
    // Too large to hold: its head goes out with what is known, the rest streams unchecked.
    clearTimeout(stalled);
    answer.off('data', onData).off('end', onEnd);
    answer.pause();
    finish(checkUpstreamBody(plan, answer.headers, null), false);
    stream(exchange, answer, writeHead, record, note, chunks, idleMs);
  };
  const onEnd = () => {
    clearTimeout(stalled);
    if (plan === null) return;
    finish(checkUpstreamBody(plan, answer.headers, Buffer.concat(chunks, held)), true);
    writeHead();
    res.end(Buffer.concat(chunks, held));
    record();
  };
  answer.on('data', onData).on('end', onEnd);
  answer.once('error', () => {
    if (res.headersSent) return;
    answer.off('end', onEnd);
    recordedOnce = true; // the 502 is recorded where it is sent
    exits.send(gatewayProblem(502, `the upstream ${note.target} broke off its answer`, operation, violations, { ...note, outcome: 'bad gateway' }));
  });
}

/** Writes the head and what was held, then pipes the rest of the answer through (back-pressure and all). */
function stream(exchange: Exchange, answer: IncomingMessage, writeHead: () => void, record: (abandoned?: boolean) => void, note: ProxyNote, held: Buffer[], idleMs: number): void {
  const { res } = exchange;
  writeHead();
  for (const chunk of held) res.write(chunk);
  // The head is out: an upstream that then stops sending gets its client's connection cut after
  // --proxy-timeout without a byte, so the client sees a broken answer instead of waiting for
  // ever. A pause the client's own slow reading causes (the pipe's back-pressure) is no stall.
  const stalled = setInterval(() => {
    if (answer.isPaused()) return stalled.refresh();
    clearInterval(stalled);
    note.outcome = 'timeout (answer cut off)';
    // Recorded first: the client did not leave, the upstream stopped (the cut is not an abandon).
    record();
    answer.destroy();
    res.destroy();
  }, idleMs);
  answer.on('data', () => stalled.refresh());
  answer.once('close', () => clearInterval(stalled));
  answer.pipe(res);
  res.once('close', () => {
    clearInterval(stalled);
    record();
  });
  answer.once('error', () => {
    // Cut off mid-answer: the client must see a broken answer, not a complete-looking short one.
    note.outcome = 'bad gateway (answer cut off)';
    res.destroy();
    record();
  });
}

/**
 * --record: a documented request that keeps to the document, and an answer read whole (a JSON
 * body up to the cap) or without a body; anything else is left out with a warning saying why.
 */
function recordFixture(recorder: FixtureRecorder, forward: Extract<ProxyDecision, { kind: 'forward' }>, rawQuery: string, operation: CompiledOperation, plan: ResponsePlan, answer: IncomingMessage, check: AnswerCheck, whole: boolean, note: ProxyNote): void {
  if (forward.violations.length > 0) return recorder.skip(operation, 'its request breaks the document, so it could not be matched on replay');
  const bodiless = plan.contentType === null || answer.headers['content-length'] === '0';
  if (!bodiless && !(whole && 'value' in check)) {
    const why = !wantsBody(plan, answer.headers) ? `its ${String(answer.headers['content-type'] ?? 'untyped')} body is not JSON, which a fixture holds`
      : !whole ? `its body is larger than ${RECORD_BODY_CAP} bytes` : check.unchecked ?? 'its body could not be read';
    return recorder.skip(operation, why);
  }
  recorder.add({
    operation, pathParams: forward.pathParams, rawQuery, requestBody: forward.requestBody,
    status: answer.statusCode!, plan, headers: answer.headers, body: bodiless ? undefined : check.value, violations: note.responseViolations,
  });
}

/** The journal's view of a relayed answer: its outcome, never its body. */
function recorded(status: number, operation: CompiledOperation | null, plan: ResponsePlan | null, violations: string[], note: ProxyNote, abandoned: boolean): EngineResponse {
  return { status, headers: {}, body: '', scenario: null, violations, selfCheck: [], delayMs: 0, operation, documented: plan, ownAnswer: false, proxy: note, ...(abandoned ? { abandoned } : {}) };
}

/** `3 violations: request /name: is required; response /water: must be an integer`, at most 1 KiB of visible ASCII; null when there are none. */
export function proxiedViolationsHeader(request: readonly string[], response: readonly string[]): string | null {
  if (request.length + response.length === 0) return null;
  return violationsHeaderText([...request.map((v) => `request ${v}`), ...response.map((v) => `response ${v}`)]);
}
