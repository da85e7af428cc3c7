// Reads the headers a client uses to steer the stub (X-Mock-Scenario, Prefer, X-Mock-Delay,
// X-Mock-Fault) into one plain value, so the selection stage never touches raw headers. Prism's
// query selectors (`?__code=404`, `?__example=cat`, `?__dynamic=true`) are aliases of the Prefer
// preferences of the same names, so clients written against Prism work unchanged; where both are
// sent, the Prefer header wins.
import type { Refusal, Selection } from './engine-types.js';
import { selectionRefusals } from './refusals.js';
import { FAULTS, isFault } from '../common/faults.js';
import type { PlainRequest } from '../common/plain-http.js';
import { MAX_DELAY_MS } from '../common/delay-spread.js';

export { MAX_DELAY_MS };

const NONE: Selection = { scenario: null, code: null, example: null, dynamic: null, delayMs: null, fault: null };

/** Prism's query selectors and the Prefer preference each one stands for. */
const QUERY_SELECTORS = [['__code', 'code'], ['__example', 'example'], ['__dynamic', 'dynamic']] as const;

export function readSelection(request: PlainRequest, query: URLSearchParams): Selection | Refusal {
  const { headers } = request;
  const scenario = single(headers['x-mock-scenario']);
  const prefer = headers.prefer;
  const delay = single(headers['x-mock-delay']);
  const fault = single(headers['x-mock-fault']);
  const selectors = request.rawQuery.includes('__') ? querySelectors(query) : [];
  if (scenario === undefined && prefer === undefined && delay === undefined && fault === undefined && selectors.length === 0) return NONE;

  // A header that is there but blank is a mistake to report, not a request for the default answer.
  if (scenario !== undefined && scenario.trim() === '') return selectionRefusals.emptyScenarioHeader();
  const selection: Selection = { ...NONE, scenario: scenario?.trim() ?? null };
  const preferred = [...preferences(prefer)];
  // A query selector counts only where the Prefer header did not say the same thing.
  const asked = [...preferred, ...selectors.filter(([name]) => !preferred.some(([given]) => given === name))];
  for (const [name, value] of asked) {
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(value)) return selectionRefusals.notAStatusCode(value);
      selection.code = Number(value);
    } else if (name === 'example') selection.example = value;
    else if (name === 'dynamic') selection.dynamic = value === 'true';
  }
  if (delay !== undefined) {
    // Digits only: Number() would also read `1e3`, `0x10` and `+5` as delays.
    const ms = /^\d+$/.test(delay.trim()) ? Number(delay.trim()) : NaN;
    if (Number.isNaN(ms) || ms > MAX_DELAY_MS) {
      return selectionRefusals.badDelay(delay, MAX_DELAY_MS);
    }
    selection.delayMs = ms;
  }
  if (fault !== undefined) {
    const name = fault.trim().toLowerCase();
    if (!isFault(name)) return selectionRefusals.badFault(fault, FAULTS);
    selection.fault = name;
  }
  return selection;
}

/**
 * `Prefer: code=400, example="dup"` -> [['code','400'], ['example','dup']] (RFC 7240 preferences).
 * One pass over the header, so its cost is linear in its length whatever a client sends (a
 * backtracking regular expression took 320 ms on 16 KB without an `=`).
 */
function* preferences(header: string | string[] | undefined): Generator<[string, string]> {
  if (header === undefined) return;
  for (const line of Array.isArray(header) ? header : [header]) {
    let at = 0;
    while (at < line.length) {
      const nameEnd = nextOf(line, at, '=,;');
      // The name is the last word before `=` (`respond-async, wait=5` has two preferences).
      const name = line.slice(at, nameEnd).trim().split(/\s+/).pop() ?? '';
      at = nameEnd;
      if (line[at] !== '=') {
        at++;
        continue;
      }
      const { value, end } = readValue(line, at + 1);
      if (name !== '') yield [name.toLowerCase(), value];
      at = end + 1;
    }
  }
}

/** A token, or a quoted string with `\` escapes (a `,` or `;` inside quotes belongs to the value), and where it ends. */
function readValue(line: string, from: number): { value: string; end: number } {
  let at = from;
  while (line[at] === ' ' || line[at] === '\t') at++;
  if (line[at] !== '"') {
    const end = nextOf(line, at, ',;');
    return { value: line.slice(at, end).trim(), end };
  }
  let value = '';
  at++;
  while (at < line.length && line[at] !== '"') {
    if (line[at] === '\\' && at + 1 < line.length) at++;
    value += line[at++];
  }
  return { value, end: nextOf(line, at + 1, ',;') };
}

/** The index of the first of `stops` at or after `from`, else the length. */
function nextOf(line: string, from: number, stops: string): number {
  let at = from;
  while (at < line.length && !stops.includes(line[at])) at++;
  return at;
}

/** `?__code=404&__example=cat` -> [['code','404'], ['example','cat']]. */
function querySelectors(query: URLSearchParams): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [parameter, preference] of QUERY_SELECTORS) {
    const value = query.get(parameter);
    if (value !== null) found.push([preference, value.trim()]);
  }
  return found;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
