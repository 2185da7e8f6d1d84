"""A verifier of tablestream games that imports nothing of tablestream.

It follows ``docs/verification.md`` alone, with SHA-256, HMAC-SHA256 and a JSON parser:
given a game's record (``GET /v1/games/{id}/replay``) or an operator's export
(``tablestream export``), it checks, in the spec's order and stopping at the first
failure, that versions run without a gap, that the hash chain links and recomputes,
that the head, the ledger entry and any head a client kept agree with the log's end,
and, once the game is over, that the seed matches its commitment, that every
commitment opens to the revealed data and that every random draw re-derives from the
seed. ``service/client/verify.js`` is the same verifier for the browser; the two give
the same verdict, word for word, on the same record.

Standard library only, on purpose: a copy of this file is all anyone needs.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

GENESIS_HASH = "0" * 64
EXPORT_FORMAT = "tablestream-export/1"
COMMIT = "$commit"
FIRST_TYPES = ("GameCreated", "ForkedFrom")
LEDGER_HASHED = ("index", "game", "kind", "version", "hash", "at")
MAX_SAFE = 2**53 - 1  # the integers every JSON reader (JavaScript's included) keeps exact
HEX64 = re.compile(r"[0-9a-f]{64}")
NOT_WHOLE = "holds a number that is not a whole number"
TOO_LARGE = "holds a number too large to be read exactly"
NOT_TEXT = "holds text that is not valid Unicode"
NOUNS = {str: "text", int: "a whole number", dict: "an object"}


class Unreadable(ValueError):
    """The input is not a record or an export at all (nothing to verify)."""


class Failed(Exception):
    """A check failed at ``version`` for ``reason``."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(reason)
        self.version = version
        self.reason = reason


@dataclass
class Verdict:
    ok: bool = True
    first_bad_version: int | None = None
    reason: str | None = None
    game: str | None = None
    kind: str | None = None
    events: int = 0
    over: bool = False
    commitments: int = 0
    draws: int = 0
    checked: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "first_bad_version": self.first_bad_version,
            "reason": self.reason,
            "game": self.game,
            "kind": self.kind,
            "events": self.events,
            "over": self.over,
            "commitments": self.commitments,
            "draws": self.draws,
            "checked": list(self.checked),
        }


@dataclass(frozen=True)
class Head:
    version: int
    hash: str | None


