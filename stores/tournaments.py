"""Tournaments on Redis (``core.tournaments.TournamentStore``): each tournament's log is a
list of JSON events, ``<prefix>:tn:<id>:log`` (``<prefix>:tn:{<id>}:log`` on a cluster:
each tournament in a slot of its own), appended by a script at an expected length; and
``<prefix>:tournaments`` (``<prefix>:{tournaments}``) their ids by creation time, and
``...:running`` the ids of those under way (what the reconcile looks at)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from core.tournaments import TournamentStore
from events.keys import clustered, group

APPEND_LUA = """
-- KEYS: the log; ARGV: expected length, then each event (JSON)
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
for i = 2, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
return 1
"""


class RedisTournamentStore(TournamentStore):
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        self.cluster = clustered(client)
        self.index = group(prefix, "tournaments", client)
        self._append = client.register_script(APPEND_LUA)

    def _log(self, tournament_id: str) -> str:
        tag = f"{{{tournament_id}}}" if self.cluster else tournament_id
        return f"{self.prefix}:tn:{tag}:log"

    def append(self, tournament_id: str, expected: int, events: Sequence[dict[str, Any]]) -> bool:
        done = bool(self._append(keys=[self._log(tournament_id)], args=[expected, *map(json.dumps, events)]))
        if done and expected == 0:
            self.redis.zadd(self.index, {tournament_id: time.time()})
        types = {event["type"] for event in events} if done else set()
        if "Started" in types:
            self.redis.sadd(f"{self.index}:running", tournament_id)
        if "Finished" in types:
            self.redis.srem(f"{self.index}:running", tournament_id)
        return done

    def running(self) -> list[str]:
        return sorted(raw.decode() for raw in self.redis.smembers(f"{self.index}:running"))

    def read(self, tournament_id: str) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.redis.lrange(self._log(tournament_id), 0, -1)]

    def ids(self, offset: int, limit: int) -> tuple[int, list[str]]:
        total = int(self.redis.zcard(self.index))
        return total, [raw.decode() for raw in self.redis.zrevrange(self.index, offset, offset + limit - 1)]
