"""The local Redis Cluster harness (``tests/localcluster.py``) itself: it starts a real
3-master, 1-replica-each cluster; writes acknowledged by a replica (``WAIT``) survive the
SIGKILL of their master once its replica has taken over; and ``stop`` leaves no process and
no file behind, after a good start and after one that failed half-way. None of it touches
the Redis that ``REDIS_URL`` names."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from tests.localcluster import ClusterError, LocalCluster

pytestmark = pytest.mark.timeout(120)

KEYS = {f"harness:{i}": f"value-{i}" for i in range(200)}


def assert_all_gone(pids: list[int], directory: Path) -> None:
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not directory.exists()


def test_acknowledged_writes_survive_a_master_killed_and_stop_leaves_nothing() -> None:
    cluster = LocalCluster()
    try:
        began = time.monotonic()
        cluster.start(masters=3, replicas=1)
        started = time.monotonic()
        assert cluster.directory is not None
        directory = cluster.directory
        assert len(cluster.masters()) == 3 and len(cluster.replicas()) == 3
        assert {node.master_port for node in cluster.replicas()} == {node.port for node in cluster.masters()}
        assert cluster.url.startswith("redis+cluster://127.0.0.1:") and cluster.url.count(",") == 5

        client = cluster.client()
        for key, value in KEYS.items():
            client.set(key, value)
            master = client.get_node_from_key(key)
            acknowledged = client.execute_command("WAIT", 1, 1000, target_nodes=master)
            assert acknowledged >= 1, f"{key}: WAIT says {acknowledged} replicas have it"
        assert len({client.keyslot(key) for key in KEYS}) == len(KEYS)
        assert len({client.get_node_from_key(key).port for key in KEYS}) == 3, "the keys are on every master"

        known = "harness:0"
        old_master = client.get_node_from_key(known).port
        (replica,) = [node.port for node in cluster.replicas() if node.master_port == old_master]
        client.close()
        cluster.kill(old_master)
        killed = time.monotonic()
        new_master = cluster.wait_for_failover(old_master, timeout=30)
        failed_over = time.monotonic()
        assert new_master == replica
        assert old_master not in {node.port for node in cluster.masters()}
        assert [node.role for node in cluster.nodes if node.port == old_master] == ["down"]

        fresh = cluster.client()
        assert fresh.get_node_from_key(known).port == new_master
        assert {key: fresh.get(key) for key in KEYS} == {key: value.encode() for key, value in KEYS.items()}
        fresh.close()
    finally:
        stopping = time.monotonic()
        cluster.stop()
        stopped = time.monotonic()
    assert_all_gone(cluster.started_pids, directory)
    assert len(cluster.started_pids) == 6
    cluster.stop()  # a second stop is harmless
    print(
        f"start {started - began:.2f} s, failover {failed_over - killed:.2f} s after the kill, "
        f"stop {stopped - stopping:.2f} s"
    )


def test_a_start_that_fails_half_way_stops_what_it_started(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    mkdtemp = tempfile.mkdtemp

    def recorded(**kwargs: str) -> str:
        made.append(mkdtemp(**kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", recorded)
    cluster = LocalCluster()
    with pytest.raises(ClusterError, match="at least 3 master") as failure:
        cluster.start(masters=2, replicas=0)  # two nodes start; redis-cli refuses to join them
    assert "--- node " in str(failure.value), "the error shows the nodes' logs"
    assert len(cluster.started_pids) == 2 and len(made) == 1
    assert_all_gone(cluster.started_pids, Path(made[0]))
    assert cluster.directory is None and cluster.nodes == []
    cluster.stop()


def test_without_redis_on_path_it_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    cluster = LocalCluster()
    with pytest.raises(ClusterError, match="redis-server and redis-cli not found on PATH"):
        cluster.start()
    assert cluster.started_pids == [] and cluster.directory is None
