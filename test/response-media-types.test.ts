// How an answer's media type shapes its bytes: text media types carry their text as it is (no JSON
// quotes), JSON media types carry JSON.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Media, version: '1' }
paths:
  /ping:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: string }, example: pong } } }
  /page:
    get:
      responses:
        '200': { description: ok, content: { text/html: { example: '<p>hi</p>' } } }
  /count:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: integer }, example: 42 } } }
  /words:
    get:
      responses:
        '200': { description: ok, content: { text/plain: { schema: { type: string, minLength: 3, maxLength: 3, pattern: '^[a-z]+$' } } } }
  /json-text:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: string }, example: pong } } }
`;

let dir: string;
let stub: RunningStub;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-media-'));
  await writeFile(join(dir, 'media.yaml'), DOCUMENT);
  stub = await startStub({ spec: join(dir, 'media.yaml'), fixtures: join(dir, 'none'), port: 0, watch: false, log: () => {} });
});
afterAll(async () => {
  await stub?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('text media types carry their text', () => {
  it.each([
    { name: 'a text/plain example is sent as its text, without JSON quotes', path: '/ping', type: 'text/plain', text: 'pong' },
    { name: 'a text/html example is sent as written', path: '/page', type: 'text/html', text: '<p>hi</p>' },
    { name: 'a number example of a text/plain answer is its digits', path: '/count', type: 'text/plain', text: '42' },
    { name: 'a JSON string example stays a JSON string', path: '/json-text', type: 'application/json', text: '"pong"' },
  ])('$name', async ({ path, type, text }) => {
    const answer = await request(`${stub.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.text).toBe(text);
  });

  it('generated text for a text/plain string schema is the bare string', async () => {
    const answer = await request(`${stub.url}/words`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain');
    expect(answer.headers.get('x-mock-scenario')).toBe('generated');
    expect(answer.text).toMatch(/^[a-z]{3}$/);
  });
});
