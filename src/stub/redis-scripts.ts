// The Lua scripts of the Redis store (redis-state-store.ts). Each runs atomically in Redis: a page
// sees one moment, a create of a taken id changes nothing. They are sent by SHA (EVALSHA; ioredis
// loads a script once, the first time Redis does not know it). Every key starts with KEYS[1], the
// stub's prefix. A resource `R` keeps:
//   items:R           hash   id -> the item's JSON text
//   order:R           zset   the ids of the top-level scope by creation (score: the seq key)
//   order:R\0S        zset   the same for the items listed under parent S (nested resources)
//   scopes:R          hash   id -> S, for items listed under a parent
//   scope-keys:R      set    the parents S that have an order key
//   largest:R         string the largest integer-like id handed out or held (counted ids go on from it)
// and the store: `resources` (set of R), `bytes` (every item's JSON bytes, for --max-state),
// `sizes` (hash R -> its bytes), `seq`, `seeded` (the resources seeded once for the store's life).

/** Shared by the scripts: the keys of resource `name`, and rows `{id, text, scope}` added to one resource (its bytes counted). */
const KEYS_OF = `
local P = KEYS[1]
local function order(name, scope)
  if scope == '' then return P .. 'order:' .. name end
  return P .. 'order:' .. name .. '\\0' .. scope
end
local function number(id)
  if #id <= 15 and string.match(id, '^%d+$') then return tonumber(id) end
  return nil
end
local function fill(name, rows)
  local items, bytes, largest = P .. 'items:' .. name, 0, 0
  redis.call('SADD', P .. 'resources', name)
  for _, row in ipairs(rows) do
    local id, text, scope = row[1], row[2], row[3]
    bytes = bytes + #text
    largest = math.max(largest, number(id) or 0)
    redis.call('HSET', items, id, text)
    redis.call('ZADD', order(name, scope), redis.call('INCR', P .. 'seq'), id)
    if scope ~= '' then
      redis.call('HSET', P .. 'scopes:' .. name, id, scope)
      redis.call('SADD', P .. 'scope-keys:' .. name, scope)
    end
  end
  local counter = P .. 'largest:' .. name
  largest = math.max(largest, tonumber(redis.call('GET', counter) or '0'))
  redis.call('SET', counter, string.format('%.0f', largest))
  redis.call('HINCRBY', P .. 'sizes', name, bytes)
  redis.call('INCRBY', P .. 'bytes', bytes)
  return bytes
end
`;

/**
 * A page: ARGV resource, scope, 'offset' or 'after', the rank or the id, the most items (-1: all).
 * Answers {total, start, ids, texts} (a text is nil where the order names an id the hash lacks).
 */
export const PAGE = `${KEYS_OF}
local items, key = P .. 'items:' .. ARGV[1], order(ARGV[1], ARGV[2])
local total = redis.call('ZCARD', key)
local start = tonumber(ARGV[4]) or 0
if ARGV[3] == 'after' then
  local rank = redis.call('ZRANK', key, ARGV[4])
  if rank then start = rank + 1 else start = total end
end
local limit = tonumber(ARGV[5])
local ids, texts = {}, {}
if start < total and limit ~= 0 then
  local stop = -1
  if limit > 0 then stop = start + limit - 1 end
  ids = redis.call('ZRANGE', key, start, stop)
end
for i = 1, #ids, 1000 do
  local chunk = redis.call('HMGET', items, unpack(ids, i, math.min(i + 999, #ids)))
  for j = 1, #chunk do texts[#texts + 1] = chunk[j] end
end
return {total, math.min(start, total), ids, texts}`;

/**
 * A create's facts: ARGV resource, '1' when a new counted id is wanted, then ids to check.
 * Answers {items held, the new id or 0, the ids taken}. The counter is made from the ids held the
 * first time (a store written before it existed), then only INCR: two instances never get one id.
 */
export const CREATE_FACTS = `${KEYS_OF}
local items, counter = P .. 'items:' .. ARGV[1], P .. 'largest:' .. ARGV[1]
local new = 0
if ARGV[2] == '1' then
  if redis.call('EXISTS', counter) == 0 then
    local largest = 0
    for _, id in ipairs(redis.call('HKEYS', items)) do largest = math.max(largest, number(id) or 0) end
    redis.call('SET', counter, string.format('%.0f', largest))
  end
  new = redis.call('INCR', counter)
end
local taken = {}
for i = 3, #ARGV do
  if redis.call('HEXISTS', items, ARGV[i]) == 1 then taken[#taken + 1] = ARGV[i] end
end
return {redis.call('HLEN', items), new, taken}`;

/**
 * A change, checked and set at once: ARGV action, resource, id, item, the most bytes, scope.
 * 1 applied, 0 conflict (the id is taken, or gone), 2 over the bytes (# is a Lua string's length in bytes).
 */
