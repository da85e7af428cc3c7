// Slow readers of GET /__admin/events: a reader that stops reading while
// requests keep coming is dropped once it is too far behind, instead of the stub holding
// everything it has not read; a reader that keeps up gets every event, and one that reconnects
// is followed again. The stub runs as its own process, so the test's readers are real clients.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';

/** Requests whose journal entries carry a 16 KB body (the journal's cap): some 16 MB of events. */
const REQUESTS = 1_000;
const STALLED = 5;
const BODY = 'x'.repeat(16 * 1024);

/** A reader that reads its stream's opening, then nothing until `resume`; counts the events it got. */
class StalledReader {
  private readonly socket: net.Socket;
  private text = '';
  readonly closed: Promise<void>;
  /** Resolves once the stream is open (the stub follows the journal for it from then on). */
  readonly opened: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('error', () => {}); // a dropped reader may see a reset; 'close' follows
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
    this.opened = new Promise((resolve) => {
      let open = false;
      this.socket.setEncoding('utf8').on('data', (chunk: string) => {
        this.text += chunk;
        if (open || !this.text.includes(': journal stream')) return;
        open = true;
        this.socket.pause();
        resolve();
      });
    });
    this.socket.write('GET /__admin/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  }

  /** Reads everything that was held for it, to the end of the stream. */
  resume(): void {
    this.socket.resume();
  }

  events(): number {
    return this.text.split('event: request\n').length - 1;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Counts the events of a stream it reads as they come. */
async function follow(url: string, signal: AbortSignal): Promise<{ events: () => number; done: Promise<void> }> {
  const response = await fetch(`${url}/__admin/events`, { signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let count = 0;
  const done = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (ended) return;
      text += decoder.decode(value, { stream: true });
      const parts = text.split('event: request\n');
      count += parts.length - 1;
      text = parts.at(-1)!;
    }
  })();
  return { events: () => count, done };
}

/** Sends `count` requests, `lanes` at a time, each with a 16 KB body the journal keeps. */
async function load(url: string, count: number, lanes = 8): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < count) {
      next++;
      statuses.push((await request(`${url}/plants`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: BODY })).status);
    }
  }));
  return statuses;
}

describe('readers of /__admin/events that stop reading', () => {
  let cli: StartedCli;

  beforeAll(async () => {
    cli = await startCli(['--port', '0', '--quiet', '--no-watch'], { timeoutMs: 20_000 });
  }, 25_000);

  afterAll(async () => {
    await cli?.stop('SIGKILL');
  });

  it('are dropped once too far behind, while a reader that keeps up gets every event and a new one is followed again', async () => {
    const stalled = Array.from({ length: STALLED }, () => new StalledReader(cli.port));
    const abort = new AbortController();
    try {
      const keeping = await follow(cli.url, abort.signal);
      await Promise.all(stalled.map((reader) => reader.opened));
      const statuses = await load(cli.url, REQUESTS);
      expect(statuses.filter((status) => status !== 401)).toEqual([]);
      for (const reader of stalled) reader.resume();
      // Each stalled reader's stream ends (it was dropped); on a stub that holds everything the
      // streams stay open, and the test times out here.
      await Promise.all(stalled.map((reader) => reader.closed));
      for (const reader of stalled) expect(reader.events()).toBeLessThan(REQUESTS);

      const again = await follow(cli.url, abort.signal);
      expect(await load(cli.url, 3)).toEqual([401, 401, 401]);
      for (let i = 0; i < 100 && (again.events() < 3 || keeping.events() < REQUESTS + 3); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(again.events()).toBe(3);
      expect(keeping.events()).toBe(REQUESTS + 3);
    } finally {
      abort.abort();
      for (const reader of stalled) reader.destroy();
    }
  }, 60_000);
});
