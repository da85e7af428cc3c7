// --proxy at the edge: one more source of answers. A request the real API should answer is
// forwarded (proxy/ decides and checks), and its answer handed to the one exit (serve-request.ts's
// sendAnswer) unchanged (status, headers, body bytes: a gzip body stays gzip) while a capped prefix
// is checked against the document; the exit delays it (--delay), writes or pipes it and records it,
// as any answer. A JSON answer up to the cap is held back until it is checked, so its violations can
// go out in X-Mock-Violations; a larger one is handed over at once, its body piped.
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
import { relayedAnswer } from '../engine/answer-values.js';
import { delayStage } from '../engine/stages/delay.js';
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import type { Exchange } from './exchange.js';
import type { RelayedBody } from './write-relayed.js';

/** Where a proxied exchange ends: the mock (a fallback notes why), or the one exit with an answer (relayed with its body, or the stub's own). */
export interface ProxyExits {
  mock(note?: ProxyNote): void;
  send(response: EngineResponse, relayed?: RelayedBody): void;
}

export function serveProxied(exchange: Exchange, proxy: ProxySetup, exits: ProxyExits): void {
  const { stub, req, request } = exchange;
  const { upstream } = proxy;
  const decision = stub.decideProxy(request);
  if (decision.kind === 'mock') return exits.mock();
  // --delay simulates the network for every answer, the real API's and the stub's own on this way
  // too: each waits as an answer of the pipeline's without a scripted delay, by its delay stage.
  const send: ProxyExits['send'] = (response, relayed) => exits.send(response.abandoned ? response : delayStage(stub.version.current, { ...response, delayMs: null }), relayed);
  const forwardedPath = decision.kind === 'forward' ? decision.path : request.path;
  const confined = upstream.urlFor(forwardedPath);
  if (confined === null) return send(refusalResponse(serverRefusals.outsideProxyTarget(forwardedPath, upstream.target.pathname), null));
  const target = confined;
  const note = (outcome: string, more: Partial<ProxyNote> = {}): ProxyNote => ({
    outcome, target, documented: decision.kind === 'refuse' || decision.operation !== null, responseViolations: [], undeclared: [], ...more,
  });
  if (decision.kind === 'refuse') return send({ ...decision.response, proxy: note('refused') });
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
        return send(relayedAnswer(499, operation, null, violations, note('abandoned'), true));
      case 'unreachable':
        return exits.mock(note(`fallback (upstream unreachable: ${result.code})`));
      case 'timeout':
        return send(gatewayProblem(504, `no answer from the upstream ${target} within ${upstream.timeoutMs} ms (--proxy-timeout)`, operation, violations, note('timeout')));
      case 'broken':
        return send(gatewayProblem(502, `the upstream ${target} ${result.reason}`, operation, violations, note('bad gateway')));
      case 'answer': {
        const status = result.response.statusCode ?? 502;
        // The document has the operation, the upstream not yet: the mock answers it.
        if (operation && lacksOperation(operation, status)) {
          result.response.resume();
          return exits.mock(note(`fallback (upstream ${status})`, { upstreamStatus: status }));
        }
        return relay(result.response, decision, note('forwarded', { upstreamStatus: status }), send, proxy.recorder, exchange.request.rawQuery, left.signal, upstream.timeoutMs);
      }
    }
  }).catch((error: unknown) => {
    // A bug of ours: logged, and the client still gets an answer rather than a hung request.
    process.stderr.write(`internal error proxying ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}\n`);
    if (!exchange.res.headersSent) send(gatewayProblem(502, `the stub failed relaying the answer of ${target}; see its log`, operation, violations, note('bad gateway')));
    else exchange.res.destroy();
  });
}

/** The stub's own 502/504: problem+json that says it came from the stub (the API documents neither). */
function gatewayProblem(status: number, detail: string, operation: CompiledOperation | null, violations: string[], note: ProxyNote): EngineResponse {
  const response = refusalResponse(serverRefusals.gateway(status, detail), operation);
  return { ...response, violations, proxy: note };
}

/**
 * Checks the upstream's answer and hands it to the exit: at once with its body to pipe, or once a
 * body to check is read whole. `left`: the client has gone (the upstream's answer is then cut off
 * and journaled as abandoned); `idleMs`: how long a body held back for checking may go without a
 * byte before the client gets a 504.
 */
function relay(answer: IncomingMessage, forward: Extract<ProxyDecision, { kind: 'forward' }>, note: ProxyNote, send: ProxyExits['send'], recorder: FixtureRecorder | null, rawQuery: string, left: AbortSignal, idleMs: number): void {
  const head = forward.operation ? checkHead(forward.operation, answer.statusCode!, answer.headers) : { plan: null, violations: [] };
  note.responseViolations.push(...head.violations);
  const relayed = new RelayedAnswer(answer, head.plan, forward, note, send, recorder, rawQuery, left, idleMs);
  if (left.aborted) return relayed.clientLeft();
  left.addEventListener('abort', relayed.clientLeft, { once: true });
  // Held back only when there is a document body to check; anything else is handed over at once.
  const checkable = head.plan !== null && wantsBody(head.plan, answer.headers);
  if (checkable && !(Number(answer.headers['content-length']) > CHECK_CAP_BYTES)) relayed.holdBack();
  else relayed.handOverAtOnce(checkable);
}

