"""The operator's tools on a Redis Cluster: a game exported from a single Redis imports
into the cluster under its own id, audits clean there, and exports its log back byte for byte;
a tampered export is refused there and writes nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from core.config import Config
from core.errors import CommandError
from core.tooling import audit_game, export_lines, import_lines
from stores.platform import Platform
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)
from tests.tooling.conftest import humans, play
from workers import wiring
from workers.scheduling import InlineBots

KINDS = ("dragoborne", "dragon-fortress", "fortress-royals", "fortress-siege", "stomping-grounds")


@pytest.fixture
def on_cluster(local_cluster: LocalCluster, redis_url: str, prefix: str) -> Iterator[Platform]:  # noqa: F811
    url = "redis+cluster://" + ",".join(f"{n.host}:{n.port}" for n in local_cluster.startup_nodes)
    p = Platform.from_config(Config(redis_url=url, queue_redis_url=redis_url, prefix=prefix, inline_jobs=True))
    p.handler.scheduler = InlineBots(p)
    yield p
    p.redis.close()


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_moves_from_a_single_redis_to_the_cluster_and_back_unchanged(
    platform: Platform, on_cluster: Platform, kind: str
) -> None:
    game = platform.handler.create_game(kind, humans(3 if kind == "dragon-fortress" else 2)).table
    finished = play(platform, game, random.Random(kind))
    assert finished.status == "finished"
    game_id = finished.game_id
    lines = list(export_lines(platform, game_id))

    wiring.use(on_cluster)
    imported, report = import_lines(on_cluster, lines)
    assert report.ok and imported == game_id, "a free id is kept"
    assert on_cluster.store.read_raw(game_id) == platform.store.read_raw(game_id)
    assert audit_game(on_cluster, game_id).ok
    exported = list(export_lines(on_cluster, game_id))
    assert exported[1:] == lines[1:], "the log exports back byte for byte"
    # (the header's ledger entry and its proof are the source server's: the cluster's own ledger
    # holds no entry for a game finished elsewhere)
    apart = {"ledger": None, "ledger_proof": None}
    assert {**json.loads(exported[0]), **apart} == {**json.loads(lines[0]), **apart}
    assert game_id in set(on_cluster.store.game_ids())
    assert on_cluster.handler.load(game_id).state == platform.handler.load(game_id).state

    tampered = list(lines)
    tampered[4] = tampered[4].replace('"system"', '"human"', 1).replace('"human"', '"robot"', 1)
    before = set(on_cluster.store.game_ids())
    with pytest.raises(CommandError) as refused:
        import_lines(on_cluster, tampered)
    assert refused.value.extra["first_bad_version"] == 4
    assert set(on_cluster.store.game_ids()) == before, "a refused import writes nothing"
