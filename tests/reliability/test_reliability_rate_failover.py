"""The rate counters are on no one master: kill the master that holds a client's counters
and that client's requests to a game on a healthy master are still answered, judged by
each process's own counters until the replica is promoted; and no slot holds the counters
of every client.

A local cluster of three masters with a replica each (``tests.localcluster``), with a
node timeout long enough that the requests below are made before the promotion."""

from __future__ import annotations

import hashlib

import pytest
from redis.crc import key_slot

from core.config import Config
from service.app import create_app
from service.ratelimit import RateCounter, counter_key
from stores.platform import Platform
from tests.localcluster import LocalCluster, cluster_fixture

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

rate_cluster = cluster_fixture(scope="function", masters=3, replicas=1, name="rate_cluster", node_timeout_ms=6000)


def test_a_client_whose_counters_master_is_killed_is_still_answered(
    rate_cluster: LocalCluster, redis_url: str, prefix: str
) -> None:
    config = Config(redis_url=rate_cluster.url, queue_redis_url=redis_url, prefix=prefix, replica_wait_ms=2000)
    platform = Platform.from_config(config)
    app = create_app(config, platform)
    client = app.test_client()
    redis = platform.redis

    def master_of(key: str) -> int:
        return int(redis.get_node_from_key(key).port)

    # No slot, and no master alone, holds the counters of every client.
    addresses = [f"10.1.{i // 250}.{i % 250}" for i in range(300)]
    slots = {key_slot(counter_key(prefix, redis, "ip", address).encode()) for address in addresses}
    tokens = {key_slot(counter_key(prefix, redis, "token", f"{i:064x}").encode()) for i in range(300)}
    assert len(slots) > 250 and len(tokens) > 250, "the counters share a few slots"
    assert {master_of(counter_key(prefix, redis, "ip", a)) for a in addresses} == {
        node.port for node in rate_cluster.masters()
    }

    # The victim holds none of the game (its log, and its seed, in a slot of its own when the
    # log is in a feed partition's) nor whom its token acts for: only the counters. Three
    # keys may fall on the three masters: such a game is set aside for another.
    for _ in range(20):
        created = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]})
        assert created.status_code == 201, created.get_data(as_text=True)
        game = created.get_json()
        token = game["seats"][0]["token"]
        digest = hashlib.sha256(token.encode()).hexdigest()
        keys = (
            platform.store.key(game["id"], "events"),
            platform.vault.seed_key(game["id"]),
            platform.vault.owner_key(digest),
        )
        needed = {master_of(key) for key in keys}
        victims = [node.port for node in rate_cluster.masters() if node.port not in needed]
        if victims:
            break
    victim = victims[0]
    addresses = (f"10.2.{i // 250}.{i % 250}" for i in range(10_000))
    address = next(a for a in addresses if master_of(counter_key(prefix, redis, "ip", a)) == victim)
    seat = {"Authorization": f"Bearer {token}"}
    here = {"REMOTE_ADDR": address}
    assert client.get(f"/v1/games/{game['id']}", headers=seat, environ_base=here).status_code == 200

    rate_cluster.kill(victim)  # the cluster is stopped after the test, the dead node with it
    read = client.get(f"/v1/games/{game['id']}", headers=seat, environ_base=here)
    assert read.status_code == 200, read.get_data(as_text=True)
    version = read.get_json()["version"]
    acted = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=seat,
        environ_base=here,
    )
    assert acted.status_code == 200, acted.get_data(as_text=True)
    events = client.get(f"/v1/games/{game['id']}/events?after=0", headers=seat, environ_base=here)
    assert events.status_code == 200, events.get_data(as_text=True)
    counter = app.extensions["tablestream.rate"]
    assert isinstance(counter, RateCounter) and counter.local.judged >= 3, "judged by the process's own counters"
