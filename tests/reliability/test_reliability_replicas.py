"""Two replicas per master with ``WAIT 1`` (the cluster's default): losing one replica
blocks no game. On a local cluster of three masters with two replicas each, one replica
of the master holding a game is killed: every action on that game, sent with a command id,
is still acknowledged (the other replica confirms it), none is answered 503, and every
acknowledged one is in the log. (With one replica per master the same kill answers every
such action 503 until the replica is back: ``tests/platform/test_cluster_mode.py``.)"""

from __future__ import annotations

import pytest

from core.config import Config
from stores.platform import Platform
from tests.localcluster import LocalCluster, cluster_fixture

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

two_replicas = cluster_fixture(scope="function", masters=3, replicas=2, name="two_replicas")


def test_losing_one_of_two_replicas_blocks_no_game(two_replicas: LocalCluster, redis_url: str, prefix: str) -> None:
    config = Config(redis_url=two_replicas.url, queue_redis_url=redis_url, prefix=prefix, replica_wait_ms=2000)
    assert config.replicas_to_wait == 1
    platform = Platform.from_config(config)
    handler = platform.handler
    table = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    master = platform.redis.get_node_from_key(platform.store.key(table.game_id, "events")).port
    followers = [node for node in two_replicas.replicas() if node.master_port == master]
    assert len(followers) == 2, two_replicas.nodes
    two_replicas.kill(followers[0].port)

    acknowledged = []
    for index in range(6):
        table = handler.load(table.game_id)
        if table.status != "active":
            break
        seat = min(table.to_act())
        acted = handler.act(table.game_id, seat, {"type": "add", "amount": 1}, table.version, f"after-kill-{index}")
        assert acted.replicated, "a change acknowledged without a replica's copy"
        acknowledged.append((f"after-kill-{index}", acted.version))
    assert len(acknowledged) == 6
    for command, version in acknowledged:
        recorded = platform.store.command_result(table.game_id, command)
        assert recorded is not None and recorded.last_version == version
    assert platform.store.verify(table.game_id).ok
