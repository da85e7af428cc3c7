// Reads the headers a client uses to steer the stub (X-Mock-Scenario, Prefer, X-Mock-Delay,
// X-Mock-Fault) into one plain value, so the selection stage never touches raw headers.
import { fail, SELECTION_ERROR_STATUS, type Failure } from './failure.js';
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

  // A header that is there but blank is a mistake to report, not a request for the default answer.
  if (scenario !== undefined && scenario.trim() === '') return selectionError('X-Mock-Scenario is empty; name a scenario (GET /__admin/scenarios lists them)');
  const selection: Selection = { ...NONE, scenario: scenario?.trim() ?? null };
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
    // name=token or name="quoted string"; a comma or semicolon inside quotes belongs to the value.
    for (const [, name, quoted, token] of line.matchAll(/([^\s=,;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,;]*))/g)) {
      yield [name.toLowerCase(), quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : token.trim()];
    }
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function selectionError(message: string): Failure {
  return fail(SELECTION_ERROR_STATUS, message, { fromStub: true });
}