export const APPLY_CHANGE = `${KEYS_OF}
local name, id = ARGV[2], ARGV[3]
local items, scopes = P .. 'items:' .. name, P .. 'scopes:' .. name
local exists = redis.call('HEXISTS', items, id) == 1
if (ARGV[1] == 'create') == exists then return 0 end
local delta = (ARGV[1] == 'delete' and 0 or #ARGV[4]) - redis.call('HSTRLEN', items, id)
if delta > 0 and tonumber(redis.call('GET', P .. 'bytes') or '0') + delta > tonumber(ARGV[5]) then return 2 end
redis.call('INCRBY', P .. 'bytes', delta)
redis.call('HINCRBY', P .. 'sizes', name, delta)
local before = redis.call('HGET', scopes, id) or ''
if ARGV[1] == 'delete' then
  redis.call('HDEL', items, id)
  redis.call('HDEL', scopes, id)
  redis.call('ZREM', order(name, before), id)
  return 1
end
redis.call('HSET', items, id, ARGV[4])
local scope = ARGV[6]
if ARGV[1] == 'create' or scope ~= before then
  -- A changed parent moves the item, keeping its place in the order of creation.
  local score = redis.call('ZSCORE', order(name, before), id) or redis.call('INCR', P .. 'seq')
  redis.call('ZREM', order(name, before), id)
  redis.call('ZADD', order(name, scope), score, id)
  if scope == '' then
    redis.call('HDEL', scopes, id)
  else
    redis.call('HSET', scopes, id, scope)
    redis.call('SADD', P .. 'scope-keys:' .. name, scope)
  end
end
if ARGV[1] == 'create' then
  redis.call('SADD', P .. 'resources', name)
  local counter, n = P .. 'largest:' .. name, number(id)
  if n and redis.call('EXISTS', counter) == 1 and n > tonumber(redis.call('GET', counter)) then
    redis.call('SET', counter, string.format('%.0f', n))
  end
end
return 1`;

/**
 * Empties every resource (ARGV[1] ''), or those ARGV[1] names (a JSON array): the start of a
 * state put in whole, whose items FILL then adds in parts.
 */
export const CLEAR = `${KEYS_OF}
local names = {}
if ARGV[1] == '' then names = redis.call('SMEMBERS', P .. 'resources') else names = cjson.decode(ARGV[1]) end
local bytes = tonumber(redis.call('GET', P .. 'bytes') or '0')
for _, name in ipairs(names) do
  local items = P .. 'items:' .. name
  for _, text in ipairs(redis.call('HVALS', items)) do bytes = bytes - #text end
  for _, scope in ipairs(redis.call('SMEMBERS', P .. 'scope-keys:' .. name)) do redis.call('DEL', order(name, scope)) end
  redis.call('DEL', items, order(name, ''), P .. 'scopes:' .. name, P .. 'scope-keys:' .. name, P .. 'largest:' .. name)
  redis.call('HDEL', P .. 'sizes', name)
  redis.call('SREM', P .. 'resources', name)
end
if ARGV[1] == '' then bytes = 0 end
redis.call('SET', P .. 'bytes', bytes)
return 1`;

/** Adds ARGV[2]'s rows (a JSON array of `[id, text, scope]`) to resource ARGV[1]: one part of a state put in whole. */
export const FILL = `${KEYS_OF}
fill(ARGV[1], cjson.decode(ARGV[2]))
return 1`;

// The first data (list examples, --seed-items), offered by every instance that starts: a resource
// is seeded once for the store's life (the seeded set remembers it, so items a client deleted do
// not come back when another instance starts) and only when it holds no items (state there wins).
/** Of the resources ARGV[1] names (a JSON array), those this instance seeds now (FILL then adds their items). */
export const SEED_CLAIM = `
local claimed = {}
for _, name in ipairs(cjson.decode(ARGV[1])) do
  if redis.call('SADD', KEYS[1] .. 'seeded', name) == 1 and redis.call('EXISTS', KEYS[1] .. 'items:' .. name) == 0 then claimed[#claimed + 1] = name end
end
return claimed`;

/** Every resource whole (GET /__admin/state): {name, {id, score, …} of every order key, {id, text, …}} each. */
export const DUMP_STATE = `${KEYS_OF}
local out = {}
for _, name in ipairs(redis.call('SMEMBERS', P .. 'resources')) do
  local ordered = redis.call('ZRANGE', order(name, ''), 0, -1, 'WITHSCORES')
  for _, scope in ipairs(redis.call('SMEMBERS', P .. 'scope-keys:' .. name)) do
    for _, value in ipairs(redis.call('ZRANGE', order(name, scope), 0, -1, 'WITHSCORES')) do ordered[#ordered + 1] = value end
  end
  out[#out + 1] = {name, ordered, redis.call('HGETALL', P .. 'items:' .. name)}
end
return out`;

/** Each resource's items and bytes (the metrics): {name, count, bytes} each. */
export const SIZES = `
local out = {}
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1] .. 'resources')) do
  out[#out + 1] = {name, redis.call('HLEN', KEYS[1] .. 'items:' .. name), tonumber(redis.call('HGET', KEYS[1] .. 'sizes', name) or '0')}
end
return out`;
