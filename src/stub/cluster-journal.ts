// --workers N: the journal of the whole server is every worker's, merged by the primary. A page
// of it (GET /__admin/requests?limit&offset) needs from each worker only its newest
// offset + limit entries: the whole server's newest ones are among them.
import { stringifyExact } from '../common/exact-json.js';
import { listingText, pageBounds, type JournalFilter, type JournalPage } from '../record/journal.js';

/** A worker's part: how many entries its filter keeps, and the ones sent as [time, JSON text]. */
export interface JournalPart {
  total: number;
  entries: Array<[string, string]>;
}

/** What the primary asks each worker for: the same filter, its page widened to start at the newest. */
export function filterForWorkers(filter: JournalFilter): JournalFilter {
  if (filter.limit === undefined) return { ...filter, offset: undefined };
  return { ...filter, offset: undefined, limit: (filter.offset ?? 0) + filter.limit };
}

export function journalPart(page: JournalPage): JournalPart {
  return { total: page.total, entries: page.requests.map((entry) => [entry.time, stringifyExact(entry, true)]) };
}

/** The workers' parts as one listing, oldest first, the newest `journalLimit` of the whole server kept. */
export function mergeJournalParts(parts: readonly JournalPart[], filter: JournalFilter, journalLimit: number): string {
  const merged = parts.flatMap((part) => part.entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = Math.min(journalLimit, parts.reduce((sum, part) => sum + part.total, 0));
  // `merged` ends with the whole server's newest entries; its page is counted from that end.
  const [start, end] = pageBounds(total, filter);
  const fromEnd = total - merged.length;
  const page = merged.slice(Math.max(0, start - fromEnd), Math.max(0, end - fromEnd));
  return listingText(page.map(([, text]) => text), total, filter);
}
