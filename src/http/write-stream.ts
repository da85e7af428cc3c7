// The node:http adapter's way of sending a streamed answer: the headers at
// once, then each event after its delay, as a real streaming API does, so a client's
// `for await` sees the events arrive one by one. A client that leaves stops the stream.
import type { ServerResponse } from 'node:http';
import { eventDelay, eventText, type StreamBody } from '../common/stream-events.js';

/**
 * Writes `stream` to `res`; `done` runs once, with the text of the events sent, when the last is
 * out or the client has gone (for the journal: what the client got, not what was planned).
 */
export function writeStream(res: ServerResponse, status: number, headers: Record<string, string>, stream: StreamBody, done: (sent: string) => void): void {
  // Chunked, without Content-Length: the length is not known until the last event.
  res.writeHead(status, headers);
  let index = 0;
  let sent = '';
  let timer: NodeJS.Timeout | null = null;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done(sent);
  };
  const next = () => {
    timer = null;
    if (res.destroyed) return finish();
    // Events are small and few (--stream-max-events), so a client that reads slowly only makes
    // Node buffer them; waiting for 'drain' would add nothing.
    const text = eventText(stream.format, stream.event(index));
    res.write(text);
    sent += text;
    index++;
    if (index >= stream.count) {
      finish();
      res.end();
      return;
    }
    timer = setTimeout(next, eventDelay(stream, index));
  };
  // The client left (or the server is closing its sockets): no more timers, and the journal says how far it got.
  res.on('close', () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    finish();
  });
  if (stream.count === 0) {
    finish();
    res.end();
    return;
  }
  const first = eventDelay(stream, 0);
  if (first > 0) timer = setTimeout(next, first);
  else next();
  // Headers go out with the first write; a first event that waits sends them now.
  if (first > 0) res.flushHeaders();
}
