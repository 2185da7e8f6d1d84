"""The in-memory event store: the same contract as Redis, for rules tests.

Readers that wait (``wait_for``, a subscription's ``receive``) wait on one condition that
every append notifies.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from events.envelope import Envelope, NewEvent, chain_encoded
from events.store import (
    AppendResult,
    CommandReused,
    EventStore,
    Notice,
    Subscription,
    VersionConflict,
    same_request,
)

# As on Redis (events.redis_store): how many of its own pending notices a consumer
# subscribed again gets back at once.
OWN_PENDING_LIMIT = 10_000


class MemoryEventStore(EventStore):
    def __init__(self) -> None:
        self._logs: dict[str, list[str]] = {}
        self._hashes: dict[str, list[str]] = {}
        # (game, command id) -> (first version, last version, the request's fingerprint)
        self._commands: dict[tuple[str, str], tuple[int, int, str | None]] = {}
        self._feed: list[Notice] = []
        self._groups: dict[str, _Group] = {}
        self._changed = threading.Condition()

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        prev_hash: str | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        with self._changed:
            if command_id is not None:
                earlier = self.command_result(game_id, command_id, fingerprint)
                if earlier is not None:
                    return earlier
            log = self._logs.setdefault(game_id, [])
            hashes = self._hashes.setdefault(game_id, [])
            if len(log) != expected_version:
                raise VersionConflict(expected_version, len(log))
            head_hash = hashes[-1] if hashes else "0" * 64
            linked = chain_encoded(events, expected_version + 1, head_hash, self.now(), command_id)
            envelopes = [envelope for envelope, _ in linked]
            log.extend(text for _, text in linked)
            hashes.extend(e.hash for e in envelopes)
            result = AppendResult(expected_version + 1, expected_version + len(envelopes), False, tuple(envelopes))
            if command_id is not None:
                self._commands[game_id, command_id] = (result.first_version, result.last_version, fingerprint)
            last = envelopes[-1]
            self._feed.append(Notice(f"{len(self._feed) + 1}-0", game_id, last.version, last.type))
            self._changed.notify_all()
            return result

    def import_raw(self, game_id: str, entries: Sequence[tuple[int, str]]) -> None:
        with self._changed:
            if self._logs.get(game_id):
                raise VersionConflict(0, len(self._logs[game_id]))
            self._logs[game_id] = [text for _, text in entries]
            self._hashes[game_id] = [Envelope.decode(text).hash for _, text in entries]
            last = Envelope.decode(entries[-1][1])
            self._feed.append(Notice(f"{len(self._feed) + 1}-0", game_id, last.version, last.type))
            self._changed.notify_all()

    def command_result(self, game_id: str, command_id: str, fingerprint: str | None = None) -> AppendResult | None:
        record = self._commands.get((game_id, command_id))
        if record is None:
            return None
        first, last, recorded = record
        if not same_request(recorded, fingerprint):
            raise CommandReused(command_id)
        return AppendResult(first, last, duplicate=True)

    def read_raw(self, game_id: str, after: int = 0, limit: int | None = None) -> list[tuple[int, str]]:
        log = self._logs.get(game_id, [])
        end = len(log) if limit is None else min(len(log), after + limit)
        return [(v, log[v - 1]) for v in range(after + 1, end + 1)]

    def last_version(self, game_id: str) -> int:
        return len(self._logs.get(game_id, []))

    def game_ids(self) -> Iterator[str]:
        return iter(list(self._logs))

    def notices(self, after: str = "0", limit: int = 1000) -> list[Notice]:
        start = int(after.split("-")[0])
        return self._feed[start : start + limit]

    def wait_for(self, game_id: str, after: int, timeout_seconds: float, limit: int | None = None) -> list[Envelope]:
        with self._changed:
            self._changed.wait_for(lambda: self.last_version(game_id) > after, max(0.0, timeout_seconds))
            return self.read(game_id, after, limit)

    def subscribe(self, group: str, consumer: str, claim_idle_seconds: float = 30.0) -> Subscription:
        return MemorySubscription(self, group, consumer, claim_idle_seconds)

    def tamper(self, game_id: str, version: int, text: str) -> None:
        """Overwrite a stored entry (for tests of the hash-chain check)."""
        self._logs[game_id][version - 1] = text


@dataclass
class _Group:
    """A consumer group's place in the feed: how many notices it has handed out, and the
    pending ones by their index in the feed, with their consumer and when it got them."""

    handed_out: int = 0
    pending: dict[int, tuple[str, float]] = field(default_factory=dict)


class MemorySubscription(Subscription):
    def __init__(self, store: MemoryEventStore, group: str, consumer: str, claim_idle_seconds: float) -> None:
        super().__init__(group, consumer, claim_idle_seconds)
        self.store = store
        self._opened = False

    def open(self) -> None:
        with self.store._changed:
            self.store._groups.setdefault(self.group, _Group())

    def receive(self, count: int = 100, block_seconds: float = 1.0) -> list[Notice]:
        store = self.store
        with store._changed:
            group = store._groups.setdefault(self.group, _Group())
            now = time.monotonic()
            pending = sorted(group.pending.items())
            taken = [i for i, (_, since) in pending if now - since >= self.claim_idle_seconds][:count]
            own = [] if self._opened else [i for i, (holder, _) in pending if holder == self.consumer]
            self._opened = True
            handed = {*taken, *own[:OWN_PENDING_LIMIT]}
            if not handed:
                store._changed.wait_for(lambda: len(store._feed) > group.handed_out, max(0.0, block_seconds))
            new = range(group.handed_out, min(len(store._feed), group.handed_out + count))
            group.handed_out = new.stop
            handed.update(new)
            now = time.monotonic()
            for index in handed:
                group.pending[index] = (self.consumer, now)
            return [store._feed[index] for index in sorted(handed)]

    def ack(self, *notices: Notice) -> None:
        with self.store._changed:
            group = self.store._groups.get(self.group)
            if group is None:
                return
            for notice in notices:
                group.pending.pop(int(notice.id.split("-")[0]) - 1, None)

    def caught_up(self) -> bool:
        with self.store._changed:
            group = self.store._groups.get(self.group)
            return group is not None and not group.pending and group.handed_out == len(self.store._feed)
