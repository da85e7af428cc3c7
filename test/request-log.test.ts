// The request log, as text and as JSON lines: what happened to each request, faults and abandoned
// answers named instead of a status never sent, and client text escaped so it cannot forge lines.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { formatRequestJson, formatRequestLine } from '../src/record/request-log.js';
import { createPlant } from './helpers/plant.js';

const PLANT = '{"id":1,"name":"Fern"}';

/** Sends a request and waits until the stub has logged it, whatever happened to the connection. */
async function logged(lines: string[], send: () => Promise<unknown>): Promise<string> {
  const before = lines.length;
  await send().catch(() => undefined);
  for (let waited = 0; lines.length === before && waited < 3_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  return lines[lines.length - 1];
}

/** A client that leaves 50 ms into a delayed answer. */
function leaveEarly(stub: RunningStub): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(stub.port, '127.0.0.1', () => {
      socket.write(`POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nX-Mock-Delay: 2000\r\nContent-Length: ${PLANT.length}\r\n\r\n${PLANT}`);
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on('close', () => resolve());
    socket.on('error', () => {});
  });
}

describe.each([['text'], ['json']] as const)('the %s request log', (format) => {
  let stub: RunningStub;
  const lines: string[] = [];
  beforeAll(async () => {
    stub = await startStub({ port: 0, watch: false, logFormat: format, log: (line) => lines.push(line) });
  });
  afterAll(() => stub.close());

  const cases: Array<{ name: string; send: () => Promise<unknown>; text: RegExp; json: Record<string, unknown> }> = [
    { name: 'an echoed plant', send: () => createPlant(stub.url, PLANT),
      text: /^POST \/plants 200 \d+\.\dms$/, json: { method: 'POST', path: '/plants', status: 200, scenario: 'echo', violations: [] } },
    { name: 'a scenario', send: () => createPlant(stub.url, PLANT, { 'x-mock-scenario': 'duplicate-id' }),
      text: /^POST \/plants 400 \d+\.\dms \[duplicate-id\]$/, json: { status: 400, scenario: 'duplicate-id' } },
    { name: 'an invalid body, with its violations', send: () => createPlant(stub.url, '{"tag":5}'),
      text: /^POST \/plants 400 \d+\.\dms \/name: is required; \/tag: must be a string; \/id: is required$/,
      json: { status: 400, scenario: null, refusal: 'invalid', violations: ['/name: is required', '/tag: must be a string', '/id: is required'] } },
    ...(['reset', 'close', 'malformed'] as const).map((fault) => ({
      name: `a ${fault} fault, named instead of the status it never sent`, send: () => createPlant(stub.url, PLANT, { 'x-mock-fault': fault }),
      text: new RegExp(`^POST /plants fault:${fault} \\d+\\.\\dms$`), json: { status: 200, fault },
    })),
    { name: 'an answer abandoned by its client', send: () => leaveEarly(stub),
      text: /^POST \/plants abandoned \d+\.\dms$/, json: { status: 200, abandoned: true } },
    { name: 'C1 control characters from the client, escaped', send: () => createPlant(stub.url, PLANT, { prefer: 'example=a\x85b\x9bc' }),
      text: /^POST \/plants 422 \d+\.\dms unknown example "a\\x85b\\x9bc" for POST \/plants/, json: { status: 422, refusal: 'unknownExample' } },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, { send, text, json }) => {
    const line = await logged(lines, send);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/);
    if (format === 'text') expect(line).toMatch(text);
    else {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(record).toMatchObject(json);
      expect(record).toEqual(expect.objectContaining({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), ms: expect.any(Number) }));
    }
  });
});

describe('log line escaping beyond what HTTP headers can carry', () => {
  const request = { method: 'GET', path: '/a\u2028b\u2029c\u0085d', rawQuery: '', headers: {}, body: Buffer.alloc(0) };
  const response = { status: 404, headers: {}, body: '', scenario: null, violations: ['line\u2028break'], selfCheck: [], delayMs: 0, operation: null, documented: null, ownAnswer: true };

  it('escapes the Unicode line and paragraph separators and C1 controls in text lines', () => {
    expect(formatRequestLine(request, response, 1)).toBe('GET /a\\u2028b\\u2029c\\x85d 404 1.0ms line\\u2028break');
  });

  it('escapes them in JSON lines too, and the record still parses to the same text', () => {
    const line = formatRequestJson(request, response, 1);
    expect(line).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(JSON.parse(line)).toMatchObject({ path: '/a\u2028b\u2029c\u0085d', violations: ['line\u2028break'] });
  });
});