# -- section 1: canonical JSON ----------------------------------------------------


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, non-ASCII as itself (docs/verification.md, section 1)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def plain_problem(value: Any) -> str | None:
    """Why ``value`` has no canonical text both verifiers agree on, or None: numbers must
    be whole and within 2**53, text valid Unicode."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if abs(item) > MAX_SAFE:
                found.add(TOO_LARGE)
        elif isinstance(item, float):
            found.add(NOT_WHOLE)
        elif isinstance(item, str):
            if not _valid_text(item):
                found.add(NOT_TEXT)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            if not all(map(_valid_text, item)):
                found.add(NOT_TEXT)
            stack.extend(item.values())
    return next((problem for problem in (NOT_WHOLE, TOO_LARGE, NOT_TEXT) if problem in found), None)


def _valid_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def sha256_hex(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def hmac_sha256(key: str, message: str) -> bytes:
    return hmac.new(key.encode(), message.encode(), hashlib.sha256).digest()


# -- section 2: the chain ------------------------------------------------------------


def hashed_body(event: dict[str, Any]) -> dict[str, Any]:
    schema = event.get("schema", 1)
    body = {
        "version": event["version"],
        "type": event["type"],
        "seat": event["seat"],
        "actor": event["actor"],
        "data": event["sealed"] if schema != 1 and "sealed" in event else event["data"],
        "at": event["at"],
        "command_id": event["command_id"],
    }
    if schema != 1:
        body["schema"] = schema
    return body


def event_hash(prev_hash: str, event: dict[str, Any]) -> str:
    return sha256_hex(prev_hash + "\n" + canonical_json(hashed_body(event)))


def event_problem(event: Any) -> str | None:
    """Why ``event`` is not an event the chain rule can hash, or None."""
    if not isinstance(event, dict):
        return "the event is not a JSON object"
    schema = event.get("schema", 1)
    if schema not in (1, 2) or isinstance(schema, bool):
        return "the event has an unknown envelope schema"
    if schema == 1 and event.get("hash") is None:
        return "the event shows no hash: a game begun before schema 2 shows its hashes only once it is over"
    expected: list[tuple[str, type, bool]] = [
        ("type", str, False),
        ("seat", int, True),
        ("actor", str, False),
        ("data", dict, False),
        ("at", str, False),
        ("command_id", str, True),
        ("prev_hash", str, False),
        ("hash", str, False),
    ]
    for name, kind, nullable in expected:
        if name not in event:
            return f"the event has no {name}"
        value = event[name]
        if value is None and nullable:
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"the event's {name} is not {NOUNS[kind]}"
    if "sealed" in event:
        if schema == 1:
            return "a schema-1 event carries a sealed form its hash does not cover"
        if not isinstance(event["sealed"], dict):
            return "the event's sealed form is not an object"
    problem = plain_problem(event)
    return f"the event {problem}" if problem else None


def check_event(event: Any, prev_hash: str, version: int) -> tuple[str | None, str | None]:
    """One event against the hash before it, for checking live: (problem, its hash)."""
    if not isinstance(event, dict) or event.get("version") != version or isinstance(event.get("version"), bool):
        return f"version {version} is missing or out of order", None
    problem = event_problem(event)
    if problem:
        return problem, None
    if event["prev_hash"] != prev_hash:
        return "prev_hash is not the hash of the event before it", None
    digest = event_hash(prev_hash, event)
    if digest != event["hash"]:
        return "the event's content does not match its hash", None
    return None, digest


# -- section 3: commitments -----------------------------------------------------------


def salt(seed: str, version: int, path: Sequence[str | int]) -> bytes:
    return hmac_sha256(seed, f"tablestream/salt/2\n{version}\n{canonical_json(list(path))}")


def commitment(salt_bytes: bytes, value: Any) -> str:
    return sha256_hex(salt_bytes + canonical_json(value).encode())


def is_commitment(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and isinstance(value.get(COMMIT), str)


def spell(path: Sequence[str | int]) -> str:
    return "data" + "".join(f"[{canonical_json(p)}]" for p in path)


def open_sealed(sealed: Any, data: Any, seed: str | None, version: int, path: tuple[str | int, ...] = ()) -> int:
    """Check ``data`` against the ``sealed`` form its hash covers, keys in sorted order;
    raise Failed, else the number of commitments opened. Without the seed (a game in
    play) commitments are not opened, and the caller may be shown less of them."""
    if is_commitment(sealed):
        if seed is None:
            return 0
        if commitment(salt(seed, version, path), data) != sealed[COMMIT]:
            raise Failed(version, f"the hidden value at {spell(path)} does not match its commitment")
        return 1
    if isinstance(sealed, dict) and isinstance(data, dict):
        opened = 0
        for key in sorted(set(sealed) | set(data)):
            if key not in data:
                if seed is not None or not is_commitment(sealed[key]):
                    raise Failed(version, f"{spell((*path, key))} is missing from the data")
            elif key not in sealed:
                # In play a caller may be shown more than the hash covers (a count standing
                # for hidden cards); once the game is over the data is the sealed form opened.
                if seed is not None:
                    raise Failed(version, f"{spell((*path, key))} is in the data but not in the sealed form")
            else:
                opened += open_sealed(sealed[key], data[key], seed, version, (*path, key))
        return opened
    if isinstance(sealed, list) and isinstance(data, list) and len(sealed) == len(data):
        pairs = enumerate(zip(sealed, data, strict=True))
        return sum(open_sealed(s, d, seed, version, (*path, i)) for i, (s, d) in pairs)
    if canonical_json(sealed) != canonical_json(data):
        raise Failed(version, f"the data at {spell(path)} differs from the sealed form its hash covers")
    return 0


def located(value: Any, path: Sequence[Any]) -> tuple[bool, Any]:
    """The value at ``path`` (object keys as text, list indexes as whole numbers), if any."""
    for part in path:
        if not holds(value, part):
            return False, None
        value = value[part]
    return True, value


def holds(value: Any, part: Any) -> bool:
    if isinstance(value, dict):
        return isinstance(part, str) and part in value
    return isinstance(value, list) and _is_int(part) and 0 <= part < len(value)


def check_openings(event: dict[str, Any]) -> int:
    """Section 3's openings: each salt a seat is given must open the commitment at its
    path to the value the seat is shown there; raise Failed, else the number opened."""
    if "openings" not in event:
        return 0
    version, openings = event["version"], event["openings"]
    if not isinstance(openings, list):
        raise Failed(version, "the event's openings are not a list")
    named: set[str] = set()
    for opening in openings:
        if (
            not isinstance(opening, dict)
            or set(opening) != {"path", "salt"}
            or not isinstance(opening["path"], list)
            or not all(isinstance(p, str) or _is_int(p) for p in opening["path"])
            or not isinstance(opening["salt"], str)
            or not HEX64.fullmatch(opening["salt"])
        ):
            raise Failed(version, "an opening is not a path and a salt of 64 hex digits")
        path, where = opening["path"], spell(opening["path"])
        if canonical_json(path) in named:
            raise Failed(version, f"two openings name {where}")
        named.add(canonical_json(path))
        found, sealed = located(event.get("sealed"), path)
        if not found or not is_commitment(sealed):
            raise Failed(version, f"the opening of {where} names no commitment in the sealed form")
        shown, value = located(event["data"], path)
        if not shown:
            raise Failed(version, f"the opening of {where} names a value the data does not show")
        if commitment(bytes.fromhex(opening["salt"]), value) != sealed[COMMIT]:
            raise Failed(version, f"the value at {where} does not match its commitment under the salt given")
    return len(openings)


# -- section 5: random draws -------------------------------------------------------------


def byte_stream(seed: str, label: str) -> Iterator[int]:
    counter = 0
    while True:
        yield from hmac_sha256(seed, f"tablestream/draw/2\n{label}\n{counter}")
        counter += 1


def below(n: int, stream: Iterator[int]) -> int:
    if n == 1:
        return 0
    bits = (n - 1).bit_length()
    width = (bits + 7) // 8
    mask = (1 << bits) - 1
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(width)), "big") & mask
        if value < n:
            return value


def shuffled(items: Sequence[Any], seed: str, label: str) -> list[Any]:
    out = sorted(items, key=lambda item: canonical_json(item).encode())
    stream = byte_stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1, stream)
        out[i], out[j] = out[j], out[i]
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_draws(draws: Any, seed: str, version: int) -> int:
    """Re-derive one event's ``data.draws``; raise Failed, else how many there were."""
    if draws is None:
        return 0
    if not isinstance(draws, list):
        raise Failed(version, "the draws are not a list")
    for k, draw in enumerate(draws):
        label = f"v{version}/{k}"
        if not isinstance(draw, dict) or draw.get("label") != label:
            raise Failed(version, f"draw {k} is not labelled {label}")
        result = draw.get("result")
        if "integer" in draw:
            bounds = draw["integer"]
            if not (
                isinstance(bounds, list) and len(bounds) == 2 and all(map(_is_int, bounds)) and bounds[0] <= bounds[1]
            ):
                raise Failed(version, f"draw {label} has no valid range")
            low, high = bounds
            if not _is_int(result) or result != low + below(high - low + 1, byte_stream(seed, label)):
                raise Failed(version, f"draw {label} is not what the seed gives")
        elif "shuffle" in draw:
            if not (_is_int(draw["shuffle"]) and isinstance(result, list) and len(result) == draw["shuffle"]):
                raise Failed(version, f"shuffle {label} does not hold the number of items it names")
            if canonical_json(shuffled(result, seed, label)) != canonical_json(result):
                raise Failed(version, f"shuffle {label} is not what the seed gives")
        else:
            raise Failed(version, f"draw {label} is neither an integer nor a shuffle")
    return len(draws)


