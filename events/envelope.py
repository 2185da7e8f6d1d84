"""The event envelope, its canonical JSON form and the hash chain that links a log.

``hash = sha256(prev_hash + "\\n" + canonical JSON of the hashed body)``: changing any
byte of a stored event, or removing or reordering events, breaks the chain from that
version on.

Two envelope schemas are in use (``docs/verification.md`` states both):

* 1, the first: the body is every field but ``prev_hash`` and ``hash``, with the data
  whole, so its hash could be used to test a guess about a hidden card. Games stored so
  keep verifying under it; their hashes are shown only once the game is over.
* 2, every event appended now: the body carries ``"schema": 2`` and, in place of the
  data, its *sealed* form when the data hides something (``events.commitments``): every
  hidden value only as a salted commitment. The hash is public from the start.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GENESIS_HASH = "0" * 64
SCHEMA = 2


# One encoder, made once: ``json.dumps`` with these options builds a new one on every call.
_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_STRING = json.encoder.encode_basestring  # a JSON string as that encoder writes it


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept as is: one text per value."""
    return _ENCODE(value)


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: what the handler hands the store."""

    type: str
    data: Mapping[str, Any]
    seat: int | None = None
    actor: str = "system"
    sealed: Mapping[str, Any] | None = None  # the data as the chain commits to it, when it hides something


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
    schema: int = 1
    sealed: Mapping[str, Any] | None = None

    def body(self) -> dict[str, Any]:
        """Every field the hash covers, besides ``prev_hash``."""
        return hashed_body(
            self.schema,
            self.version,
            self.type,
            self.seat,
            self.actor,
            self.data if self.sealed is None else self.sealed,
            self.at,
            self.command_id,
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": self.version,
            "type": self.type,
            "seat": self.seat,
            "actor": self.actor,
            "data": self.data,
            "at": self.at,
            "command_id": self.command_id,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }
        if self.schema != 1:
            out["schema"] = self.schema
        if self.sealed is not None:
            out["sealed"] = self.sealed
        return out

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
            schema=raw.get("schema", 1),
            sealed=raw.get("sealed"),
        )

    @classmethod
    def decode(cls, text: str | bytes) -> Envelope:
        return cls.from_dict(json.loads(text))


def hashed_body(
    schema: int,
    version: int,
    type_: str,
    seat: int | None,
    actor: str,
    hashed_data: Mapping[str, Any],
    at: str,
    command_id: str | None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "version": version,
        "type": type_,
        "seat": seat,
        "actor": actor,
        "data": hashed_data,
        "at": at,
        "command_id": command_id,
    }
    if schema != 1:
        body["schema"] = schema
    return body


def hash_of(prev_hash: str, body: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + "\n" + canonical_json(body)).encode()).hexdigest()


def chain(
    events: Sequence[NewEvent],
    first_version: int,
    prev_hash: str,
    at: str,
    command_id: str | None,
) -> list[Envelope]:
    """Number, stamp and hash ``events`` as the continuation of a log (schema 2)."""
    return [envelope for envelope, _ in chain_encoded(events, first_version, prev_hash, at, command_id)]


def chain_encoded(
    events: Sequence[NewEvent],
    first_version: int,
    prev_hash: str,
    at: str,
    command_id: str | None,
) -> list[tuple[Envelope, str]]:
    """``chain``, each envelope with its stored text (``Envelope.encode``).

    Both texts are canonical JSON objects with sorted keys, so each is its fields' texts in
    key order: the hashed body (actor, at, command_id, data, schema, seat, type, version)
    and the stored envelope (the same, with hash and prev_hash after data and, for an
    event that hides something, sealed after schema) share every piece but the data's.
    They are put together from pieces, each value encoded once, rather than encoding the
    whole of each (``tests/platform/test_envelope_texts.py`` holds them equal to
    ``canonical_json`` of ``body()`` and of ``as_dict()``)."""
    out = []
    stamp = ',"at":' + _STRING(at) + ',"command_id":' + ("null" if command_id is None else _STRING(command_id))
    for offset, event in enumerate(events):
        version = first_version + offset
        head = '{"actor":' + _STRING(event.actor) + stamp
        data_text = _ENCODE(event.data)
        hashed_text = data_text if event.sealed is None else _ENCODE(event.sealed)
        seat = "null" if event.seat is None else str(event.seat) if type(event.seat) is int else _ENCODE(event.seat)
        tail = ',"seat":' + seat + ',"type":' + _STRING(event.type) + ',"version":' + str(version) + "}"
        body = head + ',"data":' + hashed_text + ',"schema":' + str(SCHEMA) + tail
        digest = hashlib.sha256((prev_hash + "\n" + body).encode()).hexdigest()
        sealed = "" if event.sealed is None else ',"sealed":' + hashed_text
        text = (
            head
            + ',"data":'
            + data_text
            + ',"hash":"'
            + digest
            + '","prev_hash":'
            + _STRING(prev_hash)
            + ',"schema":'
            + str(SCHEMA)
            + sealed
            + tail
        )
        envelope = Envelope(
            version,
            event.type,
            event.seat,
            event.actor,
            event.data,
            at,
            command_id,
            prev_hash,
            digest,
            SCHEMA,
            event.sealed,
        )
        out.append((envelope, text))
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
