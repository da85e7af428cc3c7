// GET /__admin/events: each answered request reaches an open stream as one `request` event, the
// entry as the journal lists it (credentials redacted).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { JSON_HEADERS } from './helpers/plant.js';

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ port: 0, watch: false, log: () => {} });
});
afterAll(() => stub.close());

/** Reads on until what arrived holds `wanted` (or the stream ends); returns all that arrived. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, sofar: string, wanted: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = sofar;
  while (!text.includes(wanted)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

it('sends each answered request to an open stream as a request event with its journal entry', async () => {
  const stream = await fetch(`${stub.url}/__admin/events`, { signal: AbortSignal.timeout(10_000) });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toBe('text/event-stream');
  const reader = stream.body!.getReader();
  // The server subscribes before it writes the stream's first comment line.
  const opened = await readUntil(reader, '', ': journal stream');
  const answer = await fetch(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer hush' }, body: '{"id":3,"name":"Ivy"}' });
  expect(answer.status).toBe(200);
  const text = await readUntil(reader, opened, 'event: request\n');
  await reader.cancel();
  const data = /event: request\ndata: (.*)\n\n/.exec(text)?.[1];
  expect(JSON.parse(data!)).toMatchObject({
    method: 'POST', path: '/plants', status: 200, scenario: 'echo', body: { id: 3, name: 'Ivy' }, headers: { authorization: 'Bearer [redacted]' },
  });
});
