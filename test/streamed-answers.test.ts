// Streamed answers over HTTP: an SSE stream from a 3.2 `itemSchema`, one from
// a JSON body's `"stream": true` ending with the document's `data: [DONE]`, NDJSON, JSON text
// sequences from an array's items, a documented whole stream replayed (the one Prefer names), a fixture's scripted `events:`, the --stream-max-events bound, the
// journal, and a client that leaves mid-stream. Events are read as they arrive and split at their
// boundaries as an EventSource does; timings are only sanity bounds.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, ConfigError, type RunningStub, type StubOptions } from '../src/index.js';
import { createFetchHandler } from '../src/fetch.js';
import { runCli, startCli } from './helpers/cli.js';

const TICKS_32 = `openapi: 3.2.0
info: {title: Ticks, version: '1'}
paths:
  /ticks:
    get:
      responses:
        '200':
          description: a tick a second
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  event: {type: string, enum: [tick]}
                  data:
                    type: string
                    contentMediaType: application/json
                    contentSchema:
                      type: object
                      required: [n]
                      properties: {n: {type: integer, minimum: 0, maximum: 9}}
  /log:
    get:
      responses:
        '200':
          description: log lines
          content:
            application/x-ndjson:
              itemSchema:
                type: object
                required: [level, message]
                properties:
                  level: {type: string, enum: [info, warn]}
                  message: {type: string}
  /readings:
    get:
      responses:
        '200':
          description: readings, documented as an array of them
          content:
            application/json-seq:
              schema: {type: array, items: {type: object, required: [celsius], properties: {celsius: {type: number}}}}
              examples:
                cold: {value: [{celsius: -3}, {celsius: -4.5}]}
                warm: {value: [{celsius: 21}, {celsius: 22}, {celsius: 23}]}
`;

const CHAT_31 = `openapi: 3.1.0
info: {title: Chat, version: '1'}
paths:
  /chat:
    post:
      operationId: chat
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [prompt]
              properties:
                prompt: {type: string}
                stream: {type: boolean, description: 'If set, partial answers are sent as server-sent events, terminated by a \`data: [DONE]\` message.'}
      responses:
        '200':
          description: the answer, or its chunks
          content:
            application/json:
              schema:
                type: object
                required: [id, text]
                properties: {id: {type: string}, text: {type: string}}
            text/event-stream:
              schema: {$ref: '#/components/schemas/Chunk'}
  /story:
    get:
      responses:
        '200':
          description: a story, word by word
          content:
            text/event-stream:
              schema: {type: object, required: [word], properties: {word: {type: string}}}
              example: "data: {\\"word\\":\\"once\\"}\\n\\ndata: {\\"word\\":\\"upon\\"}\\n\\ndata: {\\"word\\":\\"a time\\"}\\n\\n"
components:
  schemas:
    Chunk:
      type: object
      required: [id, delta]
      additionalProperties: false
      properties:
        id: {type: string, minLength: 1}
        delta: {type: string}
`;

const TYPING = `operation: chat
scenarios:
  typing:
    status: 200
    events:
      - {id: c1, delta: Hel}
      - {data: {id: c1, delta: lo}, delay: 30}
      - {data: {id: c1, delta: '!'}, event: last}
`;

interface Event {
  event?: string;
  data: string;
}

/** A stream read as it arrives: the text, and when its first bytes came. */
async function readStream(url: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; text: string; firstMs: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstMs = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstMs < 0) firstMs = performance.now() - started;
    text += decoder.decode(value, { stream: true });
  }
  return { status: response.status, type: response.headers.get('content-type'), text, firstMs };
}

/** Server-sent events split at blank lines, `data:` lines joined with "\n" (the HTML standard's way). */
function parseSse(text: string): Event[] {
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const event: Event = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('event:')) event.event = line.slice(6).trim();
    }
    event.data = data.join('\n');
    return event;
  });
}

async function withDocument(document: string, options: StubOptions = {}, fixture?: string): Promise<{ stub: RunningStub; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-streams-'));
  await writeFile(join(dir, 'spec.yaml'), document);
  await mkdir(join(dir, 'fixtures'));
  if (fixture !== undefined) await writeFile(join(dir, 'fixtures', 'fixture.yaml'), fixture);
  try {
    const stub = await startStub({ spec: join(dir, 'spec.yaml'), fixtures: join(dir, 'fixtures'), port: 0, watch: false, log: () => {}, warn: () => {}, ...options });
    return { stub, done: async () => {
      await stub.close();
      await rm(dir, { recursive: true, force: true });
    } };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

const CHAT_BODY = (stream?: boolean) => ({ method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ prompt: 'hi', ...(stream === undefined ? {} : { stream }) }) });

