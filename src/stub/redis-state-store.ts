// Stateful mode's store in Redis (--state-store), and what the stub says about Redis to a client.
// Everything read back is input: another program (or a person with redis-cli) may have written
// under the stub's keys, so an order entry without its item, or an item that is not a JSON object,
// is left out of what the stub serves and reported once, never passed on as broken JSON.
import type { Redis } from 'ioredis';
import type { PlacedState, StateChange, StateFacts, StateQuestion, StoredItem, StoredPage, StoredState } from '../engine/engine-types.js';
import type { Applied, ResourceSize, StateStore } from './state-store.js';
import { StoreUnavailable } from './store-unavailable.js';
import { APPLY_CHANGE, CLEAR, CREATE_FACTS, DUMP_STATE, FILL, PAGE, SEED_CLAIM, SIZES } from './redis-scripts.js';

/** Every key this stub writes starts with this; pick the DB in the URL to keep two stubs apart. */
export const PREFIX = 'plant-store-stub:';
/**
 * How long one command may wait for Redis's answer. A Redis that is stopped (SIGSTOP, a frozen
 * VM) keeps its connection open and answers nothing: without a limit a request would wait forever.
 */
export const COMMAND_TIMEOUT_MS = 2_000;

/** What a Redis failure means for a client, in plain words: never the client library's own message. */
export function plainReason(error: unknown): string {
  const message = (error as Error)?.message ?? '';
  if (message === 'Command timed out') return `Redis gave no answer within ${COMMAND_TIMEOUT_MS / 1000} s`;
  // A script or command refused by Redis itself: the stub's keys hold something it did not write.
  if ((error as Error)?.name === 'ReplyError') return 'Redis holds data under the stub\'s keys that the stub did not write';
  return 'the connection to Redis is down';
}

/** The scripts, defined once on the connection: ioredis sends each by its SHA (EVALSHA), loading it when Redis does not know it yet. */
interface Scripts {
  stubPage(prefix: string, resource: string, scope: string, mode: string, at: string, limit: number): Promise<[number, number, string[], Array<string | null>]>;
  stubCreateFacts(prefix: string, resource: string, newNumber: string, ...ids: string[]): Promise<[number, number, string[]]>;
  stubApply(prefix: string, action: string, resource: string, id: string, item: string, maxBytes: number, scope: string): Promise<number>;
  stubClear(prefix: string, only: string): Promise<unknown>;
  stubFill(prefix: string, resource: string, rows: string): Promise<unknown>;
  stubSeedClaim(prefix: string, names: string): Promise<string[]>;
  stubDump(prefix: string): Promise<unknown>;
  stubSizes(prefix: string): Promise<unknown>;
}

const SCRIPTS = { stubPage: PAGE, stubCreateFacts: CREATE_FACTS, stubApply: APPLY_CHANGE, stubClear: CLEAR, stubFill: FILL, stubSeedClaim: SEED_CLAIM, stubDump: DUMP_STATE, stubSizes: SIZES };

export class RedisStateStore implements StateStore {
  /** Broken entries already reported, so a request loop does not repeat the same line. */
  private readonly reported = new Set<string>();
  private readonly scripts: Scripts;

  /** `maxBytes`: the most bytes of items' JSON kept (--max-state), counted in Redis across instances. */
  constructor(private readonly redis: Redis, private readonly warn: (line: string) => void, private readonly maxBytes: number) {
    for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.scripts = redis as unknown as Scripts;
  }

  /**
   * A read by id is one HGET; a page one script (ZRANGE, then HMGET of those ids); a create's
   * count, taken ids and new counted id one script. Items are parsed only when answered.
   */
  async answer(question: StateQuestion): Promise<StateFacts> {
    const { resource } = question;
    const facts: StateFacts = {};
    if (question.page) facts.page = await this.page(resource, question.page);
    if (question.count || question.taken || question.newNumber) {
      const [count, number, taken] = await this.run(() => this.scripts.stubCreateFacts(PREFIX, resource, question.newNumber ? '1' : '0', ...(question.taken ?? [])));
      facts.count = Number(count);
      if (question.taken) facts.taken = taken.map(String);
      if (question.newNumber) facts.newNumber = Number(number);
    }
    if (question.item !== undefined) facts.item = this.checked(resource, question.item, await this.run(() => this.redis.hget(`${PREFIX}items:${resource}`, question.item!)), false);
    return facts;
  }

  async apply({ action, resource, id, item, scope = '' }: StateChange): Promise<Applied> {
    const done = await this.run(() => this.scripts.stubApply(PREFIX, action, resource, id, item ?? '', this.maxBytes, scope));
    return done === 1 ? 'applied' : done === 2 ? 'full' : 'conflict';
  }

