"""The event store interface: one append-only, hash-chained log per game, plus a
global feed of notices that read-model projectors consume.

Readers that follow a log or the feed do it through the store too: ``wait_for`` waits
for a game's next events (the event stream a client watches), and ``subscribe`` makes a
consumer of a group that shares the feed out (the projector).

Two implementations pass one contract suite: ``events.redis_store.RedisEventStore``
and ``events.memory.MemoryEventStore``.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from events.envelope import GENESIS_HASH, ChainReport, Envelope, NewEvent, verify_chain

DEDUP_SECONDS = 7 * 24 * 3600


class CommandReused(Exception):
    """A command id seen before came with a different request (another fingerprint)."""

    def __init__(self, command_id: str) -> None:
        super().__init__(f"command {command_id} was used for a different request")
        self.command_id = command_id


def same_request(recorded: str | None, fingerprint: str | None) -> bool:
    """Whether a request with ``fingerprint`` repeats the one recorded under its command id.

    A missing fingerprint matches: records written before fingerprints existed (kept
    ``DEDUP_SECONDS``) must still answer their retries as duplicates, and bots and the
    turn timer, whose command ids are theirs alone, send none.
    """
    return recorded is None or fingerprint is None or recorded == fingerprint


class VersionConflict(Exception):
    """The log is not at the expected version (a concurrent writer got there first)."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected version {expected}, the log is at {current}")
        self.expected = expected
        self.current = current


class LogDamaged(Exception):
    """The log does not hold every version its head (or a table folded from it) vouches
    for: events were removed. ``version`` is the last one held in order from the start of
    the read; ``head_version`` the one that should have been there."""

    def __init__(self, game_id: str, version: int, head_version: int) -> None:
        super().__init__(f"game {game_id}'s log ends at version {version}, its head is at {head_version}")
        self.game_id, self.version, self.head_version = game_id, version, head_version


@dataclass(frozen=True)
class AppendResult:
    """What an append wrote: its versions and, unless it was a duplicate, its envelopes."""

    first_version: int
    last_version: int
    duplicate: bool = False
    envelopes: tuple[Envelope, ...] = ()
    # False: written on the master, but fewer replicas than asked confirmed the copy in
    # time (the append is not acknowledged; a retry with its command id confirms it).
    replicated: bool = True

    @property
    def versions(self) -> range:
        return range(self.first_version, self.last_version + 1)


@dataclass(frozen=True)
class Notice:
    """One entry of the global feed: a command appended to ``game`` up to ``version``,
    its last event being of ``type``."""

    id: str
    game: str
    version: int
    type: str


class Subscription(abc.ABC):
    """One consumer, named ``consumer``, of the consumer group ``group`` on the feed.

    The group hands each notice to one of its consumers, and the notice stays pending
    until that consumer acks it. Nothing handed out is lost when a consumer dies before
    acking: subscribed again under the same name, its first ``receive`` returns its
    pending notices; under any name, every ``receive`` takes over the notices left pending
    for ``claim_idle_seconds`` or more (a dead consumer's, or one not acked because it could
    not be applied).
    """

    def __init__(self, group: str, consumer: str, claim_idle_seconds: float) -> None:
        self.group = group
        self.consumer = consumer
        self.claim_idle_seconds = claim_idle_seconds

    @abc.abstractmethod
    def open(self) -> None:
        """Create the group if it is missing, reading the feed from its start; hand out
        nothing. (The first ``receive`` does this too.)"""

    @abc.abstractmethod
    def receive(self, count: int = 100, block_seconds: float = 1.0) -> list[Notice]:
        """Notices for this consumer, in feed order (a partitioned store's: each game's in
        version order, see ``events.redis_store``): up to ``count`` taken over as idle,
        this consumer's own pending ones on the first call, and up to ``count`` new ones.
        Waits up to ``block_seconds`` for a new notice when there is none of these; [] when
        none came. The first call creates the group if it is missing, reading the feed
        from its start."""

    @abc.abstractmethod
    def ack(self, *notices: Notice) -> None:
        """The notices are applied: the group hands them out no more."""

    @abc.abstractmethod
    def caught_up(self) -> bool:
        """Whether the group exists, has handed out every notice of the feed and had each
        one acked."""


