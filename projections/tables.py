"""Loading tables: the newest of (process cache, snapshot), plus a fold of the tail."""

from __future__ import annotations

import logging
import queue
import threading
from collections import OrderedDict
from dataclasses import replace

from events.envelope import Envelope
from events.store import EventStore, LogDamaged
from games.base import GameEvent, State
from projections.snapshots import Snapshots
from projections.table import PLATFORM_EVENTS, PastLookup, Table, amend, clocked, evolve

SNAPSHOT_EVERY = 16

log = logging.getLogger(__name__)


CACHE_SIZE = 2048


class Tables:
    def __init__(self, store: EventStore, snapshots: Snapshots, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.store = store
        self.snapshots = snapshots
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: queue.Queue[Table] | None = None

    def snapshot_in_background(self, capacity: int = 1024) -> None:
        """From now on ``advance`` hands its snapshots to a thread of this process and
        returns: an action never waits for the write (on a Redis that fsyncs every write,
        for the disk once more). A snapshot is a shortcut only: one never written (the
        queue full, the process gone) makes a later load fold a longer tail, never a
        different table. Start it in the process that serves (a thread does not survive
        a fork)."""
        if self._pending is not None:
            return
        pending: queue.Queue[Table] = queue.Queue(maxsize=capacity)

        def write() -> None:
            while True:
                table = pending.get()
                try:
                    self.snapshots.put(table)
                except Exception:  # the next snapshot of the game, or the fold, makes up for it
                    log.warning("snapshot of %s at version %d not written", table.game_id, table.version, exc_info=True)
                finally:
                    pending.task_done()

        threading.Thread(target=write, name="snapshots", daemon=True).start()
        self._pending = pending

    def settle(self) -> None:
        """Wait until every snapshot handed to the background is written (tests, shutdown)."""
        if self._pending is not None:
            self._pending.join()

    def load(self, game_id: str) -> Table | None:
        """The table at the log's last version, or None for an unknown game."""
        start = self.cached(game_id)
        if start is None:
            start = self.snapshots.get(game_id)
        after = 0 if start is None else start.version
        tail, head_version = self.store.read_tail(game_id, after=after)
        if start is None and not tail:
            return None
        table = self.fold(game_id, start, tail)
        if table.version < head_version:
            raise LogDamaged(game_id, table.version, head_version)
        self.remember(table)
        return table

    def at(self, game_id: str, version: int) -> Table | None:
        """The table as it was right after ``version``."""
        start = self.cached(game_id)
        if start is None or start.version > version:
            start = self.snapshots.get(game_id)
        if start is not None and start.version > version:
            start = None
        after = 0 if start is None else start.version
        if version <= after:
            return start
        # ``version`` is one the caller knows was appended: a log that lacks it is damaged.
        tail = self.store.read_span(game_id, after, version)
        if not tail and start is None:
            return None
        return self.fold(game_id, start, tail)

    def fold(self, game_id: str, start: Table | None, tail: list[Envelope], decided: State | None = None) -> Table:
        folded: dict[int, Table] = {}

        def past(version: int) -> Table:
            # An undo in the tail returns to a version folded just before (kept in
            # ``folded``), or to one before ``start`` (folded again from the log, once).
            return folded[version] if version in folded else self._past(game_id, version)

        table = fold_runs(start, tail, past, folded, decided)
        # A log imported under a new id (its own collided) still names its old one inside.
        return table if table.game_id == game_id else replace(table, game_id=game_id)

    def _past(self, game_id: str, version: int) -> Table:
        table = self.at(game_id, version)
        if table is None:
            raise LookupError(f"game {game_id} has no version {version}")
        return table

    def advance(self, table: Table, envelopes: list[Envelope], decided: State | None = None) -> Table:
        """The table after envelopes this process just appended; cached, snapshotted
        every ``snapshot_every`` versions. ``decided``: see ``fold_runs``."""
        new = self.fold(table.game_id, table, envelopes, decided)
        self.remember(new)
        crossed = new.version // self.snapshot_every != table.version // self.snapshot_every
        if crossed or new.status == "finished":
            if self._pending is None:
                self.snapshots.put(new)
            else:
                try:
                    self._pending.put_nowait(new)
                except queue.Full:
                    pass  # behind: this one is skipped, the game's next one is written
        return new

    def follow(self, table: Table, envelopes: list[Envelope]) -> Table:
        """``table`` moved on by ``envelopes`` just read from its log (an event stream's
        wake): the cache's table when it is as new, else a fold of the envelopes after the
        newer of the two, with no second read of the log. Envelopes that do not continue
        it (a gap) load the table as ``load`` does."""
        cached = self.cached(table.game_id)
        start = cached if cached is not None and cached.version > table.version else table
        newer = [envelope for envelope in envelopes if envelope.version > start.version]
        if not newer:
            return start
        if newer[0].version != start.version + 1:
            return self.load(table.game_id) or start
        new = self.fold(table.game_id, start, newer)
        self.remember(new)
        return new

    def remember(self, table: Table) -> None:
        with self._lock:
            current = self._cache.get(table.game_id)
            if current is None or current.version <= table.version:
                self._cache[table.game_id] = table
                self._cache.move_to_end(table.game_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def cached(self, game_id: str) -> Table | None:
        """The newest table of this game that this process has seen (it may be behind the log)."""
        with self._lock:
            return self._cache.get(game_id)

    def forget(self) -> None:
        with self._lock:
            self._cache.clear()


def fold_runs(
    table: Table | None,
    envelopes: list[Envelope],
    past: PastLookup | None = None,
    folded: dict[int, Table] | None = None,
    decided: State | None = None,
) -> Table:
    """``projections.table.fold``, faster: a run of the game's own events (the events of
    one command) is folded into the state and the table rebuilt once per run, not once
    per event. Each such event changes only the state, the version fields and
    ``last_irreversible``, so the result is the same table.

    ``decided``, for ``envelopes`` that hold one command just decided: the state after
    its game events, as the decision folded them; the run takes it and folds nothing."""
    if decided is not None and _runs(envelopes) > 1:
        raise ValueError("a decided state stands for one command's events")
    index, total = 0, len(envelopes)
    while index < total:
        envelope = envelopes[index]
        if table is None or envelope.type in PLATFORM_EVENTS:
            table = evolve(table, envelope, past)
            index += 1
            if folded is not None:
                folded[table.version] = table
            continue
        game = table.game
        state, last_irreversible = table.state, table.last_irreversible
        while index < total and envelopes[index].type not in PLATFORM_EVENTS:
            envelope = envelopes[index]
            event = GameEvent(envelope.type, envelope.data, envelope.seat)
            if decided is None:
                state = game.evolve(state, event)
            if game.irreversible(event):
                last_irreversible = envelope.version
            index += 1
        table = amend(
            table,
            version=envelope.version,
            head_hash=envelope.hash,
            updated_at=envelope.at,
            state=state if decided is None else decided,
            last_irreversible=last_irreversible,
        )
        table = clocked(table, envelope)  # one command's events share one time: its end is enough
        if folded is not None:
            folded[table.version] = table
    if table is None:
        raise ValueError("a table needs at least its GameCreated event")
    return table


def _runs(envelopes: list[Envelope]) -> int:
    """How many runs of game events ``envelopes`` hold."""
    runs, inside = 0, False
    for envelope in envelopes:
        game_event = envelope.type not in PLATFORM_EVENTS
        runs += game_event and not inside
        inside = game_event
    return runs
