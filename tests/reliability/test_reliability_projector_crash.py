"""The read-model projector is killed (`kill -9`) 20 times while the
feed streams in; after it restarts, the read models equal a rebuild from zero. Some
of the games are rated games between players: the players' lists and the
ratings equal a rebuild too."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core.config import Config
from core.errors import CommandError
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from tests.short import short
from workers.projector import GROUP, Projector
from workers.scheduling import InlineBots

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KILLS = 20
KINDS = ["fortress-royals", "fortress-siege", "dragoborne", "stomping-grounds", "dragon-fortress"]


def rated_game(platform: Platform, players: list[dict[str, Any]], rng: random.Random) -> None:
    """A rated game between two of ``players``, played to its end at once."""
    a, b = rng.sample(players, 2)
    seats = [{"name": p["name"], "player": p["id"]} for p in (a, b)]
    table = platform.handler.create_game(rng.choice(["fortress-royals", "fortress-siege"]), seats, rated=True).table
    while table.status == "active":
        seat = min(table.to_act())
        action = rng.choice(table.game.legal_actions(table.state, seat))
        table = platform.handler.act(table.game_id, seat, action, table.version).table


def load(platform: Platform, stop: threading.Event, counts: dict[str, int], players: list[dict[str, Any]]) -> None:
    """A stream of appends: whole bot games (played inline, so they finish), rated games
    between players (played to the end), games of humans who play a few random moves, and
    open games that someone joins later."""
    rng = random.Random(5)
    humans: list[str] = []
    while not stop.is_set():
        kind = rng.choice(KINDS)
        size = 3 if kind == "dragon-fortress" else 2
        roll = rng.random()
        try:
            if roll < 0.05:
                rated_game(platform, players, rng)
                counts["rated"] += 1
            elif roll < 0.15:
                # Short, as each is played to its end inline: the load stops between commands.
                platform.handler.create_game(kind, [{"bot": "random"}] * size, options=short(kind))
            elif roll < 0.3:
                created = platform.handler.create_game(kind, [{"open": True}] + [{"name": "ann"}] * (size - 1))
                if rng.random() < 0.5:
                    platform.handler.join(created.table.game_id, 0, "joiner")
            elif roll < 0.45 or not humans:
                humans.append(
                    platform.handler.create_game(kind, [{"name": f"p{i}"} for i in range(size)]).table.game_id
                )
            else:
                table = platform.handler.load(rng.choice(humans))
                if table.status == "active":
                    seat = min(table.to_act())
                    action = rng.choice(table.game.legal_actions(table.state, seat))
                    platform.handler.act(table.game_id, seat, action, table.version)
            counts["commands"] += 1
        except CommandError:
            pass
        time.sleep(0.002)


def group_info(platform: Platform) -> dict[str, int]:
    """The projector group's entries read so far and entries handed out but not acked."""
    if not platform.redis.exists(platform.store.feed_key):
        return {"read": 0, "pending": 0}
    for group in platform.redis.xinfo_groups(platform.store.feed_key):
        if group["name"].decode() == GROUP:
            return {"read": int(group.get("entries-read") or 0), "pending": int(group["pending"])}
    return {"read": 0, "pending": 0}


