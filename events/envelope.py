"""The event envelope, its canonical JSON form and the hash chain that links a log.

``hash = sha256(prev_hash + "\\n" + canonical JSON of every other field)``: changing
any byte of a stored event, or removing or reordering events, breaks the chain from
that version on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GENESIS_HASH = "0" * 64
ACTORS = frozenset({"human", "bot", "system", "timeout"})


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept as is: one text per value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: what the handler hands the store."""

    type: str
    data: Mapping[str, Any]
    seat: int | None = None
    actor: str = "system"


@dataclass(frozen=True)
class Envelope:
    version: int
    type: str
    seat: int | None
    actor: str
    data: Mapping[str, Any]
    at: str
    command_id: str | None
    prev_hash: str
    hash: str

    def body(self) -> dict[str, Any]:
        """Every field the hash covers, besides ``prev_hash``."""
        return {
            "version": self.version,
            "type": self.type,
            "seat": self.seat,
            "actor": self.actor,
            "data": self.data,
            "at": self.at,
            "command_id": self.command_id,
        }

    def as_dict(self) -> dict[str, Any]:
        return {**self.body(), "prev_hash": self.prev_hash, "hash": self.hash}

    def encode(self) -> str:
        return canonical_json(self.as_dict())

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Envelope:
        return cls(
            version=raw["version"],
            type=raw["type"],
            seat=raw["seat"],
            actor=raw["actor"],
            data=raw["data"],
            at=raw["at"],
            command_id=raw["command_id"],
            prev_hash=raw["prev_hash"],
            hash=raw["hash"],
        )

    @classmethod
    def decode(cls, text: str | bytes) -> Envelope:
        return cls.from_dict(json.loads(text))


def hash_of(prev_hash: str, body: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + "\n" + canonical_json(body)).encode()).hexdigest()


def chain(
    events: Sequence[NewEvent],
    first_version: int,
    prev_hash: str,
    at: str,
    command_id: str | None,
) -> list[Envelope]:
    """Number, stamp and hash ``events`` as the continuation of a log."""
    out = []
    for offset, event in enumerate(events):
        body: dict[str, Any] = {
            "version": first_version + offset,
            "type": event.type,
            "seat": event.seat,
            "actor": event.actor,
            "data": event.data,
            "at": at,
            "command_id": command_id,
        }
        digest = hash_of(prev_hash, body)
        out.append(Envelope(**body, prev_hash=prev_hash, hash=digest))
        prev_hash = digest
    return out


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    first_bad_version: int | None = None
    reason: str | None = None


def verify_chain(
    entries: Iterable[tuple[int, str | bytes]], prev_hash: str = GENESIS_HASH, start: int = 1
) -> ChainReport:
    """Check stored entries ``(entry version, stored text)``: each decodes, is numbered
    in order, links to the one before and matches its hash. Names the first bad version."""
    expected = start
    for entry_version, text in entries:
        if entry_version != expected:
            return ChainReport(False, expected, f"version {expected} is missing or out of order")
        try:
            envelope = Envelope.decode(text)
        except (ValueError, KeyError, TypeError):
            return ChainReport(False, expected, "the stored event is not a valid envelope")
        if envelope.version != expected:
            return ChainReport(False, expected, "the event's version does not match its position")
        if envelope.prev_hash != prev_hash:
            return ChainReport(False, expected, "prev_hash does not match the previous event's hash")
        if hash_of(prev_hash, envelope.body()) != envelope.hash:
            return ChainReport(False, expected, "the event's content does not match its hash")
        prev_hash = envelope.hash
        expected += 1
    return ChainReport(True)
