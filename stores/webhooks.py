"""Webhooks on Redis (``core.webhooks.WebhookStore``), under ``<prefix>:webhooks``
(``<prefix>:{webhooks}`` on a cluster: one slot, as a registration counts and writes in
one script, and a delivery's record, its webhook's list and the open deliveries change
together).

Keys, under that base: ``player:<player>`` the set of the player's webhook ids;
``hook:<webhook>`` the webhook's record (JSON, its secret included); ``recent:<webhook>``
its latest deliveries (a sorted set, by creation ms); ``d:<delivery>`` a delivery's record
(a hash: id, webhook, player, notice, status, attempts, created, updated, due; then
attempted, code, error and delivered as attempts are made); ``open`` every delivery
neither delivered nor failed (a sorted set, by when it is due, ms); ``lease:<delivery>``
the token of the sender holding it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.webhooks import Delivery, WebhookStore
from events.keys import group

REGISTER_LUA = """
-- KEYS: the player's webhooks (set), the webhook; ARGV: webhook id, record (JSON), cap
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

DELETE_LUA = """
-- KEYS: the player's webhooks, the webhook, its deliveries (zset), the open deliveries
-- ARGV: webhook id, the prefix of a delivery's key
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[4], id)
end
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""

CREATE_LUA = """
-- KEYS: the webhook, the delivery, the webhook's deliveries, the open deliveries
-- ARGV: delivery id, webhook id, player, notice (JSON), now (ms), kept, delivery key prefix
-- Returns 1: created; 2: there, not attempted yet (start it again); 0: nothing to start.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  local state = redis.call('HMGET', KEYS[2], 'status', 'attempts')
  if state[1] == 'pending' and tonumber(state[2]) == 0 then return 2 end
  return 0
