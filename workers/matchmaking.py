"""Automatch (``core.seeks``): ``match`` pairs a kind's open seeks; the job ``match_kind``
runs it, enqueued as each seek arrives and by the reconcile. A match is taken before its
game is made and its game is made under a command id of the match's own, so a worker
killed between the two leaves the match for the next run, which makes the same game once."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import redis
from rq import Queue

from core.jobs import QueueUnavailable, queue_names
from core.seeks import LEFT_SECONDS, SEEK_SECONDS, match_id, plan
from games import registry
from stores.platform import Platform
from workers.runtime import current

MATCH_TIMEOUT = 120


def match_kind(kind: str) -> str:
    platform = current()
    # Before the seeks are read: a seek that comes after this enqueues a run of its own.
    platform.queue_redis.delete(pending_key(platform, kind))
    return f"{match(platform, kind)} games made"


def pending_key(platform: Platform, kind: str) -> str:
    """Set while a run of the kind's match is queued and not yet started."""
    return f"{platform.config.prefix}:match-pending:{kind}"


class RQMatches:
    """``core.seeks.MatchRunner`` on RQ. A burst of seeks is one run: a seek that finds a run
    of its kind queued and not yet started leaves it to that run, which reads the seeks when
    it starts. The marker lapses after ``MATCH_TIMEOUT``, so a run lost with its queue holds
    no kind back for long (and the reconcile schedules again)."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def schedule(self, kind: str) -> None:
        connection = self.platform.queue_redis
        pending = pending_key(self.platform, kind)
        try:
            queue = Queue(queue_names(self.platform.config.prefix)[0], connection=connection)
            if not connection.set(pending, 1, nx=True, ex=MATCH_TIMEOUT):
                return
            queue.enqueue_call(
                match_kind,
                args=(kind,),
                job_id=f"match-{self.platform.config.prefix}-{kind}-{time.time_ns()}",
                timeout=MATCH_TIMEOUT,
                result_ttl=600,
            )
        except redis.RedisError as error:
            with contextlib.suppress(redis.RedisError):
                connection.delete(pending)
            raise QueueUnavailable(str(error)) from error


def match(platform: Platform, kind: str, now_ms: int | None = None) -> int:
    """Finish the matches a killed run left, expire old seeks, then seat every group of
    compatible open seeks; how many games were made."""
    seeks = platform.seeks
    made = 0
    now = int(time.time() * 1000) if now_ms is None else now_ms
    for taken in seeks.matching(kind, now - LEFT_SECONDS * 1000):  # those a dead worker left
        made += _made(platform, kind, taken)
    seeks.expire(kind, now - SEEK_SECONDS * 1000)
    for group in plan(seeks.open_seeks(kind), platform.moderation.blocked_between):
        ids = [seek["id"] for seek in group]
        if seeks.take(kind, ids, match_id(ids), now):
            made += _made(platform, kind, [{**seek, "match": match_id(ids)} for seek in group])
    return made


def _made(platform: Platform, kind: str, group: list[dict[str, Any]]) -> int:
    ids = [seek["id"] for seek in group]
    match = match_id(ids)
    order = list(group)
    random.Random(match).shuffle(order)  # who sits first: the match's own draw, the same on a rerun
    players = [{"name": s["player"]["name"], "player": s["player"]["id"], **_account(s)} for s in order]
    first = group[0]
    created = platform.handler.create_game(
        kind,
        players,
        command_id=match,
        rated=bool(first["rated"]),
        lifecycle={"clock": first["clock"]} if first["clock"] else None,
    )
    game_id = created.table.game_id
    platform.seeks.filled(kind, ids, game_id)
    for seat, seek in enumerate(order):
        platform.inbox.push(
            seek["player"]["id"],
            {"type": "seek_filled", "seek": seek["id"], "game": game_id, "kind": kind, "seat": seat},
        )
    return 1


def _account(seek: dict[str, Any]) -> dict[str, str]:
    return {"account": "bot"} if seek["player"].get("account") == "bot" else {}


def reconcile_seeks(platform: Platform) -> int:
    """Schedule a match of every kind with open or half-made seeks (the reconcile's part: a
    queue that lost its data leaves no seek waiting for ever); how many kinds."""
    kinds = [
        kind for kind in registry.keys() if platform.seeks.open_seeks(kind) or platform.seeks.matching(kind, 2**62)
    ]
    for kind in kinds:
        RQMatches(platform).schedule(kind)
    return len(kinds)
