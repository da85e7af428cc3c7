// Stateful mode's store in Redis (--state-store), and what the stub says about Redis to a client.
// Everything read back is input: another program (or a person with redis-cli) may have written
// under the stub's keys, so an order entry without its item, or an item that is not a JSON object,
// is left out of what the stub serves and reported once, never passed on as broken JSON.
import type { Redis } from 'ioredis';
import type { StateChange, StoredState } from '../engine/engine-types.js';
import { toEntries, type Applied, type StateStore } from './state-store.js';

/** Every key this stub writes starts with this; pick the DB in the URL to keep two stubs apart. */
export const PREFIX = 'plant-store-stub:';
/**
 * How long one command may wait for Redis's answer. A Redis that is stopped (SIGSTOP, a frozen
 * VM) keeps its connection open and answers nothing: without a limit a request would wait forever.
 */
export const COMMAND_TIMEOUT_MS = 2_000;

// Each script runs atomically in Redis: a read sees one moment, a create of a taken id changes nothing.
const READ_STATE = `
local out = {}
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1] .. 'resources')) do
  out[#out + 1] = {name, redis.call('ZRANGE', KEYS[1] .. 'order:' .. name, 0, -1), redis.call('HGETALL', KEYS[1] .. 'items:' .. name)}
end
return out`;
// The bytes of the items' JSON are counted in the bytes key (# is a Lua string's length in bytes),
// and a change that would take them past ARGV[5] is refused (2).
const APPLY_CHANGE = `
local items, order = KEYS[1] .. 'items:' .. ARGV[2], KEYS[1] .. 'order:' .. ARGV[2]
local exists = redis.call('HEXISTS', items, ARGV[3]) == 1
if (ARGV[1] == 'create') == exists then return 0 end
local delta = (ARGV[1] == 'delete' and 0 or #ARGV[4]) - redis.call('HSTRLEN', items, ARGV[3])
if delta > 0 and tonumber(redis.call('GET', KEYS[1] .. 'bytes') or '0') + delta > tonumber(ARGV[5]) then return 2 end
redis.call('INCRBY', KEYS[1] .. 'bytes', delta)
if ARGV[1] == 'delete' then
  redis.call('HDEL', items, ARGV[3])
  redis.call('ZREM', order, ARGV[3])
  return 1
end
redis.call('HSET', items, ARGV[3], ARGV[4])
if ARGV[1] == 'create' then
  redis.call('SADD', KEYS[1] .. 'resources', ARGV[2])
  redis.call('ZADD', order, redis.call('INCR', KEYS[1] .. 'seq'), ARGV[3])
end
return 1`;
const REPLACE_STATE = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1] .. 'resources')) do
  redis.call('DEL', KEYS[1] .. 'items:' .. name, KEYS[1] .. 'order:' .. name)
end
redis.call('DEL', KEYS[1] .. 'resources')
local bytes = 0
for _, entry in ipairs(cjson.decode(ARGV[1])) do
  redis.call('SADD', KEYS[1] .. 'resources', entry[1])
  for _, pair in ipairs(entry[2]) do
    bytes = bytes + #pair[2]
    redis.call('HSET', KEYS[1] .. 'items:' .. entry[1], pair[1], pair[2])
    redis.call('ZADD', KEYS[1] .. 'order:' .. entry[1], redis.call('INCR', KEYS[1] .. 'seq'), pair[1])
  end
end
redis.call('SET', KEYS[1] .. 'bytes', bytes)
return 1`;

// The first data (list examples, --seed-items), offered by every instance that starts: a resource
// is seeded once for the store's life (the seeded set remembers it, so items a client deleted do
// not come back when another instance starts) and only when it holds no items (state there wins).
const SEED_STATE = `
for _, entry in ipairs(cjson.decode(ARGV[1])) do
  local items, order = KEYS[1] .. 'items:' .. entry[1], KEYS[1] .. 'order:' .. entry[1]
  if redis.call('SADD', KEYS[1] .. 'seeded', entry[1]) == 1 and redis.call('EXISTS', items) == 0 then
    redis.call('SADD', KEYS[1] .. 'resources', entry[1])
    for _, pair in ipairs(entry[2]) do
      redis.call('INCRBY', KEYS[1] .. 'bytes', #pair[2])
      redis.call('HSET', items, pair[1], pair[2])
      redis.call('ZADD', order, redis.call('INCR', KEYS[1] .. 'seq'), pair[1])
    end
  end
end
return 1`;

/** What a Redis failure means for a client, in plain words: never the client library's own message. */
export class StoreUnavailable extends Error {}

export function plainReason(error: unknown): string {
  const message = (error as Error)?.message ?? '';
  if (message === 'Command timed out') return `Redis gave no answer within ${COMMAND_TIMEOUT_MS / 1000} s`;
  // A script or command refused by Redis itself: the stub's keys hold something it did not write.
  if ((error as Error)?.name === 'ReplyError') return 'Redis holds data under the stub\'s keys that the stub did not write';
  return 'the connection to Redis is down';
}

export class RedisStateStore implements StateStore {
  /** Broken entries already reported, so a request loop does not repeat the same line. */
  private readonly reported = new Set<string>();

  /** `maxBytes`: the most bytes of items' JSON kept (--max-state), counted in Redis across instances. */
  constructor(private readonly redis: Redis, private readonly warn: (line: string) => void, private readonly maxBytes: number) {}

  async read(): Promise<StoredState> {
    const rows = await this.run(() => this.redis.eval(READ_STATE, 1, PREFIX));
    const state = new Map<string, Map<string, string>>();
    if (!Array.isArray(rows)) return state;
    for (const row of rows) {
      const [name, order, flat] = row as [unknown, unknown, unknown];
      if (typeof name !== 'string' || !Array.isArray(order) || !Array.isArray(flat)) continue;
      const texts = new Map<string, string>();
      for (let i = 0; i + 1 < flat.length; i += 2) texts.set(String(flat[i]), String(flat[i + 1]));
      const items = new Map<string, string>();
      for (const id of order as unknown[]) {
        const text = texts.get(String(id));
        if (text !== undefined && isJsonObject(text)) items.set(String(id), text);
        else this.report(name, String(id), text === undefined ? 'is listed but has no item' : 'is not a JSON object');
      }
      state.set(name, items);
    }
    return state;
  }

  async apply({ action, resource, id, item }: StateChange): Promise<Applied> {
    const done = await this.run(() => this.redis.eval(APPLY_CHANGE, 1, PREFIX, action, resource, id, item ?? '', this.maxBytes));
    return done === 1 ? 'applied' : done === 2 ? 'full' : 'conflict';
  }

  async replace(state: StoredState): Promise<void> {
    await this.run(() => this.redis.eval(REPLACE_STATE, 1, PREFIX, JSON.stringify(toEntries(state))));
  }

  async seed(state: StoredState): Promise<void> {
    await this.run(() => this.redis.eval(SEED_STATE, 1, PREFIX, JSON.stringify(toEntries(state))));
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