# -- section 6: the ledger ----------------------------------------------------------------


def ledger_entry_hash(entry: dict[str, Any]) -> str:
    body = {name: entry[name] for name in LEDGER_HASHED}
    return sha256_hex(f"{entry['prev']}\n{canonical_json(body)}")


# -- reading a record ---------------------------------------------------------------------


@dataclass
class Record:
    """A replay or an export, reduced to the fields the spec names."""

    events: list[Any]
    game: str | None = None
    kind: str | None = None
    status: str | None = None
    seed_commitment: str | None = None
    seed: str | None = None
    outcome: Any = None
    has_outcome: bool = False
    head: Any = None
    ledger: Any = None
    versions: Any = None
    ledger_proof: Any = None


def _loads(text: str) -> Any:
    def whole(number: str) -> Any:
        value = float(number)
        return int(value) if value.is_integer() else value

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_float=whole, parse_constant=refuse)


def parse_record(text: str) -> Record:
    """A replay record (one JSON object) or an export (NDJSON after its header line)."""
    text = text.lstrip("\ufeff")
    try:
        whole = _loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and "events" in whole:
        return record_from_replay(whole)
    # Split on newlines only: a stored event may hold U+2028 and the like as itself.
    lines = [line for line in text.split("\n") if line.strip(" \t\r")]
    if not lines:
        raise Unreadable("the input is empty")
    try:
        header = _loads(lines[0])
    except ValueError:
        raise Unreadable("the input is neither a game's record (JSON) nor an export (NDJSON)") from None
    if not isinstance(header, dict) or header.get("format") != EXPORT_FORMAT:
        raise Unreadable(f"the input is neither a game's record nor a {EXPORT_FORMAT} export")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            events.append(_loads(line))
        except ValueError:
            raise Unreadable(f"line {number} of the export is not JSON") from None
    return Record(
        events=events,
        game=header.get("game") if isinstance(header.get("game"), str) else None,
        kind=header.get("kind") if isinstance(header.get("kind"), str) else None,
        seed=header.get("seed"),
        head=header.get("head"),
        ledger=header.get("ledger"),
        versions=header.get("versions"),
        ledger_proof=header.get("ledger_proof"),
    )


def record_from_replay(raw: dict[str, Any]) -> Record:
    if not isinstance(raw.get("events"), list):
        raise Unreadable("the record's events are not a list")
    return Record(
        events=raw["events"],
        game=raw.get("id") if isinstance(raw.get("id"), str) else None,
        kind=raw.get("kind") if isinstance(raw.get("kind"), str) else None,
        status=raw.get("status"),
        seed_commitment=raw.get("seed_commitment"),
        seed=raw.get("seed"),
        outcome=raw.get("outcome"),
        has_outcome="outcome" in raw,
        head=raw.get("head"),
        ledger=raw.get("ledger"),
        ledger_proof=raw.get("ledger_proof"),
    )


