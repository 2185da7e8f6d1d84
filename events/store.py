"""The event store interface: one append-only, hash-chained log per game, plus a
global feed of notices that read-model projectors consume.

Two implementations pass one contract suite: ``events.redis_store.RedisEventStore``
and ``events.memory.MemoryEventStore``.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from events.envelope import ChainReport, Envelope, NewEvent, verify_chain

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


@dataclass(frozen=True)
class AppendResult:
    """What an append wrote: its versions and, unless it was a duplicate, its envelopes."""

    first_version: int
    last_version: int
    duplicate: bool = False
    envelopes: tuple[Envelope, ...] = ()

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


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class EventStore(abc.ABC):
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

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        return [Envelope.decode(text) for _, text in self.read_raw(game_id, after, limit)]

    def read_tail(self, game_id: str, after: int = 0) -> tuple[list[Envelope], int]:
        """The events after ``after`` and the head's version, read together: a log whose
        events end before its head has lost its tail."""
        return self.read(game_id, after), self.last_version(game_id)

    def verify(self, game_id: str) -> ChainReport:
        return verify_chain(self.read_raw(game_id))

    def head(self, game_id: str) -> tuple[int, str]:
        """``(last version, its hash)``."""
        from events.envelope import GENESIS_HASH

        version = self.last_version(game_id)
        if version == 0:
            return 0, GENESIS_HASH
        ((_, text),) = self.read_raw(game_id, after=version - 1, limit=1)
        return version, Envelope.decode(text).hash
