"""Read models: live projection through the consumer group equals a rebuild from zero,
also after the projector dies between applying and acking."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from core.config import Config
from core.platform import Platform
from workers.projector import GROUP, Projector


@pytest.fixture
def platform(real_redis: redis.Redis, prefix: str) -> Platform:
    return Platform(Config(redis_url="unused", prefix=prefix), real_redis)


def play_random(platform: Platform, games: int, seed: int) -> None:
    rng = random.Random(seed)
    for index in range(games):
        players: list[dict[str, Any]] = (
            [{"name": "ann"}, {"open": True}] if index % 5 == 0 else [{"name": "ann"}, {"bot": "random"}]
        )
        table = platform.handler.create_game("tiny", players).table
        if table.status == "open":
            continue
        for _ in range(rng.randrange(0, 30)):
            if table.status != "active":
                break
            seat = next(iter(table.to_act()))
            action = rng.choice(table.game.legal_actions(table.state, seat))
            table = platform.handler.act(table.game_id, seat, action, table.version).table


def drain(projector: Projector) -> None:
    while projector.step(block_ms=10):
        pass


def test_live_models_equal_a_rebuild_from_zero(platform: Platform) -> None:
    projector = Projector(platform, "live")
    projector.ensure_group()
    play_random(platform, 30, seed=1)
    drain(projector)
    live = projector.models.snapshot()
    total, finished = projector.models.games("finished", None, 0, 100)
    assert total == len(finished) > 0
    assert all(g["outcome"] is not None for g in finished)
    assert projector.models.games("open", "tiny", 0, 100)[0] == 6
    projector.rebuild()
    assert projector.models.snapshot() == live
    stats = projector.models.stats()["tiny"]
    assert stats["games"] == 30 and stats["finished"] == total


def test_a_projector_killed_before_acking_converges_after_restart(platform: Platform) -> None:
    first = Projector(platform, "doomed")
    first.ensure_group()
    play_random(platform, 20, seed=2)
    r = platform.redis
    feed = platform.store.feed_key
    delivered = r.xreadgroup(GROUP, "doomed", {feed: ">"}, count=7)
    for _, entries in delivered:
        for _, fields in entries[:4]:
            first.apply(fields[b"game"].decode())
    # "doomed" dies here: 7 delivered, 4 applied, none acked.
    survivor = Projector(platform, "survivor", claim_idle_ms=0)
    drain(survivor)
    assert r.xpending(feed, GROUP)["pending"] == 0
    live = survivor.models.snapshot()
    survivor.rebuild()
    assert survivor.models.snapshot() == live


def test_a_projector_restarted_under_its_own_name_finishes_its_pending_entries(platform: Platform) -> None:
    first = Projector(platform, "same-name")
    first.ensure_group()
    play_random(platform, 10, seed=3)
    platform.redis.xreadgroup(GROUP, "same-name", {platform.store.feed_key: ">"}, count=5)
    restarted = Projector(platform, "same-name")
    drain(restarted)
    assert platform.redis.xpending(platform.store.feed_key, GROUP)["pending"] == 0
    live = restarted.models.snapshot()
    restarted.rebuild()
    assert restarted.models.snapshot() == live
