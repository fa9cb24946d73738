"""The token bucket, in Lua, for every script that spends a rate-limit token.

``engine.ratelimit`` spends tokens with a script of its own; the append script spends the
acting player's token in the same step as the append (see ``events.store.Gate``), so a move
costs one round trip to Redis, not two. Both take the bucket from here, so the two ways of
spending a token cannot drift apart.
"""

#: ``take_token(key, rate, burst)``: refill the bucket at ``key`` (a hash of ``tokens`` and
#: ``at``) by the server's clock, spend one token if there is one, and return 0, else the
#: seconds to wait for one, and then the tokens it holds after (for the RateLimit header,
#: read here rather than in a round trip of its own). The hash expires once it would be full again.
#: ``token_wait(key, rate, burst, now)``: the same bucket read without spending: 0 if a token
#: is there, else the seconds to wait for one (to spend from several buckets all or none).
#: ``take_all_tokens(gates, now)``: one token of each gate (``{key, rate, burst}``) when every
#: one has a token, else none; returns 0, 0 and each bucket's tokens left (strings, in the
#: gates' order), else the longest wait, which gate (from 1) set it and an empty table.
TOKEN_BUCKET_LUA = """
local function token_wait(key, rate, burst, now)
  local held = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = tonumber(held[1]), tonumber(held[2])
  if tokens == nil or at == nil then tokens, at = burst, now end
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
  if tokens >= 1 then return 0 end
  return (1 - tokens) / rate
end
local function take_token(key, rate, burst)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
  local held = redis.call('HMGET', key, 'tokens', 'at')
  local tokens, at = tonumber(held[1]), tonumber(held[2])
  if tokens == nil or at == nil then tokens, at = burst, now end
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
  local wait = 0
  if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil((burst - tokens) / rate * 1000) + 1000)
  return wait, tokens
end
local function take_all_tokens(gates, now)
  local wait, empty = 0, 0
  for i, gate in ipairs(gates) do
    local gate_wait = token_wait(gate[1], tonumber(gate[2]), tonumber(gate[3]), now)
    if gate_wait > wait then wait, empty = gate_wait, i end
  end
  if wait > 0 then return wait, empty, {} end
  local levels = {}
  for i, gate in ipairs(gates) do
    local _, tokens = take_token(gate[1], tonumber(gate[2]), tonumber(gate[3]))
    levels[i] = tostring(tokens)
  end
  return 0, 0, levels
end
"""