/**
 * One upstream answer on its way to the exit, handed to it once: whole, too large to hold, stalled,
 * broken off, or cut off by the client leaving, whichever comes first.
 */
class RelayedAnswer {
  /** Set once the answer is the exit's (or the client's leaving ended it): nothing here acts on it any more. */
  private handed = false;
  private readonly status: number;

  constructor(
    private readonly answer: IncomingMessage,
    private readonly plan: ResponsePlan | null,
    private readonly forward: Extract<ProxyDecision, { kind: 'forward' }>,
    private readonly note: ProxyNote,
    private readonly send: ProxyExits['send'],
    private readonly recorder: FixtureRecorder | null,
    private readonly rawQuery: string,
    private readonly left: AbortSignal,
    private readonly idleMs: number,
  ) {
    this.status = answer.statusCode!;
  }

  /** The client left first: the upstream's answer is cut off and journaled as abandoned. */
  readonly clientLeft = (): void => {
    if (this.handed) return;
    this.handOff();
    this.answer.destroy();
    this.send(relayedAnswer(this.status, this.forward.operation, this.plan, this.forward.violations, this.note, true));
  };

  /** Handed over with what its head says: a body that is not the document's to check, or one too large to hold, piped as it comes. */
  handOverAtOnce(checkable: boolean): void {
    const { plan, answer } = this;
    if (plan) this.finish(checkable ? checkUpstreamBody(plan, answer.headers, null) : { violations: checkMedia(plan, answer.headers), undeclared: [] }, false);
    this.handOver([], answer);
  }

  /**
   * Held back, the body reaches the client only once whole and checked: an upstream that stops
   * sending it must not hold the client for ever (no byte within `idleMs`: 504, nothing sent yet),
   * and one larger than the cap goes out with what is known, the rest piped unchecked.
   */
  holdBack(): void {
    const { answer, plan, idleMs } = this;
    const chunks: Buffer[] = [];
    let held = 0;
    const stalled = setTimeout(() => {
      if (this.handed) return;
      this.handOff();
      answer.off('data', onData).off('end', onEnd);
      answer.destroy();
      this.failed(504, `the upstream ${this.note.target} sent its answer's head and then nothing for ${idleMs} ms (--proxy-timeout)`, 'timeout');
    }, idleMs);
    answer.once('close', () => clearTimeout(stalled));
    const onData = (chunk: Buffer) => {
      stalled.refresh();
      chunks.push(chunk);
      held += chunk.length;
      if (held <= CHECK_CAP_BYTES) return;
      clearTimeout(stalled);
      answer.off('data', onData).off('end', onEnd);
      answer.pause();
      this.finish(checkUpstreamBody(plan!, answer.headers, null), false);
      this.handOver(chunks, answer);
    };
    const onEnd = () => {
      clearTimeout(stalled);
      if (this.handed) return;
      const body = Buffer.concat(chunks, held);
      this.finish(checkUpstreamBody(plan!, answer.headers, body), true);
      this.handOver([body], null);
    };
    answer.on('data', onData).on('end', onEnd);
    answer.once('error', () => {
      // Once handed over, the exit's pipe says what became of it.
      if (this.handed) return;
      this.handOff();
      clearTimeout(stalled);
      answer.off('end', onEnd);
      this.failed(502, `the upstream ${this.note.target} broke off its answer`, 'bad gateway');
    });
  }

  /** What the body's check found, noted for the journal; --record's fixture written from it. */
  private finish(check: AnswerCheck, whole: boolean): void {
    const { note, plan, forward } = this;
    note.responseViolations.push(...check.violations);
    note.undeclared.push(...check.undeclared);
    if (check.unchecked) note.unchecked = check.unchecked;
    if (this.recorder && forward.operation && plan) recordFixture(this.recorder, forward, this.rawQuery, forward.operation, plan, this.answer, check, whole, note);
  }

  /** To the exit: the upstream's headers with the violations found, the body held so far, and the rest to pipe. */
  private handOver(held: Buffer[], rest: IncomingMessage | null): void {
    this.handOff();
    const { forward, note } = this;
    const headers = clientHeaders(this.answer.headers);
    const header = proxiedViolationsHeader(forward.violations, note.responseViolations);
    if (header !== null) headers['x-mock-violations'] = header;
    this.send(relayedAnswer(this.status, forward.operation, this.plan, forward.violations, note, false), { headers, held, rest, idleMs: this.idleMs });
  }

  /** The stub's own 502 or 504 instead of the upstream's answer. */
  private failed(status: number, detail: string, outcome: string): void {
    this.send(gatewayProblem(status, detail, this.forward.operation, this.forward.violations, { ...this.note, outcome }));
  }

  private handOff(): void {
    this.handed = true;
    this.left.removeEventListener('abort', this.clientLeft);
  }
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

/** `3 violations: request /name: is required; response /water: must be an integer`, at most 1 KiB of visible ASCII; null when there are none. */
export function proxiedViolationsHeader(request: readonly string[], response: readonly string[]): string | null {
  if (request.length + response.length === 0) return null;
  return violationsHeaderText([...request.map((v) => `request ${v}`), ...response.map((v) => `response ${v}`)]);
}
