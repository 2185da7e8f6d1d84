"""Read models built from the global feed: the lobby, games by status and kind,
finished games with their outcome, and stats per kind.

Applying a game is idempotent: each game's last applied version is kept beside the
models and written in the same transaction, so a notice applied twice (a projector
killed between applying and acking) changes nothing the second time. A rebuild
from zero applies every game once and yields the same models as live play.
"""

from __future__ import annotations

import json
from typing import Any

import redis
from redis.client import Pipeline

from events.keys import group
from projections.table import Table

STATUSES = ("open", "active", "finished")


class ReadModels:
    def __init__(self, client: redis.Redis, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix

    def key(self, *parts: str) -> str:
        # One slot for every model on a cluster: an update watches and writes several.
        return ":".join((group(self.prefix, "rm", self.redis), *parts))

    def applied_version(self, game_id: str) -> int:
        value = self.redis.hget(self.key("applied"), game_id)
        return 0 if value is None else int(value)

    def apply(self, table: Table) -> bool:
        """Bring the models up to ``table``; False when they already are."""
        applied_key = self.key("applied")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(applied_key)
                    applied = pipe.hget(applied_key, table.game_id)
                    if applied is not None and int(applied) >= table.version:
                        pipe.unwatch()
                        return False
                    previous = pipe.hget(self.key("status"), table.game_id)
                    pipe.multi()
                    self._write(pipe, table, None if previous is None else previous.decode())
                    pipe.hset(applied_key, table.game_id, table.version)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def _write(self, pipe: Pipeline, table: Table, previous_status: str | None) -> None:
        summary = table.summary()
        summary["to_act"] = []
        score = _epoch_ms(table.created_at)
        # Sorted keys: a table folded from the log and one cached by the process that appended
        # it hold equal dicts in different key orders, and the models must not depend on which.
        pipe.hset(self.key("summary"), table.game_id, json.dumps(summary, sort_keys=True))
        pipe.hset(self.key("status"), table.game_id, table.status)
        for status in STATUSES:
            if status != table.status:
                pipe.zrem(self.key("games", status), table.game_id)
                pipe.zrem(self.key("games", status, table.kind), table.game_id)
        pipe.zadd(self.key("games", table.status), {table.game_id: score})
        pipe.zadd(self.key("games", table.status, table.kind), {table.game_id: score})
        pipe.zadd(self.key("games", "all"), {table.game_id: score})
        pipe.zadd(self.key("games", "all", table.kind), {table.game_id: score})
        stats = self.key("stats", table.kind)
        if previous_status is None:
            pipe.hincrby(stats, "games", 1)
        if table.status == "finished" and previous_status != "finished":
            pipe.hincrby(stats, "finished", 1)
            pipe.hincrby(stats, "total_versions", table.version)
            for seat in (table.outcome or {}).get("winners", []):
                pipe.hincrby(stats, f"wins_by_seat:{seat}", 1)
                level = table.seats[seat].bot or "human"
                pipe.hincrby(stats, f"wins_by_level:{level}", 1)

    def games(self, status: str | None, kind: str | None, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        key = self.key("games", status or "all", *([kind] if kind else []))
        total = self.redis.zcard(key)
        ids = [i.decode() for i in self.redis.zrevrange(key, offset, offset + limit - 1)]
        raw = self.redis.hmget(self.key("summary"), ids) if ids else []
        return total, [json.loads(r) for r in raw if r is not None]

    def stats(self) -> dict[str, dict[str, Any]]:
        out = {}
        for key in self.redis.scan_iter(match=self.key("stats", "*")):
            kind = key.decode().rsplit(":", 1)[1]
            raw = {k.decode(): int(v) for k, v in self.redis.hgetall(key).items()}
            finished = raw.get("finished", 0)
            out[kind] = {
                "games": raw.get("games", 0),
                "finished": finished,
                "average_versions": round(raw.get("total_versions", 0) / finished, 1) if finished else None,
                "wins_by_seat": {k.split(":")[1]: v for k, v in raw.items() if k.startswith("wins_by_seat:")},
                "wins_by_level": {k.split(":")[1]: v for k, v in raw.items() if k.startswith("wins_by_level:")},
            }
        return out

    def snapshot(self) -> dict[str, Any]:
        """Every model's content, for comparing a rebuild with live models."""
        out: dict[str, Any] = {}
        for key in sorted(self.redis.scan_iter(match=self.key("*"))):
            name = key.decode()
            kind = self.redis.type(key).decode()
            if kind == "hash":
                out[name] = {k.decode(): v.decode() for k, v in self.redis.hgetall(key).items()}
            elif kind == "zset":
                out[name] = [m.decode() for m in self.redis.zrange(key, 0, -1)]
        return out

    def clear(self) -> None:
        for key in list(self.redis.scan_iter(match=self.key("*"))):
            self.redis.delete(key)


def _epoch_ms(iso: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)