def test_kill_9_the_projector_twenty_times_read_models_equal_a_rebuild(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "proj"
    platform = Platform(Config(redis_url=own_redis.url, prefix=prefix), own_redis.client())
    platform.handler.scheduler = InlineBots(platform)
    env = service_env(own_redis.url, prefix)
    stop = threading.Event()
    counts = {"commands": 0, "rated": 0}
    players = [platform.players.register(name)[0] for name in ("ann", "bob", "cleo", "dora")]
    loader = threading.Thread(target=load, args=(platform, stop, counts, players), daemon=True)
    rng = random.Random(6)
    started = time.monotonic()
    feed_at_kill, read_at_kill, pending_at_kill = [], [], []
    try:
        loader.start()
        for index in range(KILLS):
            read_before = group_info(platform)["read"]
            projector = Service(["projector"], env, tmp_path / f"projector-{index}.log").start()
            try:
                # Killed only once it is consuming the feed, at a random moment after that.
                wait_for(
                    lambda: group_info(platform)["read"] > read_before or not projector.alive(),  # noqa: B023
                    60,
                    0.02,
                    "the projector reading the feed",
                )
                time.sleep(rng.uniform(0.1, 0.8))
                assert projector.alive(), f"the projector died by itself: {projector.log()}"
                info = group_info(platform)
                feed_at_kill.append(platform.redis.xlen(platform.store.feed_key))
                read_at_kill.append(info["read"] - read_before)
                pending_at_kill.append(info["pending"])
            finally:
                projector.kill9()
        stop.set()
        loader.join(timeout=60)
        assert not loader.is_alive(), "the load did not stop"
        for kind in KINDS:  # news for the restarted projector, whatever its predecessors finished
            platform.handler.create_game(kind, [{"name": "ann"}] * (3 if kind == "dragon-fortress" else 2))
        caught_up_before = Projector(platform).caught_up()
        final = Service(["projector"], env, tmp_path / "projector-final.log").start()
        try:
            checker = Projector(platform)
            caught_up_in = time.monotonic()
            wait_for(checker.caught_up, 120, 0.1, "the restarted projector catching up")
            caught_up_in = time.monotonic() - caught_up_in
        finally:
            final.stop()
    finally:
        stop.set()
    # Every projector process was one consumer (named after the host): each restarted one
    # first finished the entries its killed predecessor had been handed.
    consumers = [c["name"].decode() for c in platform.redis.xinfo_consumers(platform.store.feed_key, GROUP)]
    models = platform.read_models
    live = models.snapshot()
    live_ratings = platform.ratings.snapshot()
    games = Projector(platform).rebuild()
    rebuilt = models.snapshot()
    rebuilt_ratings = platform.ratings.snapshot()
    differing = sorted(k for k in set(live) | set(rebuilt) if live.get(k) != rebuilt.get(k))
    details = []
    for key in differing:
        mine, theirs = live.get(key), rebuilt.get(key)
        if isinstance(mine, dict) and isinstance(theirs, dict):
            for field in sorted(set(mine) | set(theirs)):
                a, b = mine.get(field), theirs.get(field)
                if a != b:
                    try:
                        a_, b_ = json.loads(a or "{}"), json.loads(b or "{}")
                        fields = {f: (a_.get(f), b_.get(f)) for f in set(a_) | set(b_) if a_.get(f) != b_.get(f)}
                    except (ValueError, AttributeError):
                        fields = {"value": (a, b)}
                    details.append((key, field, fields))
    stats = {kind: s["finished"] for kind, s in models.stats().items()}
    print(
        f"projector crash: {len(feed_at_kill)} kill -9 of the projector in {time.monotonic() - started:.1f} s "
        f"({counts['commands']} commands; feed length at each kill {feed_at_kill}; entries each projector read "
        f"before its kill {read_at_kill}; entries handed out and not acked at each kill {pending_at_kill}); "
        f"caught up before the restart: {caught_up_before}; the restarted projector caught up in {caught_up_in:.1f} s; "
        f"consumers {consumers}; {games} games, finished per kind {stats}; "
        f"read models differing from a rebuild from zero: {len(differing)}; {counts['rated']} rated games, "
        f"{sum(1 for k in live if ':player:' in k)} players' lists, ratings equal to a rebuild: "
        f"{live_ratings == rebuilt_ratings}"
    )
    assert len(feed_at_kill) == KILLS and all(n > 0 for n in read_at_kill)
    assert feed_at_kill[-1] > feed_at_kill[0], "the feed did not stream while the projector was killed"
    assert not caught_up_before, "nothing was left for the restarted projector to do"
    assert len(consumers) == 1
    assert not differing, details or differing
    assert counts["rated"] > 0 and any(":board:" in key for key in live_ratings), "no rated game was rated"
    assert live_ratings == rebuilt_ratings, "the ratings differ from a rebuild from the ledger"