  /**
   * Empties the resources, then adds the items in parts of FILL_ROWS, each one script within the
   * command time-out however large the state (up to --max-state): a request meanwhile may see a
   * part of the new state, never a mix with the old.
   */
  async replace(state: PlacedState, only?: readonly string[]): Promise<void> {
    await this.run(() => this.scripts.stubClear(PREFIX, only ? JSON.stringify(only) : ''));
    for (const [name, items] of state) if (!only || only.includes(name)) await this.fill(name, items);
  }

  /** The seed of each resource no instance has seeded yet and that holds no items; the instance that claims one fills it. */
  async seed(state: PlacedState): Promise<void> {
    const claimed = await this.run(() => this.scripts.stubSeedClaim(PREFIX, JSON.stringify([...state.keys()])));
    for (const name of claimed) await this.fill(String(name), state.get(String(name)) ?? new Map());
  }

  private async fill(name: string, items: ReadonlyMap<string, StoredItem>): Promise<void> {
    const rows = [...items].map(([id, { text, scope }]) => [id, text, scope]);
    for (let at = 0; at < rows.length; at += FILL_ROWS) {
      const part = JSON.stringify(rows.slice(at, at + FILL_ROWS));
      await this.run(() => this.scripts.stubFill(PREFIX, name, part));
    }
  }

  async dump(): Promise<StoredState> {
    const rows = await this.run(() => this.scripts.stubDump(PREFIX));
    const state = new Map<string, Map<string, string>>();
    if (!Array.isArray(rows)) return state;
    for (const row of rows) {
      const [name, ordered, flat] = row as [unknown, unknown, unknown];
      if (typeof name !== 'string' || !Array.isArray(ordered) || !Array.isArray(flat)) continue;
      const texts = new Map<string, string>();
      for (let i = 0; i + 1 < flat.length; i += 2) texts.set(String(flat[i]), String(flat[i + 1]));
      const ids: Array<[string, number]> = [];
      for (let i = 0; i + 1 < ordered.length; i += 2) ids.push([String(ordered[i]), Number(ordered[i + 1])]);
      const items = new Map<string, string>();
      for (const [id] of ids.sort((a, b) => a[1] - b[1])) {
        const text = this.checked(name, id, texts.get(id) ?? null);
        if (text !== null) items.set(id, text);
      }
      state.set(name, items);
    }
    return state;
  }

  async sizes(): Promise<ResourceSize[]> {
    const rows = await this.run(() => this.scripts.stubSizes(PREFIX));
    return Array.isArray(rows) ? rows.map(([resource, items, bytes]: [string, number, number]) => ({ resource: String(resource), items: Number(items), bytes: Number(bytes) })) : [];
  }

  /** A page of one scope's items in their order; an id listed without a usable item is left out (and reported). */
  private async page(resource: string, { scope, start, limit }: NonNullable<StateQuestion['page']>): Promise<StoredPage> {
    const [mode, at] = 'after' in start ? ['after', start.after] : ['offset', String(start.offset)];
    const [total, from, ids, texts] = await this.run(() => this.scripts.stubPage(PREFIX, resource, scope, mode, at, limit ?? -1));
    const page: StoredPage = { total: Number(total), start: Number(from), ids: [], items: [] };
    ids.forEach((id, i) => {
      const text = this.checked(resource, String(id), texts[i] ?? null);
      if (text === null) return;
      page.ids.push(String(id));
      page.items.push(text);
    });
    return page;
  }

  /**
   * The item's text when it is one JSON object; else null, reported once (another program wrote
   * it). `listed`: the order names the id, so an item that is not there is worth a line too.
   */
  private checked(resource: string, id: string, text: string | null, listed = true): string | null {
    if (text !== null && isJsonObject(text)) return text;
    if (text !== null || listed) this.report(resource, id, text === null ? 'is listed but has no item' : 'is not a JSON object');
    return null;
  }

  /** Runs a command; a failure becomes a StoreUnavailable saying in plain words what went wrong. */
  async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new StoreUnavailable(plainReason(error));
    }
  }

  private report(resource: string, id: string, what: string): void {
    const key = `${resource}\n${id}`;
    if (this.reported.has(key) || this.reported.size >= MAX_REPORTED) return;
    this.reported.add(key);
    this.warn(`state store: ${resource} item ${JSON.stringify(id)} ${what}; it is left out of what the stub serves (another program wrote under the ${PREFIX} keys?)`);
  }
}

/** Items per script of a state put in whole: each part well within the command time-out. */
const FILL_ROWS = 5_000;

/** Enough lines to find the culprit, not a log filled by a store full of foreign data. */
const MAX_REPORTED = 100;

/** Whether the text is one JSON object (what the stub stores for an item). */
export function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