# -- the checks of section 7, in order -----------------------------------------------------


def verify(
    record: Record | dict[str, Any],
    expected_head: tuple[int, str] | None = None,
    log_key: str | None = None,
    latest: Latest | None = None,
) -> Verdict:
    """Check ``record`` as docs/verification.md section 7 says; ``expected_head`` is a
    ``(version, hash)`` a client kept, which the log must still reach and hold;
    ``log_key`` the log's verifier key (``<name>+<id>+<key>``), which every checkpoint
    must be signed with; ``latest`` a checkpoint the server (or a witness) showed later,
    with the proof that it extends the record's."""
    if isinstance(record, dict):
        record = record_from_replay(record)
    if expected_head is not None and expected_head[0] < 1:
        raise ValueError("a head's version is 1 or more")
    _log_key(log_key)  # a malformed key is the caller's error, whatever the record holds
    verdict = Verdict(game=record.game, kind=record.kind, events=len(record.events))
    try:
        _verify(record, expected_head, verdict, log_key, latest)
    except Failed as failure:
        verdict.ok, verdict.first_bad_version, verdict.reason = False, failure.version, failure.reason
    return verdict


def _verify(
    record: Record,
    expected_head: tuple[int, str] | None,
    verdict: Verdict,
    log_key: str | None = None,
    latest: Latest | None = None,
) -> None:
    events = record.events
    if not events:
        raise Failed(1, "the log is empty")
    # 1. versions 1, 2, ... with no gap
    for position, event in enumerate(events, start=1):
        version = event.get("version") if isinstance(event, dict) else None
        if version != position or isinstance(version, bool):
            raise Failed(position, f"version {position} is missing or out of order")
    last = len(events)
    verdict.over = events[-1].get("type") == "SeedRevealed"
    verdict.checked.append(f"versions 1 to {last} with no gap")
    # 2. the chain
    prev_hash = GENESIS_HASH
    for event in events:
        problem, digest = check_event(event, prev_hash, event["version"])
        if problem:
            raise Failed(event["version"], problem)
        assert digest is not None
        prev_hash = digest
    verdict.checked.append(f"chain of {counted(last, 'event')} linked and hashed")
    # 3. anchors: the head, the ledger entry, a head the client kept
    last_hash = events[-1]["hash"]
    head = _head_of(record)
    if head is not None:
        _check_anchor(head, last, last_hash, "its head")
        announced = f"head at version {head.version}" if head.hash else f"all {head.version} versions announced"
        verdict.checked.append(announced)
    if record.ledger is not None:
        index = _check_ledger(record, last, last_hash)
        verdict.checked.append(f"ledger entry {index} holds this game's final head")
    if expected_head is not None:
        version, digest = expected_head
        if version > last:
            raise Failed(last + 1, f"the log ends at version {last}, before the head you kept at version {version}")
        if events[version - 1]["hash"] != digest:
            raise Failed(version, f"the log has another hash at version {version} than the head you kept")
        verdict.checked.append(f"the head you kept at version {version}")
    # 4. the seed, commitments and draws (or, in play, the open parts of the seals)
    _check_contents(record, verdict)
    # 5. the ledger's transparency log: the entry in a signed tree, and what the server says now
    note = None
    if record.ledger is not None and (record.ledger_proof is not None or log_key is not None):
        note = _check_ledger_proof(record, last, log_key, verdict)
    if latest is not None:
        _check_latest(record, last, last_hash, log_key, latest, note, verdict)


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def entries(number: int) -> str:
    return f"{number} entr{'y' if number == 1 else 'ies'}"


def _head_of(record: Record) -> Head | None:
    head = record.head
    if head is None:
        versions = record.versions
        return Head(versions, None) if _is_int(versions) and abs(versions) <= MAX_SAFE else None
    if (
        not isinstance(head, dict)
        or plain_problem(head) is not None
        or not _is_int(head.get("version"))
        or not isinstance(head.get("hash"), (str, type(None)))
    ):
        raise Failed(len(record.events), "the record's head is not a version and a hash")
    return Head(head["version"], head.get("hash"))


def _check_anchor(head: Head, last: int, last_hash: str, name: str) -> None:
    if head.version > last:
        raise Failed(
            last + 1, f"the log ends at version {last} but {name} is at version {head.version}: events are missing"
        )
    if head.version < last:
        raise Failed(head.version + 1, f"the log runs past {name} at version {head.version}")
    if head.hash is not None and head.hash != last_hash:
        raise Failed(last, f"the last event's hash is not the hash of {name}")


