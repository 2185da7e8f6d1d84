"""``tablestream projections rebuild`` rebuilds the read models from zero, as a
subprocess against a real Redis, and yields the models the live projector built; a
game that cannot be folded stops neither the projector nor a rebuild."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import redis

from core.config import Config
from events.envelope import NewEvent
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from workers.projector import Projector

KIND = "fortress-royals"


def test_the_rebuild_command_yields_the_live_models(real_redis: redis.Redis, redis_url: str, prefix: str) -> None:
    platform = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    projector = Projector(platform, "live")
    projector.ensure_group()
    rng = random.Random(31)
    for actions in (100_000, 100_000, 25, 0):
        play(platform, platform.handler.create_game(KIND, humans(2)).table, rng, actions)
    platform.handler.create_game(KIND, [{"name": "ann"}, {"open": True}])
    while projector.step(block_ms=10):
        pass
    live = projector.models.snapshot()
    assert projector.models.games("finished", KIND, 0, 10)[0] == 2
    assert projector.models.games("active", KIND, 0, 10)[0] == 2
    assert projector.models.games("open", KIND, 0, 10)[0] == 1

    projector.models.clear()  # lost, as after a flush of the read models' keys
    assert projector.models.games("all", None, 0, 10)[0] == 0
    env = {**os.environ, "REDIS_URL": redis_url, "TABLESTREAM_PREFIX": prefix}
    rebuilt = subprocess.run(
        [sys.executable, "-m", "service.cli", "projections", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "read models rebuilt from 5 games" in rebuilt.stdout
    assert projector.models.snapshot() == live


def test_a_game_that_cannot_be_folded_stays_pending_and_the_others_are_applied(
    real_redis: redis.Redis, prefix: str
) -> None:
    # Given a log of a kind this server no longer knows between two good games, when the
    # projector runs, then it applies the good games, and the bad one's notice stays pending
    # (claimed again later) instead of stopping the projector.
    platform = Platform(Config(redis_url="unused", prefix=prefix), real_redis)
    projector = Projector(platform, "only", claim_idle_ms=60_000)
    projector.ensure_group()
    first = platform.handler.create_game(KIND, humans(2)).table.game_id
    retired = {
        "game": "retired1",
        "kind": "retired-kind",
        "options": {},
        "seed_commitment": "0" * 64,
        "seats": [{"name": "ann", "bot": None, "open": False}],
        "fair_deal": True,
    }
    platform.store.append("retired1", [NewEvent("GameCreated", retired)], 0)
    second = platform.handler.create_game(KIND, humans(2)).table.game_id
    while projector.step(block_ms=10):
        pass
    active = {g["id"] for g in projector.models.games("active", None, 0, 10)[1]}
    assert active == {first, second}
    pending = real_redis.xpending(platform.store.feed_key, "projector")
    assert pending["pending"] == 1
    projector.rebuild()
    assert {g["id"] for g in projector.models.games("active", None, 0, 10)[1]} == {first, second}
