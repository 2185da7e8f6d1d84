"""Snapshots are a cache of tables: an older one never replaces a newer one, on Redis
(fakeredis and a real server) and in memory."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import fakeredis
import pytest

from core.handler import Handler
from events.memory import MemoryEventStore
from projections.snapshots import MemorySnapshots, RedisSnapshots, Snapshots
from projections.table import Table
from projections.tables import Tables
from stores.vault import RedisVault
from tests.localcluster import local_cluster  # noqa: F401  (a fixture)


@pytest.fixture(params=["memory", "fakeredis", "redis", "cluster"])
def snapshots(request: pytest.FixtureRequest) -> Iterator[Snapshots]:
    if request.param == "memory":
        yield MemorySnapshots()
    elif request.param == "cluster":
        # The session's cluster, and every key in it, goes when the session ends.
        yield RedisSnapshots(request.getfixturevalue("local_cluster").client(), prefix=f"s-{uuid.uuid4().hex[:12]}")
    elif request.param == "fakeredis":
        yield RedisSnapshots(fakeredis.FakeRedis(), prefix="t")
    else:
        yield RedisSnapshots(request.getfixturevalue("real_redis"), prefix=request.getfixturevalue("prefix"))


def test_an_older_snapshot_never_replaces_a_newer_one(snapshots: Snapshots) -> None:
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(fakeredis.FakeRedis()))
    table = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    for _ in range(3):
        seat = min(table.to_act())
        table = handler.act(table.game_id, seat, {"type": "add", "amount": 1}, table.version).table
    game_id = table.game_id
    old, middle, new = (handler.tables.at(game_id, v) for v in (2, table.version - 2, table.version))
    assert old is not None and middle is not None and new is not None

    assert snapshots.put(middle) is True
    assert snapshots.put(old) is False, "an older table is refused"
    assert snapshots.version(game_id) == middle.version
    assert snapshots.put(middle) is False, "the same version is not rewritten"
    assert snapshots.put(new) is True
    assert snapshots.put(middle) is False
    assert snapshots.get(game_id) == new


def test_a_snapshot_of_another_format_is_ignored_and_replaced(real_redis, prefix: str) -> None:  # type: ignore[no-untyped-def]
    """Snapshots written by another code version (an older format) are never read, and
    the first table put replaces them, whatever their version."""
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(fakeredis.FakeRedis()))
    table = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    snapshots = RedisSnapshots(real_redis, prefix=prefix)
    key = snapshots.key(table.game_id)
    real_redis.hset(key, mapping={"version": 999, "format": b"2", "table": b"not a table of this format"})
    try:
        assert snapshots.get(table.game_id) is None
        assert snapshots.put(table) is True
        assert snapshots.get(table.game_id) == table
        assert snapshots.version(table.game_id) == table.version
    finally:
        real_redis.delete(key)


class HeldSnapshots(MemorySnapshots):
    """Real in-memory snapshots whose writes wait until the test lets them through."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()  # open while the game is created (its first snapshot is written at once)
        self.writes = 0

    def put(self, table: Table) -> bool:
        self.gate.wait(10)
        self.writes += 1
        return super().put(table)


def play_tiny(handler: Handler, actions: int, held: HeldSnapshots) -> Table:
    table = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    held.gate.clear()
    held.writes = 0
    for _ in range(actions):
        seat = min(table.to_act())
        table = handler.act(table.game_id, seat, {"type": "add", "amount": 1}, table.version).table
    return table


def test_snapshots_in_the_background_never_hold_an_action_and_land_all_the_same() -> None:
    store, snapshots = MemoryEventStore(), HeldSnapshots()
    tables = Tables(store, snapshots, snapshot_every=4)
    tables.snapshot_in_background()
    handler = Handler(store, tables, RedisVault(fakeredis.FakeRedis()))
    table = play_tiny(handler, 9, snapshots)  # crosses versions 4 and 8 while every write is held
    assert snapshots.writes == 0 and snapshots.version(table.game_id) < 4
    snapshots.gate.set()
    tables.settle()
    written = snapshots.get(table.game_id)
    assert written is not None and written.version // 4 == table.version // 4
    # A fresh process (no cache) loads the same table from the snapshot and the tail.
    assert Tables(store, snapshots).load(table.game_id) == table


def test_a_full_background_queue_skips_a_snapshot_rather_than_wait() -> None:
    store, snapshots = MemoryEventStore(), HeldSnapshots()
    tables = Tables(store, snapshots, snapshot_every=1)
    tables.snapshot_in_background(capacity=2)
    handler = Handler(store, tables, RedisVault(fakeredis.FakeRedis()))
    table = play_tiny(handler, 6, snapshots)  # a snapshot at every version, far more than the queue holds
    snapshots.gate.set()
    tables.settle()
    assert snapshots.writes < table.version  # some were skipped, none was waited for
    assert Tables(store, snapshots).load(table.game_id) == table