describe('a 3.2 document\'s itemSchema', () => {
  let stub: RunningStub;
  let done: () => Promise<void>;
  beforeAll(async () => ({ stub, done } = await withDocument(TICKS_32)));
  afterAll(() => done?.());

  it('answers server-sent events asked for by Accept, each data a JSON value of contentSchema, the first at once', async () => {
    const answer = await readStream(`${stub.url}/ticks`, { headers: { accept: 'text/event-stream' } });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/event-stream');
    // A sanity bound, not a timing assertion: the first event is not held back behind the others.
    expect(answer.firstMs).toBeLessThan(2_000);
    const events = parseSse(answer.text);
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) {
      expect([undefined, 'tick']).toContain(event.event);
      const data = JSON.parse(event.data);
      expect(Number.isInteger(data.n) && data.n >= 0 && data.n <= 9).toBe(true);
    }
    // The document names no terminator, so none is sent.
    expect(answer.text).not.toContain('[DONE]');
  });

  it('answers NDJSON, one JSON object of the itemSchema per line', async () => {
    const answer = await readStream(`${stub.url}/log`);
    expect(answer.type).toBe('application/x-ndjson');
    const lines = answer.text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(['info', 'warn']).toContain(JSON.parse(line).level);
  });

  it('answers JSON text sequences from a documented array\'s items, replaying the example Prefer names', async () => {
    const readings = async (headers: Record<string, string>) => {
      const answer = await readStream(`${stub.url}/readings`, { headers });
      expect(answer.type).toBe('application/json-seq');
      expect(answer.text.startsWith('\u001e')).toBe(true);
      return answer.text.split('\u001e').slice(1).map((record) => JSON.parse(record).celsius);
    };
    expect(await readings({})).toEqual([-3, -4.5]);
    expect(await readings({ prefer: 'example=warm' })).toEqual([21, 22, 23]);
  });

  it('says nothing of itemSchema among the warnings any more', async () => {
    const warnings = await (await fetch(`${stub.url}/__admin/warnings`)).json();
    expect(JSON.stringify(warnings)).not.toContain('itemSchema');
  });
});

describe('a JSON body\'s "stream": true, as LLM APIs take it', () => {
  let stub: RunningStub;
  let done: () => Promise<void>;
  beforeAll(async () => ({ stub, done } = await withDocument(CHAT_31, {}, TYPING)));
  afterAll(() => done?.());

  it('streams chunks of the stream media type\'s schema, then data: [DONE], though Accept says JSON', async () => {
    const answer = await readStream(`${stub.url}/chat`, CHAT_BODY(true));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/event-stream');
    const events = parseSse(answer.text);
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks.length).toBe(5);
    for (const chunk of chunks) expect(Object.keys(chunk).sort()).toEqual(['delta', 'id']);
  });

  it('answers one JSON body without it, or with "stream": false', async () => {
    for (const flag of [undefined, false]) {
      const response = await fetch(`${stub.url}/chat`, CHAT_BODY(flag));
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(await response.json()).sort()).toEqual(['id', 'text']);
    }
  });

  it('replays a documented whole stream event by event', async () => {
    const answer = await readStream(`${stub.url}/story`, { headers: { accept: 'text/event-stream' } });
    expect(parseSse(answer.text).map((event) => JSON.parse(event.data).word)).toEqual(['once', 'upon', 'a time']);
  });

  it('sends a fixture\'s scripted events, with their names and delays, then the terminator', async () => {
    const answer = await readStream(`${stub.url}/chat`, { ...CHAT_BODY(true), headers: { ...CHAT_BODY(true).headers, 'x-mock-scenario': 'typing' } });
    const events = parseSse(answer.text);
    expect(events).toEqual([
      { data: '{"id":"c1","delta":"Hel"}' },
      { data: '{"id":"c1","delta":"lo"}' },
      { event: 'last', data: '{"id":"c1","delta":"!"}' },
      { data: '[DONE]' },
    ]);
  });

  it('journals the events sent', async () => {
    await fetch(`${stub.url}/__admin/requests`, { method: 'DELETE' });
    await readStream(`${stub.url}/chat`, CHAT_BODY(true));
    const [entry] = (await (await fetch(`${stub.url}/__admin/requests`)).json()).requests;
    expect(entry.status).toBe(200);
    expect(parseSse(entry.responseBody).length).toBe(6);
  });
});

