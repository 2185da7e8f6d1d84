"""The in-memory event store: the same contract as Redis, for rules tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from events.envelope import NewEvent, chain
from events.store import AppendResult, CommandReused, EventStore, Notice, VersionConflict, now_iso, same_request


class MemoryEventStore(EventStore):
    def __init__(self) -> None:
        self._logs: dict[str, list[str]] = {}
        self._hashes: dict[str, list[str]] = {}
        # (game, command id) -> (first version, last version, the request's fingerprint)
        self._commands: dict[tuple[str, str], tuple[int, int, str | None]] = {}
        self._feed: list[Notice] = []
        self._lock = threading.Lock()

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        prev_hash: str | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        with self._lock:
            if command_id is not None:
                earlier = self.command_result(game_id, command_id, fingerprint)
                if earlier is not None:
                    return earlier
            log = self._logs.setdefault(game_id, [])
            hashes = self._hashes.setdefault(game_id, [])
            if len(log) != expected_version:
                raise VersionConflict(expected_version, len(log))
            head_hash = hashes[-1] if hashes else "0" * 64
            envelopes = chain(events, expected_version + 1, head_hash, now_iso(), command_id)
            log.extend(e.encode() for e in envelopes)
            hashes.extend(e.hash for e in envelopes)
            result = AppendResult(expected_version + 1, expected_version + len(envelopes), False, tuple(envelopes))
            if command_id is not None:
                self._commands[game_id, command_id] = (result.first_version, result.last_version, fingerprint)
            last = envelopes[-1]
            self._feed.append(Notice(f"{len(self._feed) + 1}-0", game_id, last.version, last.type))
            return result

    def import_raw(self, game_id: str, entries: Sequence[tuple[int, str]]) -> None:
        from events.envelope import Envelope

        with self._lock:
            if self._logs.get(game_id):
                raise VersionConflict(0, len(self._logs[game_id]))
            self._logs[game_id] = [text for _, text in entries]
            self._hashes[game_id] = [Envelope.decode(text).hash for _, text in entries]
            last = Envelope.decode(entries[-1][1])
            self._feed.append(Notice(f"{len(self._feed) + 1}-0", game_id, last.version, last.type))

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

    def tamper(self, game_id: str, version: int, text: str) -> None:
        """Overwrite a stored entry (for tests of the hash-chain check)."""
        self._logs[game_id][version - 1] = text
