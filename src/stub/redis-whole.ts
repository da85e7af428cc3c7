// --state-store redis://HOST:PORT/DB: several stub instances (behind a load balancer, or the
// workers of one) act as one server through Redis (ioredis). Redis keeps the stateful store, the
// journal, coverage and the sticky scenario; admin changes are published on a channel every
// instance listens to, and the sender waits for each one's acknowledgement. Without Redis, the
// instance stays up: stateful requests and admin reads get a 503 naming the store, and it picks up
// again by itself when Redis is back.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { ConfigError } from '../config/config-error.js';
import { countCoverage, type CoverageCounts } from '../record/coverage.js';
import type { Answered } from '../record/answered.js';
import { kept as keptByFilter, listingText, narrows, pageBounds, type JournalEntry, type JournalFilter } from '../record/journal.js';
import { stringifyExact } from '../common/exact-json.js';
import { COMMAND_TIMEOUT_MS, PREFIX, RedisStateStore } from './redis-state-store.js';
import { readMessage } from './redis-messages.js';
import type { AdminChange, WholeServer } from './whole-server.js';

const KEYS = {
  journal: `${PREFIX}journal`,
  statusHits: `${PREFIX}coverage:status`,
  scenarioHits: `${PREFIX}coverage:scenario`,
  sticky: `${PREFIX}sticky`,
  changes: `${PREFIX}admin-changes`,
  acks: `${PREFIX}admin-acks`,
  /** Each journal entry as it is recorded, for the admin pages of every instance. */
  live: `${PREFIX}journal-live`,
};
/** How long an admin change waits for every instance to acknowledge it. */
const ACK_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 3_000;
/** How long a health check waits for Redis to answer PING. */
const PING_TIMEOUT_MS = 1_000;
/** What health says when Redis is away: plain words, never the client library's message (nor the URL, which may hold a password). */
const UNREACHABLE = 'the state store (Redis) cannot be reached: stateful requests and admin reads answer 503 until it is back';

export interface RedisWholeOptions {
  url: string;
  journalLimit: number;
  /** --max-state, counted in Redis for every instance. */
  maxStateBytes: number;
  /** Makes an admin change in this instance (the sticky scenario, a reset, a reload). */
  changeHere: (change: AdminChange) => Promise<boolean>;
  /** Hears each journal entry another instance records (JSON text), for this instance's live followers. */
  liveEntry?: (entry: JournalEntry) => void;
  /** Whether anyone here follows the journal live: entries from elsewhere are read only then. */
  followed?: () => boolean;
  warn: (line: string) => void;
}

export class RedisWhole implements WholeServer {
  readonly store: RedisStateStore;
  private readonly waiting = new Map<string, { acks: number; ok: boolean; done: () => void }>();
  private lastForeign = -Infinity;

  private constructor(private readonly redis: Redis, private readonly listener: Redis, private readonly options: RedisWholeOptions) {
    this.store = new RedisStateStore(redis, options.warn, options.maxStateBytes);
  }