def _check_ledger(record: Record, last: int, last_hash: str, entry: Any = None, label: str = "the ledger entry") -> int:
    """The record's ledger entry (or ``entry``, the server's, named ``label``) is a valid
    entry for this game and holds the log's final head."""
    entry = record.ledger if entry is None else entry
    types = {
        "index": int,
        "game": str,
        "kind": str,
        "version": int,
        "hash": str,
        "at": str,
        "prev": str,
        "entry_hash": str,
    }
    if (
        not isinstance(entry, dict)
        or any(not isinstance(entry.get(key), kind) or isinstance(entry.get(key), bool) for key, kind in types.items())
        or plain_problem(entry) is not None
    ):
        raise Failed(last, f"{label} is not a valid entry")
    if entry["index"] < 1 or (entry["index"] == 1 and entry["prev"] != GENESIS_HASH):
        raise Failed(last, f"{label} does not follow the entry before it")
    if ledger_entry_hash(entry) != entry["entry_hash"]:
        raise Failed(last, f"{label} does not match its entry hash")
    if record.game is not None and entry["game"] != record.game:
        raise Failed(last, f"{label} is for game {entry['game']}, not this one")
    if record.kind is not None and entry["kind"] != record.kind:
        raise Failed(last, f"{label} is for a game of kind {entry['kind']}, not {record.kind}")
    anchor = "its ledger entry" if label == "the ledger entry" else label
    _check_anchor(Head(entry["version"], entry["hash"]), last, last_hash, anchor)
    return int(entry["index"])


def _check_contents(record: Record, verdict: Verdict) -> None:
    events = record.events
    first, final = events[0], events[-1]
    last = len(events)
    if first["type"] not in FIRST_TYPES:
        raise Failed(1, "the log does not begin with GameCreated or ForkedFrom")
    seed_commitment = first["data"].get("seed_commitment")
    if not isinstance(seed_commitment, str):
        raise Failed(1, "the first event carries no seed commitment")
    if record.kind is not None and first["data"].get("kind") != record.kind:
        raise Failed(1, f"the first event is not a game of kind {record.kind}")
    if record.seed_commitment is not None and record.seed_commitment != seed_commitment:
        raise Failed(1, "the record's seed commitment is not the first event's")
    for event in events[:-1]:
        if event["type"] == "SeedRevealed":
            raise Failed(event["version"], "the seed is revealed before the last event")
    over = verdict.over
    if record.status == "finished" and not over:
        raise Failed(last + 1, "the record says the game is over, but its log ends without revealing the seed")
    if record.status is not None and record.status != "finished" and over:
        raise Failed(last, "the log reveals the seed, but the record says the game is in play")
    seed: str | None = None
    if over:
        seed = final["data"].get("seed")
        if not isinstance(seed, str) or sha256_hex(seed) != seed_commitment:
            raise Failed(last, "the revealed seed does not match the seed commitment")
        if record.seed is not None and record.seed != seed:
            raise Failed(last, "the record's seed is not the one the last event reveals")
        if record.has_outcome and (
            plain_problem(record.outcome) is not None
            or canonical_json(record.outcome) != canonical_json(final["data"].get("outcome"))
        ):
            raise Failed(last, "the record's outcome is not the one the last event holds")
        verdict.checked.append("seed matches its commitment")
    elif record.seed is not None:
        # an operator's export of a game in play carries the seed in its header
        if not isinstance(record.seed, str) or sha256_hex(record.seed) != seed_commitment:
            raise Failed(1, "the record's seed does not match the seed commitment")
        seed = record.seed
        verdict.checked.append("seed (not yet revealed) matches its commitment")
    sealed_events = opened = 0
    for event in events:
        if "sealed" in event:
            sealed_events += 1
            verdict.commitments += open_sealed(event["sealed"], event["data"], seed, event["version"])
        opened += check_openings(event)
    if seed is None:
        verdict.checked.append(f"open parts of {counted(sealed_events, 'sealed event')} match the data")
    if opened:
        verdict.checked.append(f"{counted(opened, 'hidden value')} shown to this seat opened with the salts given")
    if seed is None:
        return
    verdict.checked.append(f"{counted(verdict.commitments, 'commitment')} opened")
    if first.get("schema", 1) == 1:
        verdict.checked.append("draws not re-derived: the game predates recipe 2")
        return
    for event in events:
        if event["type"] in ("GameCreated", "ForkedFrom", "ActionTaken"):
            verdict.draws += check_draws(event["data"].get("draws"), seed, event["version"])
    verdict.checked.append(f"{counted(verdict.draws, 'draw')} re-derived")


# -- section 6: the ledger's transparency log ---------------------------------------------


@dataclass(frozen=True)
class Latest:
    """What the server says now (``tablestream verify URL`` fetches it): its latest signed
    checkpoint; the consistency proof (hex) from the record's checkpoint to it, when the
    record has one; and this game's ledger entry with its inclusion proof under that
    checkpoint, when the game is on its ledger."""

    checkpoint: str
    consistency: list[Any] | None = None
    entry: Any = None
    inclusion: list[Any] | None = None


@dataclass(frozen=True)
class Note:
    origin: str
    size: int
    root: bytes
    text: str  # the checkpoint text the signatures cover
    signatures: list[tuple[str, bytes]]  # (name, key id || signature)


