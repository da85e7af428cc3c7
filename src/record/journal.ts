// The request journal: what clients sent and what they got, newest N kept. An entry holds the
// answer's outcome and, as bytes in shared slabs, the request's path, query, headers and body and
// the answer's body, both bodies capped; texts are read back and bodies parsed (numbers exact)
// only when someone reads the journal, so recording stays cheap.
import { DEFAULT_SESSION } from '../engine/sessions.js';
import { NO_SECRETS, type Secrets } from '../openapi/secrets.js';
import { headerTexts, readPath, readTexts, TextSlabs, type RecordedTexts } from './journal-texts.js';
import { describe, emptyEntry, JOURNAL_BODY_CAP, keepOutcome, type JournalEntry, type Recorded } from './journal-entry.js';
import type { Answered } from './answered.js';

export { JOURNAL_BODY_CAP, type JournalEntry } from './journal-entry.js';

export interface JournalFilter {
  method?: string;
  path?: string;
  status?: number;
  /** A session's requests only (`default` for those without X-Mock-Session). */
  session?: string;
  /** A page: the newest `limit` entries the filter keeps, after skipping the newest `offset`; still listed oldest first. */
  limit?: number;
  offset?: number;
}

/** The entries the filter keeps, a page of them when it asks for one; `total` counts every entry it keeps. */
export interface JournalPage {
  requests: JournalEntry[];
  total: number;
}

/** Whether the filter asks for a page (the listing then says its `total`). */
export function asksPage(filter: JournalFilter): boolean {
  return filter.limit !== undefined || filter.offset !== undefined;
}

/** Whether the filter leaves out any entry (before its page is taken). */
export function narrows(filter: JournalFilter): boolean {
  return filter.method !== undefined || filter.path !== undefined || filter.status !== undefined || filter.session !== undefined;
}

/** Where the filter's page lies among `total` kept entries, oldest first: `[start, end)`. */
export function pageBounds(total: number, filter: JournalFilter): [number, number] {
  const end = Math.max(0, total - (filter.offset ?? 0));
  return [filter.limit === undefined ? 0 : Math.max(0, end - filter.limit), end];
}

/** The JSON text of a listing: `{"requests": [...]}`, with `total` when a page was asked for. */
export function listingText(texts: readonly string[], total: number, filter: JournalFilter): string {
  return `{"requests":[${texts.join(',')}]${asksPage(filter) ? `,"total":${total}` : ''}}`;
}

/** Whether an entry is one the filter keeps. */
export function kept(entry: Pick<JournalEntry, 'method' | 'path' | 'status' | 'session'>, filter: JournalFilter): boolean {
  return (filter.method === undefined || entry.method === filter.method.toUpperCase())
    && (filter.path === undefined || entry.path === filter.path)
    && (filter.status === undefined || entry.status === filter.status)
    && (filter.session === undefined || (entry.session ?? DEFAULT_SESSION) === filter.session);
}

export class Journal {
  private readonly entries: Recorded[] = [];
  private start = 0;
  private readonly texts = new TextSlabs();

  /** The process's name on each entry, when it is one of several serving as one (`host:pid`). */
  instance: string | undefined;

  constructor(private readonly limit: number) {}

  /** Keeps the answered request in the ring, written over the oldest once full. */
  record(answered: Answered): void {
    if (this.limit <= 0) return;
    // A ring buffer: once full, the oldest slot is written over, so memory stays bounded.
    let entry: Recorded;
    if (this.entries.length < this.limit) this.entries.push((entry = emptyEntry()));
    else {
      entry = this.entries[this.start];
      this.start = (this.start + 1) % this.limit;
    }
    keepOutcome(entry, answered);
    const { request, response } = answered;
    // One more byte and character than the cap are kept, to know a text was cut.
    this.texts.write(entry, request.path, request.rawQuery, request.headers, request.body, JOURNAL_BODY_CAP + 1, response.body, JOURNAL_BODY_CAP + 1);
  }

  /**
   * The entry this journal keeps of an answered request, credentials redacted, made from the
   * record itself rather than read back from the slabs (the live followers, the whole server's
   * journal in Redis); undefined when the journal keeps nothing (a limit of 0).
   */
  entryOf(answered: Answered, secrets: Secrets = NO_SECRETS): JournalEntry | undefined {
    if (this.limit <= 0) return undefined;
    const outcome = emptyEntry();
    keepOutcome(outcome, answered);
    const { request, response } = answered;
    const texts: RecordedTexts = { path: request.path, rawQuery: request.rawQuery, headers: headerTexts(request.headers), body: request.body, answer: response.body };
    return describe(outcome, texts, secrets, this.instance);
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
    this.start = 0;
  }

  /** Entries oldest first, optionally filtered, with credentials redacted. */
  list(filter: JournalFilter = {}, secrets: Secrets = NO_SECRETS): JournalEntry[] {
    return this.page(filter, secrets).requests;
  }

  /** Only the page's entries are read back from the slabs (their bodies parsed). */
  page(filter: JournalFilter = {}, secrets: Secrets = NO_SECRETS): JournalPage {
    const ordered = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    const keptEntries = narrows(filter)
      ? ordered.filter((recorded) => kept({ method: recorded.method, path: filter.path === undefined ? '' : readPath(recorded), status: recorded.status, session: recorded.session }, filter))
      : ordered;
    const [start, end] = pageBounds(keptEntries.length, filter);
    return { requests: keptEntries.slice(start, end).map((recorded) => describe(recorded, readTexts(recorded), secrets, this.instance)), total: keptEntries.length };
  }
}
