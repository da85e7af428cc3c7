// Sends webhooks and callbacks, never on the client's time: deliveries wait in a bounded queue,
// go out a few at a time, are retried with backoff on connection errors and 5xx, and each one's
// outcome (target, status, duration, error, attempts) is kept for GET /__admin/webhooks. What the
// policy refuses (delivery-policy.ts) is recorded with the reason and never sent.
import type { Delivery } from '../engine/plan-deliveries.js';
import { DeliveryPolicy, type DeliveryPolicyOptions } from './delivery-policy.js';

/** Deliveries waiting at once; beyond this a new one is dropped (and recorded as dropped). */
export const MAX_QUEUED = 1_000;
/** Sent at the same time. */
const CONCURRENCY = 8;
/** Tries per delivery: the first and up to 3 retries, 250 ms, 500 ms, then 1 s apart. */
export const MAX_ATTEMPTS = 4;
const FIRST_BACKOFF_MS = 250;
/** How long one try may take before it counts as a connection error. */
const TIMEOUT_MS = 5_000;
/** Outcomes kept, newest last. */
const KEPT = 100;
/**
 * The most of a receiver's answer that is read: only its status is recorded, and a receiver that
 * streams without end must not grow the stub's memory. Reading a little lets a short answer end
 * normally, so its connection is reused; beyond this the connection is closed.
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface DeliveryOutcome {
  kind: Delivery['kind'];
  name: string;
  target: string | null;
  /** The receiver's status for the last try; null when none answered. */
  status: number | null;
  durationMs: number;
  attempts: number;
  error?: string;
  time: string;
}

export class Outbound {
  private readonly targets = new Map<string, string>();
  private readonly queue: Delivery[] = [];
  private sending = 0;
  private readonly outcomes: DeliveryOutcome[] = [];
  private readonly outcomeListeners: Array<(outcome: DeliveryOutcome) => void> = [];
  private closed = false;
  private readonly policy: DeliveryPolicy;

  constructor(private readonly warn: (line: string) => void, policy: DeliveryPolicyOptions = { callbackHosts: null, loopbackOnly: true }) {
    this.policy = new DeliveryPolicy(policy);
  }

  /** Registers (or, with null, removes) the URL a webhook is sent to. */
  setTarget(name: string, url: string | null): void {
    if (url === null) this.targets.delete(name);
    else this.targets.set(name, url);
  }

  targetOf(name: string): string | null {
    return this.targets.get(name) ?? null;
  }

  /** Hears of each delivery's outcome as it is kept (the metrics). */
  onOutcome(listener: (outcome: DeliveryOutcome) => void): void {
    this.outcomeListeners.push(listener);
  }

  /** Deliveries waiting or being sent. */
  get depth(): number {
    return this.queue.length + this.sending;
  }

  /** The last deliveries' outcomes, oldest first. */
  recent(): DeliveryOutcome[] {
    return [...this.outcomes];
  }

  /** Queues deliveries; returns at once. */
  send(deliveries: readonly Delivery[]): void {
    for (const delivery of deliveries) {
      if (this.closed) return;
      if (this.queue.length >= MAX_QUEUED) {
        this.keep(delivery, this.targetFor(delivery), { status: null, durationMs: 0, attempts: 0, error: `dropped: ${MAX_QUEUED} deliveries were already waiting` });
        continue;
      }
      this.queue.push(delivery);
    }
    this.pump();
  }

  /** Stops taking deliveries (shutdown); those under way finish or fail on their own. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private targetFor(delivery: Delivery): string | null {
    return delivery.url ?? this.targets.get(delivery.name) ?? null;
  }

  private pump(): void {
    while (this.sending < CONCURRENCY && this.queue.length > 0) {
      const delivery = this.queue.shift()!;
      this.sending++;
      void this.deliver(delivery).finally(() => {
        this.sending--;
        this.pump();
      });
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const target = this.targetFor(delivery);
    const started = performance.now();
    if (target === null) {
      return this.keep(delivery, null, { status: null, durationMs: 0, attempts: 0, error: `no target registered for webhook "${delivery.name}" (--webhook NAME=URL or PUT /__admin/webhooks/NAME)` });
    }
    const refused = this.policy.refusal(delivery, target, this.targets.values());
    if (refused !== null) {
      this.keep(delivery, target, { status: null, durationMs: 0, attempts: 0, error: refused });
      return this.warn(`${delivery.kind} ${delivery.name} to ${target} ${refused}`);
    }
    let status: number | null = null;
    let error: string | undefined;
    let attempts = 0;
    while (attempts < MAX_ATTEMPTS) {
      attempts++;
      try {
        const response = await fetch(target, { method: delivery.method, headers: delivery.headers, body: delivery.body === '' ? undefined : delivery.body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
        await readAtMost(response, MAX_ANSWER_BYTES).catch(() => undefined);
        status = response.status;
        error = status >= 500 ? `the receiver answered ${status}` : undefined;
        if (status < 500) break;
      } catch (failure) {
        status = null;
        error = describe(failure);
      }
      if (attempts < MAX_ATTEMPTS && !this.closed) await new Promise((resolve) => setTimeout(resolve, FIRST_BACKOFF_MS * 2 ** (attempts - 1)).unref());
    }
    this.keep(delivery, target, { status, durationMs: Math.round((performance.now() - started) * 10) / 10, attempts, error });
    if (error !== undefined) this.warn(`${delivery.kind} ${delivery.name} to ${target} failed after ${attempts} tries: ${error}`);
  }

  private keep(delivery: Delivery, target: string | null, outcome: Omit<DeliveryOutcome, 'kind' | 'name' | 'target' | 'time'>): void {
    const kept: DeliveryOutcome = { kind: delivery.kind, name: delivery.name, target, ...outcome, time: new Date().toISOString() };
    if (kept.error === undefined) delete kept.error;
    this.outcomes.push(kept);
    if (this.outcomes.length > KEPT) this.outcomes.shift();
    for (const listener of this.outcomeListeners) listener(kept);
  }
}

/** Reads the answer's body to its end when it is short (the connection is then reused), else closes it. */
async function readAtMost(response: Response, limit: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  for (let read = 0; read <= limit; ) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  await reader.cancel();
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${TIMEOUT_MS} ms`;
  return cause?.code ?? (error as Error).message ?? String(error);
}