def parse_note(note: Any) -> Note | None:
    """A C2SP signed checkpoint: ``origin``, size and base64 root, a blank line, then
    signature lines ``— <name> <base64>``. None when it is not one."""
    if not isinstance(note, str) or "\n\n" not in note or not note.endswith("\n") or not _valid_text(note):
        return None
    body, _, rest = note.partition("\n\n")
    lines = body.split("\n")
    if len(lines) < 3 or not lines[0] or not re.fullmatch(r"[1-9][0-9]{0,15}|0", lines[1]) or int(lines[1]) > MAX_SAFE:
        return None
    try:
        root = base64.b64decode(lines[2], validate=True)
    except ValueError:
        return None
    if len(root) != 32:
        return None
    signatures = []
    for line in rest[:-1].split("\n"):
        found = re.fullmatch("\u2014 ([^ ]+) ([A-Za-z0-9+/=]+)", line)
        if found is None:
            return None
        try:
            signatures.append((found.group(1), base64.b64decode(found.group(2), validate=True)))
        except ValueError:
            return None
    return Note(lines[0], int(lines[1]), root, body + "\n", signatures)


def parse_vkey(text: str) -> tuple[str, bytes, bytes] | None:
    """``<name>+<key id, 8 hex>+<base64(0x01 || 32-byte Ed25519 key)>`` as ``(name, id, key)``."""
    found = re.fullmatch(r"([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)", text.strip())
    if found is None:
        return None
    try:
        raw = base64.b64decode(found.group(3), validate=True)
    except ValueError:
        return None
    if len(raw) != 33 or raw[0] != 1:
        return None
    name, key_id, key = found.group(1), bytes.fromhex(found.group(2)), raw[1:]
    if hashlib.sha256(name.encode() + b"\n" + raw).digest()[:4] != key_id:
        return None
    return name, key_id, key


def signed_by(note: Note, vkey: tuple[str, bytes, bytes]) -> bool:
    name, key_id, key = vkey
    return any(
        signer == name
        and len(stamp) == 68
        and stamp[:4] == key_id
        and ed25519_verify(key, note.text.encode(), stamp[4:])
        for signer, stamp in note.signatures
    )


