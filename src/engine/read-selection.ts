// Reads the headers a client uses to steer the stub (X-Mock-Scenario, Prefer, X-Mock-Delay,
// X-Mock-Fault) into one plain value, so the selection stage never touches raw headers.
import { refuse, SELECTION_ERROR_STATUS, type Refusal } from './refusal.js';
import { FAULTS, isFault, type Fault } from '../shared/faults.js';
import type { StubRequest } from '../shared/plain-http.js';

export const MAX_DELAY_MS = 60_000;

export interface Selection {
  scenario: string | null;
  /** Prefer: code=N */
  code: number | null;
  /** Prefer: example=NAME */
  example: string | null;
  /** Prefer: dynamic=true */
  dynamic: boolean;
  delayMs: number | null;
  fault: Fault | null;
}

const NONE: Selection = { scenario: null, code: null, example: null, dynamic: false, delayMs: null, fault: null };

export function readSelection(request: StubRequest): Selection | Refusal {
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
    if (!isFault(name)) return selectionError(`X-Mock-Fault must be one of ${FAULTS.join(', ')}, got "${fault}"`);
    selection.fault = name;
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

function selectionError(message: string): Refusal {
  return refuse(SELECTION_ERROR_STATUS, message, { fromStub: true });
}
