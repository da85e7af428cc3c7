// The faults a client can ask for (X-Mock-Fault) or a fixture can script, for resilience tests.

export const FAULTS = ['reset', 'close', 'timeout', 'malformed'] as const;

export type Fault = (typeof FAULTS)[number];

export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}
