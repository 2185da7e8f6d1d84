"""Ratings: Glicko-2 per kind, for rated games between players.

A read model like the others, with one difference: a rating depends on the order games
were rated in, so ratings are folded from the ledger of finished games (one total order,
``events.ledger``) and not from the feed (one order per partition). ``catch_up`` rates
every ledger entry after the last one rated, in index order, each in one transaction that
also moves the mark; a rebuild rates the whole ledger again and gets the same numbers.

Each rated game is one rating period: every player's result against each other player of
the game (1 for a winner against a loser, 0 the other way, 0.5 between two winners or two
losers), rated against the opponents' ratings from before the game. The update itself is
the ``glicko2`` package's (Glickman's algorithm, checked against his worked example in
``tests/platform/test_ratings.py``); new players start at 1500, deviation 350, volatility
0.06, and the system constant is 0.5.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import glicko2
import redis

from events.keys import group
from events.ledger import Ledger
from projections.table import Table

START = {"rating": 1500.0, "rd": 350.0, "vol": 0.06, "games": 0}


def rate(
    before: Mapping[str, Mapping[str, float]], winners: set[str], players: list[str]
) -> dict[str, dict[str, float]]:
    """Each player's rating after one game among ``players`` that ``winners`` won, from
    their ratings ``before`` (absent: a new player)."""
    current = {p: dict(before.get(p) or START) for p in players}
    after = {}
    for p in players:
        others = [q for q in players if q != p]
        if not others:
            continue
        outcomes = [
            1.0 if (p in winners and q not in winners) else 0.0 if (q in winners and p not in winners) else 0.5
            for q in others
        ]
        rated = glicko2.Player(rating=current[p]["rating"], rd=current[p]["rd"], vol=current[p]["vol"])
        rated.update_player([current[q]["rating"] for q in others], [current[q]["rd"] for q in others], outcomes)
        after[p] = {"rating": rated.rating, "rd": rated.rd, "vol": rated.vol, "games": current[p]["games"] + 1}
    return after


class Ratings:
    def __init__(self, client: Any, ledger: Ledger, prefix: str = "ts") -> None:
        self.redis = client
        self.ledger = ledger
        self.base = group(prefix, "ratings", client)  # one slot: a game's update is one transaction

    def key(self, *parts: str) -> str:
        return ":".join((self.base, *parts))

    def catch_up(self, load: Callable[[str], Table | None]) -> int:
        """Rate every ledger entry after the last one rated, in order; how many were rated."""
        rated = 0
        applied = int(self.redis.get(self.key("applied")) or 0)
        while entries := self.ledger.page(after=applied, limit=100):
            for entry in entries:
                table = load(entry["game"])
                if self._apply(entry, table if table is not None and table.rated else None):
                    rated += 1
                applied = entry["index"]
        return rated

    def _apply(self, entry: Mapping[str, Any], table: Table | None) -> bool:
        index = int(entry["index"])
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self.key("applied"))
                    if int(pipe.get(self.key("applied")) or 0) >= index:
                        pipe.unwatch()
                        return False  # another projector rated it
                    updates: dict[str, dict[str, float]] = {}
                    if table is not None and (table.outcome or {}).get("counts", True):
                        seated = [s.player for s in table.seats if s.player]
                        raw = pipe.hmget(self.key("current", table.kind), seated) if seated else []
                        before = {p: json.loads(r) for p, r in zip(seated, raw, strict=True) if r is not None}
                        winners = {table.seats[w].player for w in (table.outcome or {}).get("winners", [])}
                        updates = rate(before, {w for w in winners if w}, seated)
                    pipe.multi()
                    for player, now in updates.items():
                        assert table is not None
                        pipe.hset(self.key("current", table.kind), player, json.dumps(now, sort_keys=True))
                        pipe.zadd(self.key("board", table.kind), {player: now["rating"]})
                        point = {"game": table.game_id, "index": index, "at": entry["at"], **now}
                        pipe.rpush(self.key("history", table.kind, player), json.dumps(point, sort_keys=True))
                    pipe.set(self.key("applied"), index)
                    pipe.execute()
                    return bool(updates)
                except redis.WatchError:
                    continue

    def leaderboard(self, kind: str, limit: int) -> list[dict[str, Any]]:
        top = self.redis.zrevrange(self.key("board", kind), 0, limit - 1)
        ids = [p.decode() for p in top]
        raw = self.redis.hmget(self.key("current", kind), ids) if ids else []
        return [{"player": p, **json.loads(r)} for p, r in zip(ids, raw, strict=True) if r is not None]

    def of(self, player: str) -> dict[str, Any]:
        """Per kind: the player's rating now and its history, oldest first."""
        out = {}
        for key in self.redis.scan_iter(match=self.key("current", "*")):
            kind = key.decode().rsplit(":", 1)[1]
            now = self.redis.hget(key, player)
            if now is not None:
                history = [json.loads(h) for h in self.redis.lrange(self.key("history", kind, player), 0, -1)]
                out[kind] = {**json.loads(now), "history": history}
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything rated, for comparing a rebuild with live ratings."""
        out: dict[str, Any] = {}
        for key in sorted(k.decode() for k in self.redis.scan_iter(match=self.key("*"))):
            kind = self.redis.type(key).decode()
            out[key] = (
                self.redis.hgetall(key)
                if kind == "hash"
                else self.redis.zrange(key, 0, -1, withscores=True)
                if kind == "zset"
                else self.redis.lrange(key, 0, -1)
                if kind == "list"
                else self.redis.get(key)
            )
        return out

    def clear(self) -> None:
        for key in list(self.redis.scan_iter(match=self.key("*"))):
            self.redis.delete(key)