describe('the terminator', () => {
  it('is found in any of the request\'s stream properties, as OpenAI names it only in stream_options', async () => {
    const document = CHAT_31.replace('terminated by a \`data: [DONE]\` message.', 'sent as they come.').replace(
      '                stream: {type: boolean,',
      "                stream_options: {anyOf: [{type: object, properties: {include_usage: {type: boolean, description: 'one more chunk before the \`data: [DONE]\` message'}}}, {type: 'null'}]}\n                stream: {type: boolean,",
    );
    expect(document).not.toBe(CHAT_31);
    for (const [text, named] of [[document, true], [CHAT_31.replace('terminated by a \`data: [DONE]\` message.', 'sent as they come.'), false]] as const) {
      const { stub, done } = await withDocument(text);
      try {
        expect((await readStream(`${stub.url}/chat`, CHAT_BODY(true))).text.endsWith('data: [DONE]\n\n')).toBe(named);
      } finally {
        await done();
      }
    }
  });
});

describe('bounds and a client that leaves', () => {
  it('sends at most --stream-max-events events, the terminator aside', async () => {
    const { stub, done } = await withDocument(CHAT_31, { streamMaxEvents: 2 });
    try {
      const events = parseSse((await readStream(`${stub.url}/chat`, CHAT_BODY(true))).text);
      expect(events.map((event) => event.data === '[DONE]')).toEqual([false, false, true]);
    } finally {
      await done();
    }
  });

  it('stops a stream whose client leaves, journals how far it got, and keeps serving', async () => {
    const { stub, done } = await withDocument(CHAT_31, { streamIntervalMs: 300 });
    try {
      const controller = new AbortController();
      const response = await fetch(`${stub.url}/chat`, { ...CHAT_BODY(true), signal: controller.signal });
      const reader = response.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^data: \{/);
      controller.abort();
      await reader.read().catch(() => null);
      // The server noticed and journaled fewer events than planned (polled: it learns of the close soon after).
      let sent = Infinity;
      for (let i = 0; i < 50 && sent === Infinity; i++) {
        const entries = (await (await fetch(`${stub.url}/__admin/requests`)).json()).requests;
        if (entries.length > 0) sent = parseSse(entries[0].responseBody).length;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(sent).toBeLessThan(6);
      const again = await fetch(`${stub.url}/chat`, CHAT_BODY(false));
      expect(again.status).toBe(200);
    } finally {
      await done();
    }
  });
});

describe('a scripted stream is checked at start like a body', () => {
  it('refuses an event its item schema rejects, naming it', async () => {
    const broken = TYPING.replace("{data: {id: c1, delta: lo}, delay: 30}", "{data: {id: c1, delta: 7}}");
    const started = withDocument(CHAT_31, {}, broken);
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/\/scenarios\/typing\/events\/1\/data: .*delta/);
  });

  it('refuses events for a status that documents no stream', async () => {
    const fixture = 'operation: GET /story\nscenarios:\n  wrong:\n    status: 200\n    events: [{word: x}]\n';
    await expect(withDocument(TICKS_32.replace('/log:', '/story:'), {}, fixture)).rejects.toThrow(ConfigError);
    await expect(withDocument(CHAT_31.replace("text/event-stream:\n              schema: {$ref", "application/xml:\n              schema: {$ref"), {}, TYPING)).rejects.toThrow(/documents no stream media type/);
  });
});

describe('the fetch handler', () => {
  it('streams as the server does', async () => {
    const handle = await createFetchHandler({ document: CHAT_31, baseUrl: 'http://chat.test', log: () => {} });
    const response = (await handle(new Request('http://chat.test/chat', CHAT_BODY(true))))!;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.length).toBe(6);
    expect(events.at(-1)!.data).toBe('[DONE]');
    expect(parseSse(handle.requests().at(-1)!.responseBody as string).length).toBe(6);
  });

  it('stops a stream the client cancels, and journals the events it was sent', async () => {
    const handle = await createFetchHandler({ document: CHAT_31, baseUrl: 'http://chat.test', log: () => {}, streamIntervalMs: 300 });
    const response = (await handle(new Request('http://chat.test/chat', CHAT_BODY(true))))!;
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^data: \{/);
    await reader.cancel();
    const [entry] = handle.requests();
    expect(parseSse(entry.responseBody as string).length).toBe(1);
  });
});

describe('the command line', () => {
  it('takes --stream-max-events and --stream-interval, and refuses a bound of 0 naming the flag', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stub-streams-cli-'));
    try {
      await writeFile(join(dir, 'spec.yaml'), CHAT_31);
      const cli = await startCli(['--spec', join(dir, 'spec.yaml'), '--fixtures', join(dir, 'none'), '--port', '0', '--no-watch', '--quiet', '--stream-max-events', '1', '--stream-interval', '0']);
      try {
        const events = parseSse((await readStream(`${cli.url}/chat`, CHAT_BODY(true))).text);
        expect(events.map((event) => event.data === '[DONE]')).toEqual([false, true]);
      } finally {
        await cli.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const refused = await runCli(['--no-watch', '--quiet', '--stream-max-events', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^plant-store-stub: --stream-max-events: /);
  });
});
