"""``Tables.follow``: an event stream moves its table on by the events it just read, with
no second read of the log, and ends at the same table ``load`` would."""

from __future__ import annotations

import fakeredis

from core.handler import Handler
from events.memory import MemoryEventStore
from projections.snapshots import MemorySnapshots
from projections.table import Table
from projections.tables import Tables
from stores.vault import RedisVault


class CountingStore(MemoryEventStore):
    """The in-memory store, counting the reads of a game's tail."""

    tails = 0

    def read_tail(self, game_id: str, after: int = 0):  # type: ignore[no-untyped-def]
        self.tails += 1
        return super().read_tail(game_id, after)


def played(actions: int) -> tuple[Handler, CountingStore, Table, Table]:
    store = CountingStore()
    handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(fakeredis.FakeRedis()))
    opened = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    table = opened
    for _ in range(actions):
        seat = min(table.to_act())
        table = handler.act(table.game_id, seat, {"type": "add", "amount": 1}, table.version).table
    return handler, store, opened, table


def test_a_stream_s_table_follows_the_events_it_read_without_reading_again() -> None:
    handler, store, opened, latest = played(5)
    watcher = Tables(store, MemorySnapshots())  # another process: nothing cached
    envelopes = store.read(opened.game_id, after=opened.version)
    reads = store.tails
    followed = watcher.follow(opened, envelopes)
    assert store.tails == reads
    assert followed == latest == Tables(store, MemorySnapshots()).load(opened.game_id)


def test_events_already_folded_change_nothing_and_a_gap_loads() -> None:
    handler, store, opened, latest = played(4)
    watcher = Tables(store, MemorySnapshots())
    assert watcher.follow(latest, store.read(opened.game_id, after=opened.version)) == latest
    gap = store.read(opened.game_id, after=opened.version + 2)  # version opened+1 missing
    assert watcher.follow(opened, gap) == latest


def test_a_newer_cached_table_is_taken_as_it_is() -> None:
    handler, store, opened, latest = played(3)
    reads = store.tails
    # The handler's own tables cached the latest table when it appended.
    assert handler.tables.follow(opened, store.read(opened.game_id, after=opened.version)) == latest
    assert store.tails == reads