def stamp(moment: datetime) -> str:
    """A UTC time as the log writes it (``Envelope.at``): ISO 8601, milliseconds, ``Z``."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stamp_ms(milliseconds: int) -> str:
    """``stamp`` of a time given in milliseconds since the epoch."""
    return stamp(datetime.fromtimestamp(milliseconds / 1000, UTC))


def now_iso() -> str:
    return stamp(datetime.now(UTC))


class EventStore(abc.ABC):
    def now(self) -> str:
        """The time an append stamps on its events (``Envelope.at``): the clock that game
        clocks are kept by. A test replaces it on a store to control time."""
        return now_iso()

    @abc.abstractmethod
    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        prev_hash: str | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        """Append all ``events`` atomically after ``expected_version``.

        A ``command_id`` seen before returns the first result and appends nothing when
        its request is the same (``same_request`` of the recorded ``fingerprint``), and
        raises ``CommandReused`` when it is not; otherwise a log not at
        ``expected_version`` raises ``VersionConflict``. ``prev_hash`` (the hash at
        ``expected_version``, when the caller knows it) saves a read.
        """

    @abc.abstractmethod
    def import_raw(self, game_id: str, entries: Sequence[tuple[int, str]]) -> None:
        """Write a verified log exactly as it was stored elsewhere, into a game with no
        events (raises ``VersionConflict`` otherwise)."""

    def note_unreplicated(self, game_id: str, first: int, last: int) -> None:
        """Record that versions ``first`` to ``last`` were acknowledged before any replica
        confirmed them (``TABLESTREAM_UNREPLICATED=acknowledge``): the audit reports them.
        A store with no replicas has nothing to record."""
        return None

    def unreplicated(self, game_id: str) -> list[tuple[int, int]]:
        """The spans of versions acknowledged unreplicated, in order."""
        return []

    @abc.abstractmethod
    def command_result(self, game_id: str, command_id: str, fingerprint: str | None = None) -> AppendResult | None:
        """The result of an earlier append with ``command_id``, if it happened;
        ``CommandReused`` if it happened for a request other than ``fingerprint``'s."""

    @abc.abstractmethod
    def read_raw(self, game_id: str, after: int = 0, limit: int | None = None) -> list[tuple[int, str]]:
        """Stored entries ``(version, text)`` after ``after``, oldest first."""

    @abc.abstractmethod
    def last_version(self, game_id: str) -> int:
        """0 for a game with no events."""

    @abc.abstractmethod
    def game_ids(self) -> Iterator[str]:
        """Every game with at least one event."""

    @abc.abstractmethod
    def notices(self, after: str = "0", limit: int = 1000) -> list[Notice]:
        """Feed entries after the feed id ``after``."""

    @abc.abstractmethod
    def wait_for(self, game_id: str, after: int, timeout_seconds: float, limit: int | None = None) -> list[Envelope]:
        """The events after ``after``, oldest first, as soon as there is one (at once when
        there is one already); [] when ``timeout_seconds`` pass first."""

    def wait_for_either(
        self,
        game_id: str,
        after: int,
        side: str,
        side_after: str,
        timeout_seconds: float,
        limit: int | None = None,
    ) -> tuple[list[Envelope], list[tuple[str, dict[str, str]]]]:
        """Like ``wait_for``, and in the same wait the entries ``(id, fields)`` after the
        id ``side_after`` of the game's side stream ``side``: a stream of the game's own
        beside its log (its chat), never part of the hash chain. Returns as soon as either
        has one. A store without side streams (the in-memory one) waits for events alone."""
        return self.wait_for(game_id, after, timeout_seconds, limit), []

    @abc.abstractmethod
    def subscribe(self, group: str, consumer: str, claim_idle_seconds: float = 30.0) -> Subscription:
        """``consumer`` of the consumer group ``group`` on the feed (see ``Subscription``).
        Subscribing sends nothing to the store: the first ``receive`` does."""

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        return [Envelope.decode(text) for _, text in self.read_raw(game_id, after, limit)]

    def read_raw_span(self, game_id: str, after: int, upto: int) -> list[tuple[int, str]]:
        """Every version after ``after`` up to ``upto``, which the caller knows were
        appended (it read the head, or a table folded to it, first): one prefix of the log,
        never more. ``LogDamaged`` when any of them is missing."""
        if upto <= after:
            return []
        entries = self.read_raw(game_id, after, upto - after)
        for expected, (version, _) in enumerate(entries, start=after + 1):
            if version != expected:
                raise LogDamaged(game_id, expected - 1, upto)
        if len(entries) < upto - after:
            raise LogDamaged(game_id, after + len(entries), upto)
        return entries

    def read_span(self, game_id: str, after: int, upto: int) -> list[Envelope]:
        """``read_raw_span``, decoded."""
        return [Envelope.decode(text) for _, text in self.read_raw_span(game_id, after, upto)]

    def read_tail(self, game_id: str, after: int = 0) -> tuple[list[Envelope], int]:
        """The events after ``after`` and the head's version, read together: a log whose
        events end before its head has lost its tail. The head is read first: an append
        in between only adds events past it."""
        head = self.last_version(game_id)
        return self.read(game_id, after), head

    def verify(self, game_id: str) -> ChainReport:
        return verify_chain(self.read_raw(game_id))

    def head(self, game_id: str) -> tuple[int, str]:
        """``(last version, its hash)``."""
        version = self.last_version(game_id)
        if version == 0:
            return 0, GENESIS_HASH
        ((_, text),) = self.read_raw(game_id, after=version - 1, limit=1)
        return version, Envelope.decode(text).hash
