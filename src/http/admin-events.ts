// GET /__admin/events: the journal live, as server-sent events, for the admin page.
import type { Request, Response } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import { stringifyExact } from '../common/exact-json.js';
import type { JournalEntry } from '../record/journal.js';

/** How often an idle event stream gets a comment line, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 15_000;
/**
 * How far behind an event stream's reader may fall (bytes written but not yet taken by its
 * socket) before it is dropped: what it has not read would otherwise be held for it without bound
 * (200 readers that never read held 600 MB). A page that keeps up is never that far behind, and
 * a page's EventSource reconnects by itself.
 */
export const MAX_EVENTS_BEHIND_BYTES = 256 * 1024;

/**
 * Server-sent events: one `request` event per journaled request, as the journal lists it
 * (credentials redacted, numbers exact). Ends when the client leaves, falls too far behind, or
 * the stub shuts down.
 */
export function streamJournal(stub: StubAdmin, req: Request, res: Response): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': journal stream\n\n');
  const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const unsubscribe = stub.watchJournal({
    entry: (entry) => {
      if (res.destroyed) return;
      if (res.writableLength > MAX_EVENTS_BEHIND_BYTES) return void res.destroy();
      res.write(eventText(entry));
    },
    end: () => res.end(),
  });
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}

/** The last entry's event, written once for every open stream (each gets the same entry object). */
let lastEvent: { entry: JournalEntry; text: string } | null = null;

function eventText(entry: JournalEntry): string {
  if (lastEvent?.entry !== entry) lastEvent = { entry, text: `event: request\ndata: ${stringifyExact(entry, true)}\n\n` };
  return lastEvent.text;
}
