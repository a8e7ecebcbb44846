/** @module The Lua scripts of the Redis store: a token bucket (take) and a bounded set (claim), each one atomic step on Redis's own clock. */

/** Redis's clock in ms, with the fraction: the same for every replica, whatever their own clocks say. */
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000";

/**
 * KEYS[1] a hash { tokens, at }; ARGV capacity, tokens per ms. Refills the bucket up to now, takes a token when
 * there is one, and returns 0, else the whole ms until one (none taken). The key lives until the bucket is full again.
 */
export const TAKE = `${NOW}
local cap = tonumber(ARGV[1]) local rate = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or cap
local at = tonumber(b[2]) or now
tokens = math.min(cap, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens < 1 then wait = math.max(1, math.ceil((1 - tokens) / rate)) else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) / rate) + 1000)
return wait`;

/**
 * KEYS[1] a sorted set scored by claim time; ARGV member, max, ttl ms. Drops members older than ttl, adds or
 * touches the member, removes the oldest others while more than max remain, and returns them.
 */
export const CLAIM = `${NOW}
local member = ARGV[1] local max = tonumber(ARGV[2]) local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZADD', KEYS[1], now, member)
local n = redis.call('ZCARD', KEYS[1])
local out = {}
if n > max then
  for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, n - max)) do
    if m ~= member and #out < n - max then table.insert(out, m) end
  end
  if #out > 0 then redis.call('ZREM', KEYS[1], unpack(out)) end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return out`;
