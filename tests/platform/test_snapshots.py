"""Snapshots are a cache of tables: an older one never replaces a newer one, on Redis
(fakeredis and a real server) and in memory."""

from __future__ import annotations

from collections.abc import Iterator

import fakeredis
import pytest

from core.handler import Handler
from core.vault import Vault
from events.memory import MemoryEventStore
from projections.snapshots import MemorySnapshots, RedisSnapshots, Snapshots
from projections.tables import Tables


@pytest.fixture(params=["memory", "fakeredis", "redis"])
def snapshots(request: pytest.FixtureRequest) -> Iterator[Snapshots]:
    if request.param == "memory":
        yield MemorySnapshots()
    elif request.param == "fakeredis":
        yield RedisSnapshots(fakeredis.FakeRedis(), prefix="t")
    else:
        yield RedisSnapshots(request.getfixturevalue("real_redis"), prefix=request.getfixturevalue("prefix"))


def test_an_older_snapshot_never_replaces_a_newer_one(snapshots: Snapshots) -> None:
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, MemorySnapshots()), Vault(fakeredis.FakeRedis()))
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