def ledger_leaf_hash(entry: dict[str, Any]) -> bytes:
    return hashlib.sha256(b"\x00" + canonical_json({name: entry[name] for name in LEDGER_HASHED}).encode()).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def inclusion_ok(leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: leaf ``index`` (from 0) of a tree of ``size`` with ``root``."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def consistency_ok(first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2; the same size proves with no hashes and the same root."""
    if not 0 < first <= second:
        return False
    if first == second:
        return not proof and first_root == second_root
    path = ([first_root] if first & (first - 1) == 0 else []) + list(proof)
    if not path:
        return False
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = _node(c, fr), _node(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = _node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == first_root and sr == second_root


def _hashes(value: Any) -> list[bytes] | None:
    if not isinstance(value, list) or not all(isinstance(h, str) and HEX64.fullmatch(h) for h in value):
        return None
    return [bytes.fromhex(h) for h in value]


def _log_key(log_key: str | None) -> tuple[str, bytes, bytes] | None:
    if log_key is None:
        return None
    vkey = parse_vkey(log_key)
    if vkey is None:
        raise ValueError("a log key is <name>+<key id>+<base64 key>")
    return vkey


def _check_ledger_proof(record: Record, last: int, log_key: str | None, verdict: Verdict) -> Note:
    """The ledger entry is in the tree a checkpoint names, signed by the log's key when it
    is known: section 6."""
    entry, proof = record.ledger, record.ledger_proof
    index = entry["index"]
    if proof is None:
        raise Failed(last, "the record carries no proof that its ledger entry is in the ledger's tree")
    note = parse_note(proof.get("checkpoint")) if isinstance(proof, dict) else None
    hashes = _hashes(proof.get("hashes")) if isinstance(proof, dict) else None
    size = proof.get("tree_size") if isinstance(proof, dict) else None
    if note is None or hashes is None or not _is_int(size) or size != note.size:
        raise Failed(last, "the ledger proof is not a checkpoint with an inclusion proof")
    vkey = _log_key(log_key)
    if vkey is not None:
        if note.origin != vkey[0] or not signed_by(note, vkey):
            raise Failed(last, "the record's checkpoint is not signed by the log's key")
        verdict.checked.append(f"checkpoint of {entries(note.size)} signed by {vkey[0]}")
    else:
        verdict.checked.append("checkpoint signature not checked: no log key given")
    if not inclusion_ok(ledger_leaf_hash(entry), index - 1, note.size, hashes, note.root):
        raise Failed(last, f"ledger entry {index} is not in the tree its checkpoint names")
    verdict.checked.append(f"ledger entry {index} included in the checkpoint of {entries(note.size)}")
    return note


def _check_latest(
    record: Record, last: int, last_hash: str, log_key: str | None, latest: Latest, note: Note | None, verdict: Verdict
) -> None:
    """Against what the server says now: its latest checkpoint extends the record's, and
    when the game is on its ledger, the log reaches the head that entry holds."""
    later = parse_note(latest.checkpoint)
    if later is None:
        raise Failed(last, "the server's checkpoint is not a checkpoint")
    vkey = _log_key(log_key)
    if vkey is not None and (later.origin != vkey[0] or not signed_by(later, vkey)):
        raise Failed(last, "the server's checkpoint is not signed by the log's key")
    if latest.entry is not None:
        index = _check_ledger(record, last, last_hash, latest.entry, "the server's ledger entry")
        hashes = _hashes(latest.inclusion)
        leaf = ledger_leaf_hash(latest.entry)
        if hashes is None or not inclusion_ok(leaf, index - 1, later.size, hashes, later.root):
            raise Failed(last, f"the server's ledger entry {index} is not in the tree its checkpoint names")
        verdict.checked.append(f"the server's ledger entry {index} holds this game's final head")
    if note is not None:
        extension = _hashes(latest.consistency)
        if (
            later.origin != note.origin
            or extension is None
            or not consistency_ok(note.size, later.size, note.root, later.root, extension)
        ):
            raise Failed(
                last,
                f"the server's latest checkpoint ({entries(later.size)}) does not extend the record's "
                f"({entries(note.size)}): the ledger was rewritten or forked",
            )
        verdict.checked.append(f"the server's latest checkpoint ({entries(later.size)}) extends the record's")
    else:
        verdict.checked.append(f"the server's latest checkpoint has {entries(later.size)}")


# -- Ed25519 signature verification (RFC 8032, section 5.1.7), in integers -----------------

_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z


def _add(a: Point, b: Point) -> Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    p1 = (y1 - x1) * (y2 - x2) % _P
    p2 = (y1 + x1) * (y2 + x2) % _P
    c = 2 * t1 * t2 * _D % _P
    zz = 2 * z1 * z2 % _P
    e, f, g, h = p2 - p1, zz - c, zz + c, p2 + p1
    return e * f % _P, g * h % _P, f * g % _P, e * h % _P


def _times(scalar: int, point: Point) -> Point:
    out: Point = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            out = _add(out, point)
        point = _add(point, point)
        scalar >>= 1
    return out


def _x_of(y: int, odd: int) -> int | None:
    if y >= _P:
        return None
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if xx == 0:
        return None if odd else 0
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - xx) % _P:
        return None
    return _P - x if x & 1 != odd else x


def _point(encoded: bytes) -> Point | None:
    y = int.from_bytes(encoded, "little")
    odd, y = y >> 255, y & ((1 << 255) - 1)
    x = _x_of(y, odd)
    return None if x is None else (x, y, 1, x * y % _P)


_BASE_Y = 4 * pow(5, _P - 2, _P) % _P
_BASE: Point = (_x_of(_BASE_Y, 0) or 0, _BASE_Y, 1, (_x_of(_BASE_Y, 0) or 0) * _BASE_Y % _P)


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s over ``message``: [S]B = R + [k]A."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a, r = _point(public_key), _point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= _L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % _L
    left, right = _times(s, _BASE), _add(r, _times(k, a))
    return (left[0] * right[2] - right[0] * left[2]) % _P == 0 and (left[1] * right[2] - right[1] * left[2]) % _P == 0


# -- the command -----------------------------------------------------------------------------


def fetch(url: str, token: str | None = None, timeout: float = 30.0, missing_ok: bool = False) -> str | None:
    """The body of a GET (None for a 404 when ``missing_ok``)."""
    request = urllib.request.Request(url, headers={"Accept": "application/json, text/plain"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        if missing_ok and error.code == 404:
            return None
        raise Unreadable(f"cannot read {url}: {error}") from None
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
        raise Unreadable(f"cannot read {url}: {error}") from None


def server_of(url: str) -> str:
    parts = urllib.parse.urlsplit(replay_url(url))
    base = re.sub(r"/v1/games/[^/]+/replay$", "", parts.path)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, base, "", ""))


def latest_from(server: str, record: Record, timeout: float = 30.0) -> Latest:
    """What ``server`` says now about its ledger and this record's game (section 6)."""
    checkpoint = fetch(f"{server}/v1/ledger/checkpoint", timeout=timeout) or ""
    note = parse_note(checkpoint)
    consistency = None
    proof = record.ledger_proof
    if note is not None and isinstance(proof, dict):
        size = proof.get("tree_size")
        if isinstance(size, int) and not isinstance(size, bool) and 1 <= size <= note.size:
            body = fetch(f"{server}/v1/ledger/proofs/consistency?from={size}&to={note.size}", timeout=timeout)
            consistency = _loads(body or "{}").get("hashes")
    entry = inclusion = None
    if record.game is not None:
        quoted = urllib.parse.quote(record.game, safe="")
        body = fetch(f"{server}/v1/ledger/games/{quoted}", timeout=timeout, missing_ok=True)
        if body is not None:
            found = _loads(body)
            entry = found.get("entry")
            shown = found.get("ledger_proof") or {}
            # The entry's path under the checkpoint fetched above (the server may have grown
            # since: then its own proof names another size, and this one is asked for).
            if note is not None and isinstance(entry, dict) and shown.get("tree_size") != note.size:
                index = entry.get("index")
                body = fetch(f"{server}/v1/ledger/proofs/inclusion?index={index}&size={note.size}", timeout=timeout)
                shown = _loads(body or "{}")
            inclusion = shown.get("hashes")
    return Latest(checkpoint, consistency, entry, inclusion)


def read_source(source: str, token: str | None = None, timeout: float = 30.0) -> str:
    """The text of a file, ``-`` (stdin), or a URL (a game's replay, page or API URL)."""
    if source == "-":
        return sys.stdin.read()
    if re.match(r"https?://", source):
        request = urllib.request.Request(replay_url(source), headers={"Accept": "application/json"})
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return str(response.read().decode("utf-8"))
        except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
            raise Unreadable(f"cannot read {source}: {error}") from None
    try:
        with open(source, encoding="utf-8") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError) as error:
        raise Unreadable(f"cannot read {source}: {error}") from None


