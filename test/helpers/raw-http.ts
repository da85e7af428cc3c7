// One raw HTTP request over a socket, for cases a client library would not send as written
// (duplicate or odd Host lines, absolute-form targets, HTTP/1.0 without Host).
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** The head (status line and headers), lower-cased. */
  headers: string;
  body: string;
}

/**
 * Writes `text` (which should ask for `Connection: close`) and resolves with the answer once the
 * server closes. The socket is not half-closed: like curl, the client waits with its side open.
 */
export function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('close', () => {
      const [head, body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
  });
}