end
redis.call('HSET', KEYS[2], 'id', ARGV[1], 'webhook', ARGV[2], 'player', ARGV[3], 'notice', ARGV[4],
  'status', 'pending', 'attempts', 0, 'created', ARGV[5], 'updated', ARGV[5], 'due', ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[6])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, over - 1)) do
    if not redis.call('ZSCORE', KEYS[4], id) then redis.call('DEL', ARGV[7] .. id) end
  end
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, over - 1)
end
return 1
"""

ATTEMPT_LUA = """
-- KEYS: the delivery; ARGV: now (ms). The attempt's number, or 0 when the delivery is
-- gone or done.
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'delivered' or status == 'failed' then return 0 end
redis.call('HSET', KEYS[1], 'attempted', ARGV[1], 'updated', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'attempts', 1)
"""

OUTCOME_LUA = """
-- KEYS: the delivery, the open deliveries; ARGV: delivery id, status, due (ms), seconds a
-- done record lives, then field/value pairs. A delivery once done stays as it is.
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'delivered' or status == 'failed' then return 0 end
redis.call('HDEL', KEYS[1], 'code', 'error')
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'due', ARGV[3], unpack(ARGV, 5))
if ARGV[2] == 'delivered' or ARGV[2] == 'failed' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
else
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return 1
"""

RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisWebhookStore(WebhookStore):
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.base = group(prefix, "webhooks", client)
        self._register = client.register_script(REGISTER_LUA)
        self._delete = client.register_script(DELETE_LUA)
        self._create = client.register_script(CREATE_LUA)
        self._attempt = client.register_script(ATTEMPT_LUA)
        self._outcome = client.register_script(OUTCOME_LUA)
        self._release = client.register_script(RELEASE_LUA)

    # keys
    def _player_key(self, player_id: str) -> str:
        return f"{self.base}:player:{player_id}"

    def _hook_key(self, webhook_id: str) -> str:
        return f"{self.base}:hook:{webhook_id}"

    def _recent_key(self, webhook_id: str) -> str:
        return f"{self.base}:recent:{webhook_id}"

    def _delivery_key(self, delivery: str) -> str:
        return f"{self.base}:d:{delivery}"

    def _lease_key(self, delivery: str) -> str:
        return f"{self.base}:lease:{delivery}"

    @property
    def _open_key(self) -> str:
        return f"{self.base}:open"

    # webhooks
    def add(self, player_id: str, webhook_id: str, record: dict[str, Any], cap: int) -> bool:
        keys = [self._player_key(player_id), self._hook_key(webhook_id)]
        return bool(self._register(keys=keys, args=[webhook_id, json.dumps(record), cap]))

    def hook(self, webhook_id: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._hook_key(webhook_id))
        return None if raw is None else dict(json.loads(raw))

    def hooks_of(self, players: Sequence[str]) -> dict[str, list[str]]:
        with self.redis.pipeline(transaction=False) as pipe:
            for player in players:
                pipe.smembers(self._player_key(player))
            owned = pipe.execute()
        return {player: [member.decode() for member in ids] for player, ids in zip(players, owned, strict=True)}

    def holds(self, player_id: str, webhook_id: str) -> bool:
        return bool(self.redis.sismember(self._player_key(player_id), webhook_id))

    def remove(self, player_id: str, webhook_id: str) -> bool:
        keys = [self._player_key(player_id), self._hook_key(webhook_id), self._recent_key(webhook_id), self._open_key]
        return bool(self._delete(keys=keys, args=[webhook_id, f"{self.base}:d:"]))

    # deliveries
    def add_delivery(
        self, delivery: str, webhook_id: str, player_id: str, notice: dict[str, Any], at: int, kept: int
    ) -> bool:
        keys = [self._hook_key(webhook_id), self._delivery_key(delivery), self._recent_key(webhook_id), self._open_key]
        args = [delivery, webhook_id, player_id, json.dumps(notice), at, kept, f"{self.base}:d:"]
        return bool(int(self._create(keys=keys, args=args)))

    def delivery(self, delivery: str) -> Delivery | None:
        raw = self.redis.hgetall(self._delivery_key(delivery))
        if not raw:
            return None
        f = {k.decode(): v.decode() for k, v in raw.items()}

        def number(name: str) -> int | None:
            return int(f[name]) if f.get(name) not in (None, "") else None

        return Delivery(
            id=f["id"],
            webhook=f["webhook"],
            player=f["player"],
            notice=json.loads(f["notice"]),
            status=f["status"],
            attempts=int(f.get("attempts", 0)),
            created=int(f["created"]),
            updated=int(f.get("updated", f["created"])),
            due=int(f.get("due", f["created"])),
            attempted=number("attempted"),
            code=number("code"),
            error=f.get("error") or None,
        )

    def recent(self, webhook_id: str, limit: int) -> list[str]:
        return [i.decode() for i in self.redis.zrevrange(self._recent_key(webhook_id), 0, limit - 1)]

    def open_deliveries(self) -> list[tuple[str, int]]:
        return [(i.decode(), int(score)) for i, score in self.redis.zrange(self._open_key, 0, -1, withscores=True)]

    def begin_attempt(self, delivery: str, at: int) -> int:
        return int(self._attempt(keys=[self._delivery_key(delivery)], args=[at]))

    def record(
        self, delivery: str, status: str, at: int, due: int, code: int | None, error: str | None, done_seconds: int
    ) -> bool:
        fields: list[Any] = ["updated", at]
        if code is not None:
            fields += ["code", code]
        if error is not None:
            fields += ["error", error]
        if status == "delivered":
            fields += ["delivered", at]
        keys = [self._delivery_key(delivery), self._open_key]
        return bool(self._outcome(keys=keys, args=[delivery, status, due, done_seconds, *fields]))

    def lease(self, delivery: str, token: str, seconds: float) -> bool:
        return bool(self.redis.set(self._lease_key(delivery), token, nx=True, px=int(seconds * 1000)))

    def lease_left(self, delivery: str) -> float:
        left = self.redis.pttl(self._lease_key(delivery))
        return max(0, int(left)) / 1000

    def release(self, delivery: str, token: str) -> None:
        self._release(keys=[self._lease_key(delivery)], args=[token])
