"""Read models: live projection through the consumer group equals a rebuild from zero,
also after the projector dies between applying and acking; kept per feed partition (on
a single Redis with one or several, and on a Redis Cluster), merged when listed."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from core.config import Config
from events.keys import partition_of
from stores.platform import Platform
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)
from workers.projector import GROUP, Projector


@pytest.fixture
def platform(real_redis: redis.Redis, prefix: str) -> Platform:
    return Platform(Config(redis_url="unused", prefix=prefix), real_redis)


@pytest.fixture(params=["single", "partitioned", "cluster"])
def any_platform(request: pytest.FixtureRequest, real_redis: redis.Redis, prefix: str, redis_url: str) -> Platform:
    """The platform on one Redis with the legacy layout, on one Redis with 4 partitions,
    and on the local Redis Cluster (48 partitions)."""
    if request.param == "single":
        return Platform(Config(redis_url="unused", prefix=prefix), real_redis)
    if request.param == "partitioned":
        return Platform(Config(redis_url="unused", prefix=prefix, partitions=4), real_redis)
    cluster: LocalCluster = request.getfixturevalue("local_cluster")
    url = "redis+cluster://" + ",".join(f"{n.host}:{n.port}" for n in cluster.startup_nodes)
    return Platform.from_config(Config(redis_url=url, queue_redis_url=redis_url, prefix=prefix))


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


def test_live_models_equal_a_rebuild_from_zero(any_platform: Platform) -> None:
    platform = any_platform
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


def test_each_partition_keeps_its_own_models_and_the_lists_merge_them(any_platform: Platform) -> None:
    platform = any_platform
    projector = Projector(platform, "pages")
    projector.ensure_group()
    play_random(platform, 40, seed=4)
    drain(projector)
    models = projector.models
    partitions = platform.store.partitions
    # Each game's models sit in its own partition's keys (on a cluster: its events' slot).
    for game_id in platform.store.game_ids():
        index = partition_of(game_id, partitions)
        assert platform.redis.hget(models.key("status", partition=index), game_id) is not None
        for other in {0, partitions - 1} - {index}:
            assert platform.redis.hget(models.key("status", partition=other), game_id) is None
        if platform.store.partitions > 1:
            tag = platform.store.key(game_id, "events").split("}")[0]
            assert models.key_of(game_id, "status").startswith(tag + "}")
    if partitions > 1:
        used = {partition_of(g, partitions) for g in platform.store.game_ids()}
        assert len(used) > 1, "the games spread over several partitions"
    # Every page, newest first, across the partitions: together exactly the whole list.
    total, everything = models.games(None, None, 0, 1000)
    assert total == 40 == len(everything)
    created = [g["created_at"] for g in everything]
    assert created == sorted(created, reverse=True)
    paged: list[str] = []
    for offset in range(0, 40, 7):
        page_total, page = models.games(None, "tiny", offset, 7)
        assert page_total == 40
        paged += [g["id"] for g in page]
    assert paged == [g["id"] for g in everything]
    active = set(models.ids("active"))
    assert active == {g["id"] for g in everything if g["status"] == "active"}
    ids = [g["id"] for g in everything]
    assert models.statuses(ids) == [g["status"] for g in everything]
    assert models.statuses(["never-created"]) == [None]


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
