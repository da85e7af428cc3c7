// A body over the limit is answered 413, and every kind of client actually reads that answer:
// the stub half-closes and drains the rest instead of resetting a connection with unread bytes.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';

const LIMIT = 1024;
const BIG = 'x'.repeat(2 * 1024 * 1024);
const ANSWER = '{"error":413,"message":"the request body is larger than 1024 bytes"}';

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, maxBodyBytes: LIMIT });
});
afterAll(() => stub.close());

const head = (extra: string) =>
  `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n${extra}\r\n`;

/**
 * Connects, lets `send` write whatever it writes (errors from writing after the answer are
 * ignored, as a real client's would be), and resolves with everything read before the close.
 */
function exchange(send: (socket: net.Socket) => void): Promise<{ text: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = net.connect(stub.port, '127.0.0.1', () => send(socket));
    let text = '';
    let error: string | null = null;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no close within 10 s')));
    socket.on('close', () => resolve({ text, error }));
  });
}

const CLIENTS: Array<[string, (socket: net.Socket) => void]> = [
  ['a client that declares a large Content-Length and sends it all at once', (socket) => {
    socket.write(head(`Content-Length: ${BIG.length}\r\n`) + BIG);
    socket.end();
  }],
  ['a client that keeps sending its body in pieces after the answer arrives', (socket) => {
    socket.write(head(`Content-Length: ${BIG.length}\r\n`));
    let sent = 0;
    const more = () => {
      if (socket.destroyed || sent >= BIG.length) return void socket.end();
      socket.write(BIG.slice(sent, sent + 64 * 1024), () => setImmediate(more));
      sent += 64 * 1024;
    };
    more();
  }],
  ['a chunked client whose body grows past the limit', (socket) => {
    const chunk = 'y'.repeat(16 * 1024);
    const chunks = Array.from({ length: 64 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    socket.write(head('Transfer-Encoding: chunked\r\n') + chunks + '0\r\n\r\n');
    socket.end();
  }],
];

describe('a body over --max-body', () => {
  it.each(CLIENTS)('%s reads the 413 and its body', async (_name, send) => {
    const { text } = await exchange(send);
    expect(text.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.endsWith(ANSWER)).toBe(true);
  });

  it('with Expect: 100-continue, is 413 at once and never invites the body with 100 Continue', async () => {
    const { text } = await exchange((socket) => {
      socket.write(head(`Content-Length: ${BIG.length}\r\nExpect: 100-continue\r\n`));
      // The client waits for an interim answer before sending; the final 413 ends the exchange.
      socket.once('data', () => socket.end());
    });
    expect(text).not.toContain('100 Continue');
    expect(text.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(text.endsWith(ANSWER)).toBe(true);
  });

  it('with Expect: 100-continue under the limit, gets 100 Continue and then the answer', async () => {
    const body = '{"id":1,"name":"Fern"}';
    const { text } = await exchange((socket) => {
      socket.write(head(`Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n`));
      socket.once('data', () => socket.end(body));
    });
    expect(text.startsWith('HTTP/1.1 100 Continue')).toBe(true);
    expect(text).toContain('HTTP/1.1 200 OK');
    expect(text.endsWith('{"name":"Fern"}')).toBe(true);
  });
});