  /** Connects (a ConfigError naming the URL when Redis cannot be reached at start) and listens for admin changes. */
  static async connect(options: RedisWholeOptions): Promise<RedisWhole> {
    // Commands fail at once while Redis is away instead of queueing, so a client gets a 503 now
    // rather than a request that hangs; the connection keeps retrying in the background.
    // A Redis that keeps the connection but answers nothing (stopped, frozen) fails each command
    // after COMMAND_TIMEOUT_MS, so a client gets the same 503.
    const settings = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: CONNECT_TIMEOUT_MS, retryStrategy: (times: number) => Math.min(times * 100, 1_000) };
    const redis = new Redis(options.url, { ...settings, commandTimeout: COMMAND_TIMEOUT_MS });
    const listener = new Redis(options.url, { ...settings, enableOfflineQueue: true });
    const whole = new RedisWhole(redis, listener, options);
    // The socket's error (ECONNREFUSED) says more than the rejection of connect() ("Connection is closed").
    let cause: unknown;
    const remember = (error: unknown) => void (cause ??= error);
    redis.on('error', remember);
    listener.on('error', () => {}); // outages are reported once, through the main connection
    try {
      await Promise.all([redis.connect(), listener.connect()]);
      await listener.subscribe(KEYS.changes, KEYS.acks, KEYS.live);
    } catch (error) {
      redis.disconnect();
      listener.disconnect();
      throw new ConfigError(`state store ${options.url}`, `cannot be reached (${describe(cause ?? error)})`);
    }
    redis.off('error', remember);
    whole.reportOutages(redis);
    listener.on('message', (channel: string, message: string) => void whole.received(channel, message));
    return whole;
  }

  /** The sticky scenario the other instances have set, for an instance that starts now. */
  async sticky(): Promise<string | null> {
    return this.store.run(() => this.redis.get(KEYS.sticky));
  }

  /**
   * Without a filter, a page is read as itself (LLEN and one LRANGE of it); a filter reads the
   * whole journal (at most --journal-limit entries) to find what it keeps. Entries that are not
   * ones this stub wrote (not JSON, not an entry) are left out.
   */
  async journal(filter: JournalFilter): Promise<string> {
    if (!narrows(filter)) {
      const [length, texts] = await this.store.run(() => this.readPage(filter));
      return listingText(texts.filter((text) => journalEntry(text) !== null), length, filter);
    }
    const texts = await this.store.run(() => this.redis.lrange(KEYS.journal, 0, -1));
    const kept = texts.filter((text) => {
      const entry = journalEntry(text);
      return entry !== null && keptByFilter(entry, filter);
    });
    const [start, end] = pageBounds(kept.length, filter);
    return listingText(kept.slice(start, end), kept.length, filter);
  }

  /** The journal's length and a page of it counted from the newest, read in one transaction. */
  private async readPage(filter: JournalFilter): Promise<[number, string[]]> {
    const offset = filter.offset ?? 0;
    // Negative indices count from the newest; Redis clamps a start before the oldest to it.
    const first = filter.limit === undefined ? 0 : -(offset + filter.limit);
    const results = await this.redis.multi().llen(KEYS.journal).lrange(KEYS.journal, first, -(offset + 1)).exec();
    if (!results || results.some(([error]) => error)) throw results?.find(([error]) => error)?.[0] ?? new Error('the journal read was aborted');
    return [results[0][1] as number, results[1][1] as string[]];
  }

  async coverage(): Promise<CoverageCounts> {
    const [statuses, scenarios] = await this.store.run(() => Promise.all([this.redis.hgetall(KEYS.statusHits), this.redis.hgetall(KEYS.scenarioHits)]));
    return { statuses: rows(statuses), scenarios: rows(scenarios) };
  }

  /**
   * Adds an answered request to the whole server's journal and coverage: `entry` is the one the
   * recorder made from the record (none when the journal keeps nothing), written as JSON once.
   */
  record({ response }: Answered, entry: JournalEntry | undefined): void {
    const batch = this.redis.pipeline();
    if (entry) {
      const text = stringifyExact(entry, true);
      batch.rpush(KEYS.journal, text);
      batch.ltrim(KEYS.journal, -this.options.journalLimit, -1);
      batch.publish(KEYS.live, text);
    }
    countCoverage(response, (kind, operation, key) => batch.hincrby(kind === 'status' ? KEYS.statusHits : KEYS.scenarioHits, `${operation}\n${key}`, 1));
    // Recording never holds up or fails a request; an outage is already reported once.
    batch.exec().catch(() => {});
  }

  async changeEverywhere(change: AdminChange): Promise<boolean> {
    const { redis } = this;
    if (change.kind === 'sticky') await this.store.run(() => (change.name === null ? redis.del(KEYS.sticky) : redis.set(KEYS.sticky, change.name)) as Promise<unknown>);
    if (change.kind === 'reset') await this.store.run(() => redis.del(KEYS.journal, KEYS.statusHits, KEYS.scenarioHits));
    const id = randomUUID();
    const acknowledged = new Promise<boolean>((resolve) => {
      const waiter = { acks: 0, ok: true, done: () => resolve(waiter.ok) };
      this.waiting.set(id, waiter);
    });
    const listeners = await this.store.run(() => redis.publish(KEYS.changes, JSON.stringify({ id, change })));
    const waiter = this.waiting.get(id)!;
    waiter.acks -= listeners;
    if (waiter.acks >= 0) waiter.done();
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ACK_TIMEOUT_MS).unref());
    try {
      return await Promise.race([acknowledged, timeout]);
    } finally {
      this.waiting.delete(id);
    }
  }

  async problem(): Promise<string | null> {
    if (this.redis.status !== 'ready') return UNREACHABLE;
    // A paused or overloaded Redis keeps the connection open and never answers: wait a bounded time.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(UNREACHABLE), PING_TIMEOUT_MS)));
    const pong = this.redis.ping().then(() => null, () => UNREACHABLE);
    try {
      return await Promise.race([pong, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.listener.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** A change published by any instance (this one included): made here, then acknowledged. */
  private async received(channel: string, message: string): Promise<void> {
    if (channel === KEYS.live) {
      // Every instance's entries, its own included (its followers have those already).
      if (!this.options.followed?.()) return;
      const entry = journalEntry(message);
      if (entry) this.options.liveEntry?.(entry);
      return;
    }
    if (channel === KEYS.acks) {
      const ack = readMessage('ack', message);
      const waiter = ack && this.waiting.get(ack.id);
      if (!ack || !waiter) return;
      waiter.ok &&= ack.ok;
      if (++waiter.acks >= 0) waiter.done();
      return;
    }
    const changeMessage = readMessage('change', message);
    if (!changeMessage) return this.foreignMessage(channel);
    const { id, change } = changeMessage;
    const done = await this.options.changeHere(change).catch(() => false);
    await this.redis.publish(KEYS.acks, JSON.stringify({ id, ok: done })).catch(() => {});
  }

  /** A message this stub did not send: dropped, and said once a minute at most (anyone may publish). */
  private foreignMessage(channel: string): void {
    const now = Date.now();
    if (now - this.lastForeign < FOREIGN_REPORT_MS) return;
    this.lastForeign = now;
    this.options.warn(`state store ${this.options.url}: a message on ${channel} is not an admin change this stub sends; it was ignored`);
  }

  /** One line when Redis goes away, one when it is back: not one per failed request. */
  private reportOutages(redis: Redis): void {
    let down = false;
    const lost = (cause: string) => {
      if (down) return;
      down = true;
      this.options.warn(`state store ${this.options.url}: connection lost (${cause}); stateful requests and admin reads answer 503 until it is back`);
    };
    redis.on('error', (error: unknown) => lost(describe(error)));
    redis.on('close', () => lost('closed'));
    redis.on('ready', () => {
      if (!down) return;
      down = false;
      this.options.warn(`state store ${this.options.url}: connected again`);
    });
  }
}

/** Coverage counters; a field or count this stub did not write is left out. */
function rows(hits: Record<string, string>): Array<[string, string, number]> {
  return Object.entries(hits).flatMap(([field, count]): Array<[string, string, number]> => {
    const at = field.indexOf('\n');
    return at > 0 && /^\d{1,15}$/.test(count) ? [[field.slice(0, at), field.slice(at + 1), Number(count)]] : [];
  });
}

/** A journal entry as stored, or null when the text is not one (written by another program). */
function journalEntry(text: string): JournalEntry | null {
  let entry: Partial<JournalEntry> | null;
  try {
    entry = JSON.parse(text) as Partial<JournalEntry> | null;
  } catch {
    return null;
  }
  return entry !== null && typeof entry.method === 'string' && typeof entry.path === 'string' && typeof entry.status === 'number' ? (entry as JournalEntry) : null;
}

const FOREIGN_REPORT_MS = 60_000;

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message ?? String(error);
}