def replay_url(url: str) -> str:
    """``.../v1/games/ID/replay`` for a game's API URL or the web client's page of it."""
    parts = urllib.parse.urlsplit(url)
    page = re.match(r"/(?:game|replay)/([^/?#]+)", parts.fragment)
    if page:
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"/v1/games/{page.group(1)}/replay", "", ""))
    game = re.fullmatch(r"(.*/v1/games/[^/]+)/?", parts.path)
    if game:
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, game.group(1) + "/replay", parts.query, ""))
    return url


def parse_head(text: str) -> tuple[int, str]:
    version, _, digest = text.partition(":")
    if not version.isdigit() or int(version) < 1 or not HEX64.fullmatch(digest):
        raise argparse.ArgumentTypeError("a head is VERSION:HASH, the hash as 64 lower-case hex digits")
    return int(version), digest


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="FILE|URL", help="a replay record (JSON) or an export (NDJSON): a file, - for stdin, or a URL"
    )
    parser.add_argument(
        "--head",
        type=parse_head,
        default=None,
        metavar="V:HASH",
        help="a head you kept: the log must reach version V and have HASH there",
    )
    parser.add_argument("--token", default=None, help="a seat token, to fetch a game in play as that seat")
    parser.add_argument(
        "--log-key",
        default=None,
        metavar="VKEY",
        help="the ledger's verifier key (name+id+key, as GET /v1/ledger/key gives it and its operator publishes): "
        "every checkpoint must be signed with it. Given a URL and no key, the server's own is used, and said so",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    """0 when the record verifies, 1 when it does not, 2 when it cannot be read."""
    log_key, latest, key_note = args.log_key, None, None
    if log_key is not None and parse_vkey(log_key) is None:
        print("error: a log key is <name>+<key id>+<base64 key> (GET /v1/ledger/key)", file=sys.stderr)
        return 2
    try:
        record = parse_record(read_source(args.source, args.token))
        if re.match(r"https?://", args.source):
            # Against what the server says now: its latest checkpoint, and this game's entry.
            server = server_of(args.source)
            given = fetch(f"{server}/v1/ledger/key", missing_ok=True)
            if given is None:
                key_note = f"{server} serves no ledger: the record was checked on its own"
            else:
                if log_key is None:
                    log_key = str(_loads(given).get("verifier_key") or "")
                    key_note = "the log's key is the one the server gives (pass --log-key to check it against yours)"
                    if parse_vkey(log_key) is None:
                        raise Unreadable(f"{server} gives no valid log key")
                latest = latest_from(server, record)
    except (Unreadable, ValueError, AttributeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    verdict = verify(record, args.head, log_key, latest)
    if args.json:
        print(json.dumps(verdict.as_json(), indent=2, ensure_ascii=False))
    else:
        name = f"game {verdict.game}" if verdict.game else "the record"
        print(
            f"{name} ({verdict.kind or 'kind unknown'}, {verdict.events} events, "
            f"{'over' if verdict.over else 'in play'})"
        )
        for line in verdict.checked:
            print(f"  ✓ {line}")
        if key_note:
            print(f"  ({key_note})")
        print("verified" if verdict.ok else f"FAILED at version {verdict.first_bad_version}: {verdict.reason}")
    return 0 if verdict.ok else 1


VALUED = ("--token", "--head", "--log-key")
"""Options whose value may begin with "-" (a seat token does one time in 64)."""


def attached(argv: list[str]) -> list[str]:
    """``argv`` with each of ``VALUED`` joined to its value (``--token=-Abc``): argparse
    reads a value that begins with "-" as another option."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        if argv[index] in VALUED and index + 1 < len(argv):
            out.append(f"{argv[index]}={argv[index + 1]}")
            index += 2
        else:
            out.append(argv[index])
            index += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="verifier", description="Verify a tablestream game's record.")
    add_arguments(parser)
    return run(parser.parse_args(attached(sys.argv[1:] if argv is None else list(argv))))


if __name__ == "__main__":
    sys.exit(main())
