"""Seeks on Redis (``core.seeks.SeekStore``). A kind's seeks share a slot (``<prefix>:{seeks:
<kind>}`` on a cluster), so adding, cancelling and taking seeks are one script each:
``...:s:<id>`` a seek (JSON), ``...:open`` the open ones by time, ``...:by:<player>`` a
player's open ones (id to spec), ``...:matching`` the matches taken whose game is not
recorded yet; and ``<prefix>:seek:<id>`` the kind of a seek (to find it by its id alone).
A seek and its records live a day."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.seeks import SeekStore, spec
from events.keys import group
from projections.ratings import Ratings

KEPT_SECONDS = 24 * 3600

ADD_LUA = """
-- KEYS: seek, open, player's open; ARGV: id, seek (JSON), ms, limit, kept seconds, spec, fresh ms
local held = redis.call('HGETALL', KEYS[3])
local fresh = 0
for i = 1, #held, 2 do
  local made = redis.call('ZSCORE', KEYS[2], held[i])
  if made and tonumber(made) >= tonumber(ARGV[7]) then
    if held[i + 1] == ARGV[6] then return held[i] end
    fresh = fresh + 1
  end
end
if fresh >= tonumber(ARGV[4]) then return false end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[5])
return ARGV[1]
"""

CANCEL_LUA = """
-- KEYS: seek, open, player's open; ARGV: id, status
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local seek = cjson.decode(redis.call('GET', KEYS[1]))
seek['status'] = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(seek), 'KEEPTTL')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

TAKE_LUA = """
-- KEYS: open, matching, then per seek: its key, its player's open; ARGV: match id, ms, then the seek ids
for i = 3, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then return 0 end
end
for i = 3, #ARGV do
  local key = KEYS[1 + 2 * (i - 2)]
  local seek = cjson.decode(redis.call('GET', key))
  seek['status'] = 'matching'
  seek['match'] = ARGV[1]
  redis.call('SET', key, cjson.encode(seek), 'KEEPTTL')
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2 + 2 * (i - 2)], ARGV[i])
end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode({ids = {unpack(ARGV, 3)}, at = tonumber(ARGV[2])}))
return 1
"""


class RedisSeekStore(SeekStore):
    def __init__(self, client: Any, prefix: str, ratings: Ratings) -> None:
        self.redis = client
        self.prefix = prefix
        self.ratings = ratings
        self._add = client.register_script(ADD_LUA)
        self._cancel = client.register_script(CANCEL_LUA)
        self._take = client.register_script(TAKE_LUA)

    def _base(self, kind: str) -> str:
        return group(self.prefix, f"seeks:{kind}", self.redis)

    def _seek(self, kind: str, seek_id: str) -> str:
        return f"{self._base(kind)}:s:{seek_id}"

    def _by(self, kind: str, player_id: str) -> str:
        return f"{self._base(kind)}:by:{player_id}"

    def _index(self, seek_id: str) -> str:
        return f"{self.prefix}:seek:{seek_id}"

    def add(self, seek: dict[str, Any], limit: int, fresh_ms: int) -> str | None:
        kind = seek["kind"]
        # The index first: a crash after it leaves an index to nothing, never a seek no id finds.
        self.redis.set(self._index(seek["id"]), kind, ex=KEPT_SECONDS)
        keys = [self._seek(kind, seek["id"]), f"{self._base(kind)}:open", self._by(kind, seek["player"]["id"])]
        args = [seek["id"], json.dumps(seek), seek["created_ms"], limit, KEPT_SECONDS, spec(seek), fresh_ms]
        held = self._add(keys=keys, args=args)
        open_id = None if held is None else held.decode()
        if open_id != seek["id"]:
            self.redis.delete(self._index(seek["id"]))
        return open_id

    def get(self, seek_id: str) -> dict[str, Any] | None:
        kind = self.redis.get(self._index(seek_id))
        raw = None if kind is None else self.redis.get(self._seek(kind.decode(), seek_id))
        return None if raw is None else dict(json.loads(raw))

    def _many(self, kind: str, ids: Sequence[bytes]) -> list[dict[str, Any]]:
        if not ids:
            return []
        raw = self.redis.mget([self._seek(kind, seek_id.decode()) for seek_id in ids])
        return [json.loads(text) for text in raw if text is not None]

    def open_seeks(self, kind: str) -> list[dict[str, Any]]:
        return self._many(kind, self.redis.zrange(f"{self._base(kind)}:open", 0, -1))

    def lobby(self, kind: str, fresh_ms: int, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        key = f"{self._base(kind)}:open"
        total = int(self.redis.zcount(key, fresh_ms, "+inf"))
        return total, self._many(kind, self.redis.zrevrangebyscore(key, "+inf", fresh_ms, start=offset, num=limit))

    def cancel(self, seek: dict[str, Any], status: str = "cancelled") -> bool:
        kind = seek["kind"]
        keys = [self._seek(kind, seek["id"]), f"{self._base(kind)}:open", self._by(kind, seek["player"]["id"])]
        return bool(self._cancel(keys=keys, args=[seek["id"], status]))

    def take(self, kind: str, seek_ids: Sequence[str], match: str, now_ms: int) -> bool:
        seeks = [self.get(seek_id) for seek_id in seek_ids]
        if any(seek is None for seek in seeks):
            return False
        keys = [f"{self._base(kind)}:open", f"{self._base(kind)}:matching"]
        for seek in seeks:
            assert seek is not None
            keys += [self._seek(kind, seek["id"]), self._by(kind, seek["player"]["id"])]
        return bool(self._take(keys=keys, args=[match, now_ms, *seek_ids]))

    def matching(self, kind: str, before_ms: int) -> list[list[dict[str, Any]]]:
        found = []
        for raw in self.redis.hvals(f"{self._base(kind)}:matching"):
            taken = json.loads(raw)
            if taken["at"] < before_ms:
                seeks = [self.get(seek_id) for seek_id in taken["ids"]]
                found.append([seek for seek in seeks if seek is not None])
        return found

    def filled(self, kind: str, seek_ids: Sequence[str], game_id: str) -> None:
        match = None
        for seek_id in seek_ids:
            seek = self.get(seek_id)
            if seek is None:
                continue
            match = seek.get("match", match)
            seek.update(status="filled", game=game_id)
            self.redis.set(self._seek(kind, seek_id), json.dumps(seek), keepttl=True)
        if match is not None:
            self.redis.hdel(f"{self._base(kind)}:matching", match)

    def expire(self, kind: str, before_ms: int) -> int:
        stale = [raw.decode() for raw in self.redis.zrangebyscore(f"{self._base(kind)}:open", 0, f"({before_ms}")]
        gone = 0
        for seek_id in stale:
            seek = self.get(seek_id)
            if seek is not None and self.cancel(seek, "expired"):
                gone += 1
        return gone

    def rating(self, kind: str, player_id: str) -> int:
        now = self.redis.hget(self.ratings.key("current", kind), player_id)
        return round(json.loads(now)["rating"]) if now else 1500
