// Reads the headers a client uses to steer the stub (X-Mock-Scenario, Prefer, X-Mock-Delay,
// X-Mock-Fault) into one plain value, so the selection stage never touches raw headers.
import { fail, SELECTION_ERROR, type Failure } from './failure.js';
import type { StubRequest, StubResponse } from './types.js';

export const MAX_DELAY_MS = 60_000;
const FAULTS = new Set(['reset', 'close', 'timeout', 'malformed']);

export interface Selection {
  scenario: string | null;
  /** Prefer: code=N */
  code: number | null;
  /** Prefer: example=NAME */
  example: string | null;
  /** Prefer: dynamic=true */
  dynamic: boolean;
  delayMs: number | null;
  fault: StubResponse['fault'] | null;
}

const NONE: Selection = { scenario: null, code: null, example: null, dynamic: false, delayMs: null, fault: null };

export function readSelection(request: StubRequest): Selection | Failure {
  const { headers } = request;
  const scenario = single(headers['x-mock-scenario']);
  const prefer = headers.prefer;
  const delay = single(headers['x-mock-delay']);
  const fault = single(headers['x-mock-fault']);
  if (scenario === undefined && prefer === undefined && delay === undefined && fault === undefined) return NONE;

  const selection: Selection = { ...NONE, scenario: scenario?.trim() || null };
  for (const [name, value] of preferences(prefer)) {
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(value)) return selectionError(`Prefer: code=${value} is not an HTTP status code`);
      selection.code = Number(value);
    } else if (name === 'example') selection.example = value;
    else if (name === 'dynamic') selection.dynamic = value === 'true';
  }
  if (delay !== undefined) {
    // Digits only: Number() would also read `1e3`, `0x10` and `+5` as delays.
    const ms = /^\d+$/.test(delay.trim()) ? Number(delay.trim()) : NaN;
    if (Number.isNaN(ms) || ms > MAX_DELAY_MS) {
      return selectionError(`X-Mock-Delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, got "${delay}"`);
    }
    selection.delayMs = ms;
  }
  if (fault !== undefined) {
    const name = fault.trim().toLowerCase();
    if (!FAULTS.has(name)) return selectionError(`X-Mock-Fault must be one of ${[...FAULTS].join(', ')}, got "${fault}"`);
    selection.fault = name as Selection['fault'];
  }
  return selection;
}

/** `Prefer: code=400, example="dup"` -> [['code','400'], ['example','dup']] (RFC 7240 preferences). */
function* preferences(header: string | string[] | undefined): Generator<[string, string]> {
  if (header === undefined) return;
  for (const line of Array.isArray(header) ? header : [header]) {
    for (const part of line.split(/[,;]/)) {
      const eq = part.indexOf('=');
      if (eq === -1) continue;
      yield [part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')];
    }
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function selectionError(message: string): Failure {
  return fail(SELECTION_ERROR, message, { fromStub: true });
}
