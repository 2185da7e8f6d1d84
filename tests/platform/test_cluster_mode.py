"""Cluster mode, chosen by ``REDIS_URL=redis+cluster://host:port,...``: the platform on a
real local Redis Cluster, RQ refused there, the partition count fixed for a deployment,
and appends acknowledged only once a replica confirmed them (Redis WAIT)."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest
import redis

from core.config import CLUSTER_PARTITIONS, Config
from core.errors import CommandError
from events import NewEvent
from events.redis_store import RedisEventStore
from stores.platform import Platform
from tests.localcluster import LocalCluster, cluster_fixture, local_cluster  # noqa: F401  (a fixture)
from tests.reliability.procs import RedisServer
from workers.wiring import wire


def cluster_url(cluster: LocalCluster) -> str:
    return "redis+cluster://" + ",".join(f"{n.host}:{n.port}" for n in cluster.startup_nodes)


def test_the_url_chooses_the_engine_and_its_defaults() -> None:
    single = Config(redis_url="redis://127.0.0.1:6379/0")
    assert not single.cluster and single.feed_partitions == 1 and single.replicas_to_wait == 0
    assert single.queue_url == single.redis_url
    cluster = Config(redis_url="redis+cluster://10.0.0.1:7000, 10.0.0.2:7001", queue_redis_url="redis://q:6379/0")
    assert cluster.cluster and cluster.cluster_nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert cluster.feed_partitions == CLUSTER_PARTITIONS and cluster.replicas_to_wait == 1
    assert cluster.queue_url == "redis://q:6379/0", "never the cluster itself"
    assert Config(redis_url="redis+cluster://a:1", partitions=12, replica_wait=0).feed_partitions == 12
    with pytest.raises(ValueError, match="host:port"):
        _ = Config(redis_url="redis+cluster://nowhere").cluster_nodes


def test_a_cluster_without_a_queue_redis_is_refused_at_start_with_the_reason(
    local_cluster: LocalCluster,  # noqa: F811
) -> None:
    with pytest.raises(ValueError, match="QUEUE_REDIS_URL"):
        Platform.from_config(Config(redis_url=cluster_url(local_cluster), prefix=f"c-{uuid.uuid4().hex[:8]}"))


def test_the_platform_runs_a_game_to_the_end_on_the_cluster(
    local_cluster: LocalCluster,  # noqa: F811
    redis_url: str,
    prefix: str,
) -> None:
    url = cluster_url(local_cluster)
    config = Config(redis_url=url, queue_redis_url=redis_url, prefix=prefix, replica_wait_ms=5000)
    platform = Platform.from_config(config)
    assert platform.store.partitions == CLUSTER_PARTITIONS and platform.store.replicas == 1
    h = platform.handler
    table = h.create_game("tiny", [{"name": "ann"}, {"name": "bob"}], command_id="create-1").table
    turn = 0
    while table.status == "active":
        seat = min(table.to_act())
        table = h.act(table.game_id, seat, {"type": "add", "amount": 2}, table.version, f"cmd-{turn}").table
        turn += 1
    assert table.status == "finished" and platform.store.verify(table.game_id).ok
    entry = platform.ledger.of(table.game_id)
    assert entry is not None and entry["hash"] == table.head_hash, "on the ledger of finished games"
    assert table.game_id in set(platform.store.game_ids())


def test_the_partition_count_is_fixed_once_a_deployment_has_started(real_redis: redis.Redis, prefix: str) -> None:
    RedisEventStore(real_redis, prefix=prefix, partitions=4).check_partitions()
    RedisEventStore(real_redis, prefix=prefix, partitions=4).check_partitions()
    with pytest.raises(ValueError, match="TABLESTREAM_PARTITIONS=4"):
        RedisEventStore(real_redis, prefix=prefix, partitions=8).check_partitions()


def test_an_append_no_replica_confirmed_is_not_acknowledged_and_its_retry_answers(
    real_redis: redis.Redis, prefix: str
) -> None:
    # The test Redis has no replica: WAIT 1 gives up after its timeout with 0 copies.
    store = RedisEventStore(real_redis, prefix=prefix, replicas=1, replica_wait_ms=50)
    result = store.append("g", [NewEvent("A", {})], 0, "c1")
    assert not result.replicated and store.last_version("g") == 1, "written on the master, not acknowledged"


def test_an_append_a_replica_confirmed_is_acknowledged(local_cluster: LocalCluster) -> None:  # noqa: F811
    # (a generous wait: what is tested is that a confirmed append is acknowledged; under CI load
    # a replica once took more than the 500 ms default to answer)
    store = RedisEventStore(
        local_cluster.client(), prefix=f"w-{uuid.uuid4().hex[:8]}", partitions=6, replicas=1, replica_wait_ms=5000
    )
    for game in ("g1", "g2", "g3", "g4", "g5", "g6"):
        started = time.monotonic()
        replicated = store.append(game, [NewEvent("A", {})], 0, "c1").replicated
        # (what the master says of its replicas, should none confirm)
        master = store.redis.get_node_from_key(store.key(game, "events")).redis_connection
        said = {k: v for k, v in master.info("replication").items() if k.startswith(("slave", "connected", "master"))}
        assert replicated, f"{game}: no replica confirmed in {time.monotonic() - started:.3f} s; master: {said}"


def test_the_handler_answers_unavailable_for_an_unconfirmed_command_and_the_retry_finds_it(
    real_redis: redis.Redis, prefix: str, redis_url: str
) -> None:
    platform = Platform.from_config(Config(redis_url=redis_url, prefix=prefix, replica_wait=1, replica_wait_ms=50))
    h = platform.handler
    created = h.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    with pytest.raises(CommandError) as refused:
        h.act(created.game_id, 0, {"type": "add", "amount": 1}, created.version, "key-1")
    assert refused.value.code == "unavailable" and "same Idempotency-Key" in refused.value.detail
    # The retry finds the change, but no replica holds it still: not acknowledged either.
    with pytest.raises(CommandError) as retried:
        h.act(created.game_id, 0, {"type": "add", "amount": 1}, created.version, "key-1")
    assert retried.value.code == "unavailable" and platform.store.last_version(created.game_id) == created.version + 2


def retried(attempt, seconds: float = 10.0):  # type: ignore[no-untyped-def]
    """``attempt()`` again while it answers ``unavailable``, as a client would."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return attempt()
        except CommandError as error:
            if error.code != "unavailable" or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_retry_is_acknowledged_only_once_a_replica_holds_the_change(tmp_path: Path) -> None:
    master, replica = RedisServer(tmp_path / "master"), RedisServer(tmp_path / "replica")
    master.start()
    replica.start()
    try:
        replica.client().replicaof("127.0.0.1", master.port)
        deadline = time.monotonic() + 20
        while replica.client().info("replication").get("master_link_status") != "up":
            assert time.monotonic() < deadline, "the replica did not connect"
            time.sleep(0.05)
        config = Config(redis_url=master.url, prefix="r", replica_wait=1, replica_wait_ms=200)
        h = Platform.from_config(config).handler
        store = h.store
        players = [{"name": "ann"}, {"name": "bob"}]
        table = h.create_game("tiny", players, command_id="create-1").table
        os.kill(replica.process.pid, signal.SIGSTOP)  # the replica stalls: nothing more is copied
        try:
            for _ in range(2):  # the first request, then its retry: written once, acknowledged never
                with pytest.raises(CommandError) as refused:
                    h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version, "key-1")
                assert refused.value.code == "unavailable"
                with pytest.raises(CommandError) as refused:
                    h.create_game("tiny", players, command_id="create-2")
                assert refused.value.code == "unavailable"
                with pytest.raises(CommandError) as refused:  # even a retry of what was confirmed before
                    h.create_game("tiny", players, command_id="create-1")
                assert refused.value.code == "unavailable"
            assert store.last_version(table.game_id) == table.version + 2 and len(set(store.game_ids())) == 2
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        # The replica catches up: the same retries are now acknowledged, as duplicates.
        again = retried(lambda: h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version, "key-1"))
        assert again.duplicate and again.version == table.version + 2
        second = retried(lambda: h.create_game("tiny", players, command_id="create-2"))
        assert second.table.game_id in set(store.game_ids()) and len(set(store.game_ids())) == 2
        assert retried(lambda: h.create_game("tiny", players, command_id="create-1")).table.game_id == table.game_id
        copy = RedisEventStore(replica.client(), prefix="r")
        assert copy.read_raw(table.game_id) == store.read_raw(table.game_id), "the replica holds the whole log"
    finally:
        replica.stop()
        master.stop()


unreplicated_cluster = cluster_fixture(scope="function", masters=3, replicas=0, name="unreplicated_cluster")


def test_healthz_reports_the_cluster_and_answers_503_when_a_master_is_gone(
    unreplicated_cluster: LocalCluster, redis_url: str, prefix: str
) -> None:
    from service.app import create_app

    config = Config(redis_url=cluster_url(unreplicated_cluster), queue_redis_url=redis_url, prefix=prefix)
    client = create_app(config, wire(Platform.from_config(config), bots=False)).test_client()
    healthy = client.get("/healthz")
    cluster = healthy.get_json()["redis"]["cluster"]
    assert healthy.status_code == 200, healthy.get_json()
    assert cluster == {
        "state": "ok",
        "slots_ok": 16384,
        "slots": 16384,
        "masters": 3,
        "masters_answering": 3,
        "serving": True,
    }
    # A master with no replica dies: a third of the slots have no one to serve them.
    unreplicated_cluster.kill(unreplicated_cluster.masters()[0].port)
    deadline = time.monotonic() + 30
    while (answer := client.get("/healthz")).status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert answer.status_code == 503, answer.get_json()
    assert answer.get_json()["status"] == "unavailable"
