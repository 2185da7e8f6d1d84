"""Moderation on Redis (``core.moderation.ModerationStore``).

Keys: ``<prefix>:mod:<player id>:blocks`` the ids a player blocks (a set; each player's
in a slot of its own on a cluster, ``<prefix>:mod:{<player id>}:blocks``);
``<prefix>:mod:<game>:<player id>:mutes`` the ids a player muted in a game; the reports
under ``<prefix>:reports`` (``<prefix>:{reports}`` on a cluster: one slot, as filing one
checks its reporter's count and writes in one script): ``:r:<id>`` a report (JSON),
``:open`` and ``:resolved`` their ids by time, ``:by:<reporter id>`` a reporter's open ones.
Reports are few (a reporter has a handful open at most): their one slot is on no route a
crowd calls.
"""

from __future__ import annotations

import json
import time
from typing import Any

from core.moderation import ModerationStore
from events.keys import clustered, group

FILE_LUA = """
-- KEYS: report, open, reporter's open; ARGV: id, report (JSON), ms, limit
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
"""

RESOLVE_LUA = """
-- KEYS: report, open, resolved, reporter's open; ARGV: id, resolution (JSON), ms
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return false end
local report = cjson.decode(redis.call('GET', KEYS[1]))
for field, value in pairs(cjson.decode(ARGV[2])) do report[field] = value end
report['status'] = 'resolved'
local text = cjson.encode(report)
redis.call('SET', KEYS[1], text)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return text
"""


class RedisModerationStore(ModerationStore):
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        self.cluster = clustered(client)
        self.reports_base = group(prefix, "reports", client)
        self._file = client.register_script(FILE_LUA)
        self._resolve = client.register_script(RESOLVE_LUA)

    def _tag(self, name: str) -> str:
        return f"{{{name}}}" if self.cluster else name

    def _blocks(self, player_id: str) -> str:
        return f"{self.prefix}:mod:{self._tag(player_id)}:blocks"

    def _mutes(self, game_id: str, player_id: str) -> str:
        return f"{self.prefix}:mod:{self._tag(game_id)}:{player_id}:mutes"

    def block(self, player_id: str, other_id: str, limit: int) -> bool:
        key = self._blocks(player_id)
        if self.redis.scard(key) >= limit and not self.redis.sismember(key, other_id):
            return False
        self.redis.sadd(key, other_id)
        return True

    def unblock(self, player_id: str, other_id: str) -> None:
        self.redis.srem(self._blocks(player_id), other_id)

    def blocks(self, player_id: str) -> set[str]:
        return {member.decode() for member in self.redis.smembers(self._blocks(player_id))}

    def mute(self, game_id: str, player_id: str, other_id: str) -> None:
        self.redis.sadd(self._mutes(game_id, player_id), other_id)

    def unmute(self, game_id: str, player_id: str, other_id: str) -> None:
        self.redis.srem(self._mutes(game_id, player_id), other_id)

    def mutes(self, game_id: str, player_id: str) -> set[str]:
        return {member.decode() for member in self.redis.smembers(self._mutes(game_id, player_id))}

    def _report_key(self, report_id: str) -> str:
        return f"{self.reports_base}:r:{report_id}"

    def file_report(self, report: dict[str, Any], limit: int) -> bool:
        keys = [
            self._report_key(report["id"]),
            f"{self.reports_base}:open",
            f"{self.reports_base}:by:{report['reporter']['id']}",
        ]
        now_ms = int(time.time() * 1000)
        return bool(self._file(keys=keys, args=[report["id"], json.dumps(report), now_ms, limit]))

    def reports(self, status: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        index = f"{self.reports_base}:{status}"
        total = int(self.redis.zcard(index))
        ids = [member.decode() for member in self.redis.zrange(index, offset, offset + limit - 1)]
        if not ids:
            return total, []
        raw = self.redis.mget([self._report_key(report_id) for report_id in ids])
        return total, [json.loads(text) for text in raw if text is not None]

    def resolve(self, report_id: str, resolution: dict[str, Any]) -> dict[str, Any] | None:
        stored = self.redis.get(self._report_key(report_id))
        if stored is None:
            return None
        reporter = json.loads(stored)["reporter"]["id"]  # never changes: read ahead of the script
        keys = [
            self._report_key(report_id),
            f"{self.reports_base}:open",
            f"{self.reports_base}:resolved",
            f"{self.reports_base}:by:{reporter}",
        ]
        text = self._resolve(keys=keys, args=[report_id, json.dumps(resolution), int(time.time() * 1000)])
        return None if text is None else dict(json.loads(text))
