"""Read models built from the feed: the lobby, games by status and kind, finished games
with their outcome, and stats per kind.

They are kept per feed partition (see ``events.redis_store``), beside the partition's
games and feed: on a Redis Cluster the projector's writes for a game touch the slot its
events live in, and spread over the masters as the games do. The lists and the stats
merge the partitions when read. With one partition the keys are ``<prefix>:rm:...``.

Applying a game is idempotent: each game's last applied version is kept beside the
models and written in the same transaction, so a notice applied twice (a projector
killed between applying and acking) changes nothing the second time. A rebuild
from zero applies every game once and yields the same models as live play.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterator
from typing import Any

import redis
from redis.client import Pipeline

from events.keys import group, partition_of
from events.redis_store import partition_tags
from projections.table import Table

STATUSES = ("open", "active", "finished")
TURN = "turn"  # a player's list of the active games where one of its seats is to act


class ReadModels:
    def __init__(self, client: redis.Redis, prefix: str = "ts", partitions: int = 1) -> None:
        self.redis = client
        self.prefix = prefix
        self.partitions = partitions
        # An update watches and writes several models: one slot for them per partition.
        if partitions == 1:
            self._bases: tuple[str, ...] = (group(prefix, "rm", client),)
        else:
            self._bases = tuple(f"{prefix}:{{{tag}}}:rm" for tag in partition_tags(partitions))

    def key(self, *parts: str, partition: int = 0) -> str:
        return ":".join((self._bases[partition], *parts))

    def key_of(self, game_id: str, *parts: str) -> str:
        """A model key of the partition ``game_id`` belongs to."""
        return self.key(*parts, partition=partition_of(game_id, self.partitions))

    def applied_version(self, game_id: str) -> int:
        value = self.redis.hget(self.key_of(game_id, "applied"), game_id)
        return 0 if value is None else int(value)

    def statuses(self, game_ids: list[str]) -> list[str | None]:
        """Each game's status in the models (None: not applied yet)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hget(self.key_of(game_id, "status"), game_id)
            return [None if s is None else s.decode() for s in pipe.execute()]

    def ids(self, status: str) -> list[str]:
        """Every game of ``status``, from every partition."""
        with self.redis.pipeline(transaction=False) as pipe:
            for index in range(self.partitions):
                pipe.zrange(self.key("games", status, partition=index), 0, -1)
            return [game_id.decode() for ids in pipe.execute() for game_id in ids]

    def before(self, table: Table) -> tuple[bool, dict[str, Any] | None]:
        """Whether the models are behind ``table``, and the game's summary as they hold it
        (None for a game they have not seen)."""
        index = partition_of(table.game_id, self.partitions)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self.key("applied", partition=index), table.game_id)
            pipe.hget(self.key("summary", partition=index), table.game_id)
            applied, summary = pipe.execute()
        behind = applied is None or int(applied) < table.version
        return behind, None if summary is None else json.loads(summary)

    def apply(self, table: Table) -> bool:
        """Bring the models up to ``table``; False when they already are."""
        index = partition_of(table.game_id, self.partitions)
        applied_key = self.key("applied", partition=index)
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(applied_key)
                    applied = pipe.hget(applied_key, table.game_id)
                    if applied is not None and int(applied) >= table.version:
                        pipe.unwatch()
                        return False
                    previous = pipe.hget(self.key("status", partition=index), table.game_id)
                    pipe.multi()
                    self._write(pipe, table, None if previous is None else previous.decode(), index)
                    pipe.hset(applied_key, table.game_id, table.version)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def _write(self, pipe: Pipeline, table: Table, previous_status: str | None, index: int) -> None:
        def key(*parts: str) -> str:
            return self.key(*parts, partition=index)

        summary = table.summary()
        score = _epoch_ms(table.created_at)
        # Sorted keys: a table folded from the log and one cached by the process that appended
        # it hold equal dicts in different key orders, and the models must not depend on which.
        pipe.hset(key("summary"), table.game_id, json.dumps(summary, sort_keys=True))
        pipe.hset(key("status"), table.game_id, table.status)
        # The lobby's lists, each player's own ("my games") and each player's public ones (its
        # profile). An unlisted game is in its players' own lists only; an open game whose
        # open seats are all reserved or by invite is not in the lobby until it starts.
        listed = not table.unlisted and (table.status != "open" or any(seat.public for seat in table.seats))
        players = [seat.player for seat in table.seats if seat.player]
        lists = [((), listed), *((("player", p), True) for p in players)]
        lists += [(("player", p, "public"), not table.unlisted) for p in players]
        for owner, shown in lists:
            for status in (*STATUSES, "all"):
                if shown and status in (table.status, "all"):
                    pipe.zadd(key(*owner, "games", status), {table.game_id: score})
                    pipe.zadd(key(*owner, "games", status, table.kind), {table.game_id: score})
                else:
                    pipe.zrem(key(*owner, "games", status), table.game_id)
                    pipe.zrem(key(*owner, "games", status, table.kind), table.game_id)
        # Each player's games where a seat of its own is to act: "my games" filtered by my_turn.
        to_act = table.to_act() if table.status == "active" else set()
        for p in players:
            mine = any(seat.player == p and i in to_act for i, seat in enumerate(table.seats))
            for turn in (key("player", p, "games", TURN), key("player", p, "games", TURN, table.kind)):
                if mine:
                    pipe.zadd(turn, {table.game_id: score})
                else:
                    pipe.zrem(turn, table.game_id)
        stats = key("stats", table.kind)
        if previous_status is None:
            pipe.hincrby(stats, "games", 1)
        if table.status == "finished" and previous_status != "finished":
            pipe.hincrby(stats, "finished", 1)
            pipe.hincrby(stats, "total_versions", table.version)
            outcome = table.outcome or {}
            pipe.hincrby(stats, f"endings:{outcome.get('ending', 'rules')}", 1)
            if outcome.get("counts", True):
                for seat in outcome.get("winners", []):
                    pipe.hincrby(stats, f"wins_by_seat:{seat}", 1)
                    level = table.seats[seat].bot or "human"
                    pipe.hincrby(stats, f"wins_by_level:{level}", 1)
            else:  # an abort, or a game the turn timer decided: no one's win
                pipe.hincrby(stats, "uncounted", 1)

    def games(
        self, status: str | None, kind: str | None, offset: int, limit: int, player: str | None = None
    ) -> tuple[int, list[dict[str, Any]]]:
        """A page of the games of ``status`` and ``kind`` (those of ``player`` if given: its
        id, or ``<id>/public`` for those shown on its profile), newest first, across the
        partitions (each partition's first ``offset + limit``, merged by creation time then
        id)."""
        parts = (
            *(("player", *player.split("/")) if player else ()),
            "games",
            status or "all",
            *([kind] if kind else []),
        )
        with self.redis.pipeline(transaction=False) as pipe:
            for index in range(self.partitions):
                pipe.zcard(self.key(*parts, partition=index))
                pipe.zrevrange(self.key(*parts, partition=index), 0, offset + limit - 1, withscores=True)
            replies = pipe.execute()
        total = sum(replies[0::2])
        runs = [[(-score, _desc(member), member.decode()) for member, score in run] for run in replies[1::2]]
        ids = [game_id for *_, game_id in heapq.merge(*runs)][offset : offset + limit]
        if not ids:
            return total, []
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in ids:
                pipe.hget(self.key_of(game_id, "summary"), game_id)
            raw = pipe.execute()
        return total, [json.loads(r) for r in raw if r is not None]

    def stats(self) -> dict[str, dict[str, Any]]:
        totals: dict[str, dict[str, int]] = {}
        for key in self._keys("stats:*"):
            kind = key.rsplit(":", 1)[1]
            into = totals.setdefault(kind, {})
            for field, value in self.redis.hgetall(key).items():
                into[field.decode()] = into.get(field.decode(), 0) + int(value)
        out = {}
        for kind, raw in sorted(totals.items()):
            finished = raw.get("finished", 0)
            out[kind] = {
                "games": raw.get("games", 0),
                "finished": finished,
                "average_versions": round(raw.get("total_versions", 0) / finished, 1) if finished else None,
                "wins_by_seat": {k.split(":")[1]: v for k, v in raw.items() if k.startswith("wins_by_seat:")},
                "wins_by_level": {k.split(":")[1]: v for k, v in raw.items() if k.startswith("wins_by_level:")},
                "endings": {k.split(":")[1]: v for k, v in raw.items() if k.startswith("endings:")},
                "uncounted": raw.get("uncounted", 0),
            }
        return out

    def snapshot(self) -> dict[str, Any]:
        """Every model's content, for comparing a rebuild with live models."""
        out: dict[str, Any] = {}
        for name in sorted(self._keys("*")):
            kind = self.redis.type(name).decode()
            if kind == "hash":
                out[name] = {k.decode(): v.decode() for k, v in self.redis.hgetall(name).items()}
            elif kind == "zset":
                out[name] = [m.decode() for m in self.redis.zrange(name, 0, -1)]
        return out

    def clear(self) -> None:
        for name in list(self._keys("*")):
            self.redis.delete(name)

    def _keys(self, pattern: str) -> Iterator[str]:
        """The model keys matching ``pattern`` (after ``<base>:``) in every partition."""
        bases = set(self._bases)
        match = f"{self.prefix}:{{*}}:rm:{pattern}" if self.partitions > 1 else f"{self._bases[0]}:{pattern}"
        for key in self.redis.scan_iter(match=match, count=1000):
            name = key.decode()
            if self.partitions == 1 or name[: name.index("}") + 4] in bases:
                yield name


def _desc(member: bytes) -> bytes:
    """A sort key putting ``member`` in descending byte order (as ZREVRANGE orders ties)."""
    return bytes(255 - b for b in member) + b"\xff"


def _epoch_ms(iso: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)
