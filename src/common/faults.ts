// The faults a client can ask for (X-Mock-Fault) or a fixture can script, for resilience tests,
// and what each makes of an answer: decided here once, so the node:http server and the fetch
// handler break an answer alike, each adapter only writing the plan its own way.

export const FAULTS = ['reset', 'close', 'timeout', 'malformed'] as const;

export type Fault = (typeof FAULTS)[number];

export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}

/**
 * What a fault makes of an answer: `drop` the connection with no answer (reset); `hold` it,
 * answering nothing until the client gives up (timeout); `breakOff` after the head and `sent`, the
 * first half of the body, the head promising `promisedBytes` (close); or send `body`, the answer's
 * JSON with its last character replaced by a comma, whole (malformed).
 */
export type FaultPlan =
  | { kind: 'drop' }
  | { kind: 'hold' }
  | { kind: 'breakOff'; sent: string; promisedBytes: number }
  | { kind: 'broken'; body: string };

export function planFault(fault: Fault, body: string): FaultPlan {
  switch (fault) {
    case 'reset':
      return { kind: 'drop' };
    case 'timeout':
      return { kind: 'hold' };
    case 'close':
      // More bytes than the body holds are promised, so a client sees a body cut short, not a short body.
      return { kind: 'breakOff', sent: body.slice(0, Math.ceil(body.length / 2)), promisedBytes: new TextEncoder().encode(body).length + 64 };
    case 'malformed':
      return { kind: 'broken', body: body.slice(0, Math.max(1, body.length - 1)) + ',' };
  }
}
