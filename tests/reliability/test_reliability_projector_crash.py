"""Check 5 of issue 12: the read-model projector is killed (`kill -9`) 20 times while the
feed streams in; after it restarts, the read models equal a rebuild from zero."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from projections.read_models import ReadModels
from service.config import Config
from service.errors import CommandError
from service.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from workers.projector import Projector
from workers.scheduling import InlineBots

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KILLS = 20
KINDS = ["fortress-royals", "fortress-siege", "dragoborne", "stomping-grounds", "dragon-fortress"]


def load(platform: Platform, stop: threading.Event, counts: dict[str, int]) -> None:
    """A stream of appends: whole bot games (played inline, so they finish), games of humans
    who play a few random moves, and open games that someone joins later."""
    rng = random.Random(5)
    humans: list[str] = []
    while not stop.is_set():
        kind = rng.choice(KINDS)
        size = 3 if kind == "dragon-fortress" else 2
        roll = rng.random()
        try:
            if roll < 0.15:
                platform.handler.create_game(kind, [{"bot": "random"}] * size)
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


def test_kill_9_the_projector_twenty_times_read_models_equal_a_rebuild(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    prefix = "proj"
    platform = Platform(Config(redis_url=server.url, prefix=prefix), server.client())
    platform.handler.scheduler = InlineBots(platform)
    env = service_env(server.url, prefix)
    stop = threading.Event()
    counts = {"commands": 0}
    loader = threading.Thread(target=load, args=(platform, stop, counts), daemon=True)
    rng = random.Random(6)
    started = time.monotonic()
    feed_at_kill = []
    try:
        loader.start()
        for index in range(KILLS):
            projector = Service(["projector"], env, tmp_path / f"projector-{index}.log").start()
            time.sleep(rng.uniform(0.4, 1.2))
            feed_at_kill.append(platform.redis.xlen(platform.store.feed_key))
            projector.kill9()
        stop.set()
        loader.join(timeout=60)
        assert not loader.is_alive(), "the load did not stop"
        for kind in KINDS:  # news for the restarted projector, whatever its predecessors finished
            platform.handler.create_game(kind, [{"name": "ann"}] * (3 if kind == "dragon-fortress" else 2))
        pending = Projector(platform).caught_up()
        final = Service(["projector"], env, tmp_path / "projector-final.log").start()
        try:
            checker = Projector(platform)
            caught_up_in = time.monotonic()
            wait_for(checker.caught_up, 60, 0.1, "the restarted projector catching up")
            caught_up_in = time.monotonic() - caught_up_in
        finally:
            final.stop()
    finally:
        stop.set()
    models = ReadModels(platform.redis, prefix)
    live = models.snapshot()
    games = Projector(platform).rebuild()
    rebuilt = models.snapshot()
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
        f"projector crash: {KILLS} kill -9 of the projector in {time.monotonic() - started:.1f} s "
        f"({counts['commands']} commands; feed length at each kill {feed_at_kill}); caught up before the "
        f"restart: {pending}; the restarted projector caught up in {caught_up_in:.1f} s; {games} games, finished "
        f"per kind {stats}; read models differing from a rebuild from zero: {len(differing)}"
    )
    server.stop()
    assert feed_at_kill[-1] > feed_at_kill[0], "the feed did not stream while the projector was killed"
    assert not pending and not differing, details or differing
    # A restarted projector resumes what its killed predecessor was handed at once, rather
    # than after the 30 s idle time at which another consumer would claim it.
    assert caught_up_in < 20
