"""Failover on Redis Cluster without losing an acknowledged action.

A local cluster of three masters with a replica each (``tests.localcluster``); six
clients play tiny games through the platform in cluster mode (appends acknowledged once a
replica confirmed them); mid-load the master holding the most games is killed with
SIGKILL, and its replica is promoted. Then every acknowledged action must be in the log at
its version, every chain must verify, and (once the dead node is back, as the new master's
replica) every game must go on. While the promoted master has no replica, appends on its
slots are written but not acknowledged (503, retried by the clients with the same id).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import redis

from core.config import Config
from core.errors import CommandError
from stores.platform import Platform
from tests.localcluster import LocalCluster, cluster_fixture

failover_cluster = cluster_fixture(scope="function", masters=3, replicas=1, name="failover_cluster")

CLIENTS = 6
GAMES_PER_CLIENT = 4


@dataclass
class Ledger:
    """What the clients were told: (game, command id) -> the versions acknowledged."""

    acknowledged: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)
    retries: int = 0
    errors: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Stopped(Exception):
    """The test ended while a command was still unanswered: it was never acknowledged."""


def _retrying(call, ledger: Ledger, stop: threading.Event):  # type: ignore[no-untyped-def]
    """``call()`` again (the same command id) until it is answered, while the cluster
    fails over: a dropped connection, a moved slot or an unconfirmed append is retried."""
    while True:
        try:
            return call()
        except CommandError as error:
            if error.code != "unavailable":
                raise
        except (OSError, redis.RedisError):
            pass
        if stop.is_set():
            raise Stopped
        with ledger.lock:
            ledger.retries += 1
        time.sleep(0.1)


def _client(platform: Platform, index: int, ledger: Ledger, stop: threading.Event) -> None:
    try:
        _play(platform, index, ledger, stop)
    except Stopped:
        pass
    except BaseException as error:  # reported by the test, not lost in the thread
        with ledger.lock:
            ledger.errors.append(error)


def _play(platform: Platform, index: int, ledger: Ledger, stop: threading.Event) -> None:
    h = platform.handler
    rng = random.Random(index)
    created_count = 0

    def new_game():  # type: ignore[no-untyped-def]
        nonlocal created_count
        key = f"create-{index}-{created_count}"
        created_count += 1
        players = [{"name": "a"}, {"name": "b"}]
        created = _retrying(lambda: h.create_game("tiny", players, command_id=key), ledger, stop)
        with ledger.lock:
            ledger.games.add(created.table.game_id)
        return created.table

    # A finished game is followed by a new one: the load goes on through the failover.
    tables = [new_game() for _ in range(GAMES_PER_CLIENT)]
    turn = 0
    while not stop.is_set():
        for i, table in enumerate(tables):
            if table.status != "active":
                tables[i] = new_game()
                continue
            seat = min(table.to_act())
            command = f"act-{index}-{turn}-{i}"
            action = {"type": "add", "amount": 1} if rng.random() < 0.8 else {"type": "draw"}
            if action["type"] == "draw" and not table.state.deck:
                action = {"type": "add", "amount": 1}

            def act(table=table, seat=seat, command=command, action=action):  # type: ignore[no-untyped-def]
                return h.act(table.game_id, seat, action, table.version, command)

            acted = _retrying(act, ledger, stop)
            with ledger.lock:
                ledger.acknowledged[(table.game_id, command)] = (acted.envelopes[0].version, acted.version)
            tables[i] = acted.table
        turn += 1
        time.sleep(0.01)


def test_an_acknowledged_action_survives_a_masters_kill_and_every_game_goes_on(
    failover_cluster: LocalCluster, redis_url: str, prefix: str
) -> None:
    config = Config(redis_url=failover_cluster.url, queue_redis_url=redis_url, prefix=prefix, replica_wait_ms=2000)
    platform = Platform.from_config(config)
    ledger, stop = Ledger(), threading.Event()
    threads = [threading.Thread(target=_client, args=(platform, i, ledger, stop), daemon=True) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    before_kill = len(ledger.acknowledged)
    # The master holding the most games' keys dies.
    client = platform.redis
    counts: dict[int, int] = {}
    with ledger.lock:
        for game in ledger.games:
            port = client.get_node_from_key(platform.store.key(game, "events")).port
            counts[port] = counts.get(port, 0) + 1
    victim = max(counts, key=lambda port: counts[port])
    killed_at = time.monotonic()
    failover_cluster.kill(victim)
    promoted = failover_cluster.wait_for_failover(victim, timeout=30)
    failover_seconds = time.monotonic() - killed_at
    time.sleep(1.5)  # play goes on; the promoted master, with no replica, acknowledges nothing
    at_restart = len(ledger.acknowledged)
    # The dead node is started again and follows the promoted replica: every master has a
    # replica to confirm appends again, and the clients' retries are answered.
    failover_cluster.restart(victim)
    time.sleep(1.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a client did not finish"
    assert ledger.errors == []
    after = len(ledger.acknowledged)
    assert before_kill > 0 and after > at_restart > before_kill, (before_kill, at_restart, after)

    # Through a fresh client: every acknowledged action is in the log where it was acknowledged.
    fresh = Platform.from_config(config)
    lost = []
    for (game, command), (first, last) in ledger.acknowledged.items():
        recorded = fresh.store.command_result(game, command)
        envelopes = fresh.store.read(game, after=first - 1, limit=last - first + 1)
        kept = recorded is not None and (recorded.first_version, recorded.last_version) == (first, last)
        if not kept or not envelopes or envelopes[0].type != "ActionTaken" or envelopes[0].command_id != command:
            lost.append((game, command))
    assert lost == [], f"{len(lost)} acknowledged actions lost"
    # Every chain verifies, and every game goes on.
    for game in ledger.games:
        assert fresh.store.verify(game).ok, game
        table = fresh.handler.load(game)
        if table.status == "active":
            seat = min(table.to_act())
            fresh.handler.act(game, seat, {"type": "add", "amount": 1}, table.version, f"after-{game}")
    print(
        f"\nfailover: killed master :{victim} (holding {counts[victim]} of {sum(counts.values())} games), "
        f"replica :{promoted} promoted in {failover_seconds:.1f} s; {after} acknowledged actions "
        f"({before_kill} before the kill, {at_restart} before the dead node came back) checked, "
        f"{ledger.retries} retries, lost: {len(lost)}"
    )
