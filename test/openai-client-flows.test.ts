// OpenAI's official npm client pointed at the stub serving OpenAI's own public document
// (../shared/realworld/sdk/, read from there, never copied; skipped with one line when absent), as
// a team building on an LLM API does: list and retrieve models, a chat completion plain and
// streamed (`for await (const chunk of stream)`, ended by the document's `data: [DONE]`), the
// files list paged with `for await`, and, in stateful mode, a file uploaded, read, deleted and then
// missing with the client's own NotFoundError; and a fixture's scripted stream, chunk by chunk.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';

const OPENAI_DOCUMENT = join(import.meta.dirname, '..', '..', 'shared', 'realworld', 'sdk', 'openai-3.1.yaml');
const present = existsSync(OPENAI_DOCUMENT);
if (!present) console.log(`openai client flows: ${OPENAI_DOCUMENT} is absent, so they are not tried`);

const MESSAGES = [{ role: 'user' as const, content: 'Hello!' }];
/** A bound on `for await` over pages: a list that never ends fails the test instead of hanging it. */
const MOST_ITEMS = 500;

/** Stateful mode starts with the list examples' items and two generated ones per resource, so its lists are not empty. */
async function started(stateful: boolean, fixtures = join(import.meta.dirname, 'specs', 'no-fixtures')): Promise<{ stub: RunningStub; openai: OpenAI }> {
  const stub = await startStub({ spec: OPENAI_DOCUMENT, fixtures, port: 0, watch: false, log: () => {}, warn: () => {}, stateful, seedItems: stateful ? 2 : 0 });
  const openai = new OpenAI({ apiKey: 'sk-test-stub', baseURL: `${stub.url}/v1`, maxRetries: 0 });
  return { stub, openai };
}

for (const stateful of [false, true]) {
  describe.skipIf(!present)(`the openai client against the stub on OpenAI's document (${stateful ? 'stateful' : 'stateless'})`, () => {
    let stub: RunningStub;
    let openai: OpenAI;
    beforeAll(async () => ({ stub, openai } = await started(stateful)), 120_000);
    afterAll(async () => {
      await stub?.close();
    });

    it('lists models with for await, and retrieves one by its id', async () => {
      const ids: string[] = [];
      for await (const model of openai.models.list()) {
        ids.push(model.id);
        if (ids.length > MOST_ITEMS) break;
      }
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThanOrEqual(MOST_ITEMS);
      for (const id of ids) expect(id).not.toBe('');
      expect((await openai.models.retrieve(ids[0])).id).toBe(ids[0]);
      // Stateless, any id is a model, answered with the id asked for.
      if (!stateful) expect((await openai.models.retrieve('gpt-4o')).id).toBe('gpt-4o');
    });

    it('creates a chat completion', async () => {
      const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
      expect(Array.isArray(completion.choices)).toBe(true);
      expect(typeof completion.id).toBe('string');
    });

    it('streams a chat completion: for await yields the chunks, and the stream ends', async () => {
      const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: MESSAGES, stream: true });
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(0);
      for (const chunk of chunks) {
        expect(chunk.object).toBe('chat.completion.chunk');
        expect(Array.isArray(chunk.choices)).toBe(true);
      }
      // The client stopped at the document's terminator, which is what the stream ends with.
      const raw = await fetch(`${stub.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-test-stub', 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: MESSAGES, stream: true }),
      });
      expect(raw.headers.get('content-type')).toBe('text/event-stream');
      expect(await raw.text()).toMatch(/\n\ndata: \[DONE\]\n\n$/);
    });

    it('pages through the files list with for await, and the pages end', async () => {
      let count = 0;
      for await (const file of openai.files.list({ limit: 2 })) {
        expect(file.id).not.toBe('');
        if (++count > MOST_ITEMS) break;
      }
      expect(count).toBeLessThanOrEqual(MOST_ITEMS);
    });
  });
}

describe.skipIf(!present)('the openai client on a file that is gone (stateful)', () => {
  let stub: RunningStub;
  let openai: OpenAI;
  beforeAll(async () => ({ stub, openai } = await started(true)), 120_000);
  afterAll(async () => {
    await stub?.close();
  });

  it('uploads a file, reads it back, deletes it, and then gets the client\'s own NotFoundError', async () => {
    const created = await openai.files.create({ file: await toFile(Buffer.from('{"prompt": "hi"}\n'), 'train.jsonl'), purpose: 'fine-tune' });
    expect(created.id).not.toBe('');
    expect((await openai.files.retrieve(created.id)).id).toBe(created.id);
    expect((await openai.files.delete(created.id)).id).toBe(created.id);
    const error = await openai.files.retrieve(created.id).then(() => null, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

/** docs/streams.md's scripted stream: two chunks, the second 300 ms after the first. */
const TYPING = `operation: createChatCompletion
scenarios:
  typing:
    status: 200
    events:
      - {id: chatcmpl-1, object: chat.completion.chunk, created: 1, model: m, choices: [{index: 0, delta: {content: Hel}, finish_reason: null}]}
      - data: {id: chatcmpl-1, object: chat.completion.chunk, created: 1, model: m, choices: [{index: 0, delta: {content: lo}, finish_reason: stop}]}
        delay: 300
`;

describe.skipIf(!present)('the openai client on a scripted stream', () => {
  let stub: RunningStub;
  let openai: OpenAI;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-openai-'));
    await writeFile(join(dir, 'chat.yaml'), TYPING);
    ({ stub, openai } = await started(false, dir));
  }, 120_000);
  afterAll(async () => {
    await stub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('yields the fixture\'s chunks, in order, and nothing else', async () => {
    const stream = await openai.chat.completions.create({ model: 'm', messages: MESSAGES, stream: true }, { headers: { 'X-Mock-Scenario': 'typing' } });
    const text: string[] = [];
    for await (const chunk of stream) text.push(chunk.choices[0].delta.content ?? '');
    expect(text).toEqual(['Hel', 'lo']);
  });
});
