"""The ledger of finished games: a public hash chain of their final heads.

When a game ends, ``{"index", "game", "kind", "version", "hash", "at"}`` joins the
ledger, hashed as ``sha256(prev + "\\n" + canonical JSON of that entry)`` with ``prev``
the entry before it (64 zeros for the first). Anyone may copy the ledger; once copied,
a finished game cannot be rewritten, even with every hash of its log recomputed,
without its final hash leaving the ledger's chain (``docs/verification.md``, section 6).

Stored as one stream, ``<p>:ledger`` (entry ids ``<index>-0``), and ``<p>:ledger:games``
(game -> index). Recording is idempotent: the handler records a game when its last
command ends it, and the projector records any finished game the handler did not
(a process killed between the two writes).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import redis

from events.envelope import GENESIS_HASH, canonical_json
from events.keys import group
from events.transparency import Checkpoint, Signer, Tree, cosigned_by, leaf_hash, parse_witness_vkey

HASHED = ("index", "game", "kind", "version", "hash", "at")

RECORD_LUA = """
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then return {'known', known} end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local index = 0
if #last > 0 then index = tonumber(string.match(last[1][1], '^(%d+)')) end
if index + 1 ~= tonumber(ARGV[2]) then return {'moved', tostring(index)} end
redis.call('XADD', KEYS[1], ARGV[2] .. '-0', 'e', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {'ok', ARGV[2]}
"""


def entry_hash(prev: str, entry: Mapping[str, Any]) -> str:
    body = {name: entry[name] for name in HASHED}
    return hashlib.sha256((prev + "\n" + canonical_json(body)).encode()).hexdigest()


def verify_entries(entries: Iterable[Mapping[str, Any]], prev: str = GENESIS_HASH, start: int = 1) -> str | None:
    """None when the entries chain from ``prev``; else the first problem, naming its index."""
    index = start
    for entry in entries:
        if entry.get("index") != index:
            return f"ledger entry {index} is missing or out of order"
        if entry.get("prev") != prev:
            return f"ledger entry {index} does not link to the entry before it"
        if entry_hash(prev, entry) != entry.get("entry_hash"):
            return f"ledger entry {index} does not match its hash"
        prev = str(entry["entry_hash"])
        index += 1
    return None


class LedgerUnavailable(Exception):
    """The ledger's Redis (one slot) could not be reached or written; nothing was recorded."""


class Ledger:
    def __init__(
        self,
        client: redis.Redis,
        prefix: str = "ts",
        origin: str = "localhost/tablestream",
        key: str | None = None,
        witnesses: Sequence[str] = (),
    ) -> None:
        self.redis = client
        # One script writes both (one slot on a cluster).
        self.key = group(prefix, "ledger", client)
        self.games_key = f"{self.key}:games"
        self.tree_key = f"{self.key}:tree"
        self.signer_key = f"{self.key}:signer"
        self.cosigned_key = f"{self.key}:cosigned"
        found = [parse_witness_vkey(text) for text in witnesses]
        if None in found:
            raise ValueError("a witness key is <name>+<key id>+<base64 of 0x04 and the key>")
        self.witnesses = dict(w for w in found if w is not None)
        self._record = client.register_script(RECORD_LUA)
        self.origin = origin
        self._key = key
        self._signer: Signer | None = None
        self.tree = Tree(self._leaves, self._load_nodes, self._save_nodes)
        self._notes: dict[int, str] = {}

    def record(self, game_id: str, kind: str, version: int, head_hash: str, at: str) -> dict[str, Any]:
        """Add a finished game's final head (once: a game already there keeps its entry).
        ``LedgerUnavailable`` when the ledger's Redis cannot be reached or written."""
        try:
            return self._recorded(game_id, kind, version, head_hash, at)
        except redis.RedisError as error:
            raise LedgerUnavailable(f"the ledger could not be written: {error}") from error

    def _recorded(self, game_id: str, kind: str, version: int, head_hash: str, at: str) -> dict[str, Any]:
        while True:
            last = self.last()
            prev = GENESIS_HASH if last is None else str(last["entry_hash"])
            index = 1 if last is None else int(last["index"]) + 1
            entry: dict[str, Any] = {
                "index": index,
                "game": game_id,
                "kind": kind,
                "version": version,
                "hash": head_hash,
                "at": at,
            }
            entry["prev"] = prev
            entry["entry_hash"] = entry_hash(prev, entry)
            status, value = self._record(keys=[self.key, self.games_key], args=[game_id, index, json.dumps(entry)])
            if status.decode() in ("ok", "known"):
                found = self.at(int(value))
                assert found is not None
                return found
            # another game ended at the same moment and took this index: chain after it

    def last(self) -> dict[str, Any] | None:
        entries = self.redis.xrevrange(self.key, "+", "-", count=1)
        return None if not entries else _decode(entries[0])

    def at(self, index: int) -> dict[str, Any] | None:
        entries = self.redis.xrange(self.key, f"{index}-0", f"{index}-0")
        return None if not entries else _decode(entries[0])

    def of(self, game_id: str) -> dict[str, Any] | None:
        index = self.redis.hget(self.games_key, game_id)
        return None if index is None else self.at(int(index))

    def page(self, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        entries = self.redis.xrange(self.key, f"{after + 1}-0", "+", count=limit)
        return [_decode(e) for e in entries]

    # -- the transparency log (events.transparency) -----------------------------------

    def size(self) -> int:
        last = self.redis.xrevrange(self.key, "+", "-", count=1)
        return 0 if not last else int(last[0][0].split(b"-")[0])

    def signer(self) -> Signer:
        """The checkpoint key: the configured one, else the one kept beside the ledger
        (made by the first process that needs it; every process then signs with it)."""
        if self._signer is None:
            if self._key:
                seed = base64.b64decode(self._key)
            else:
                self.redis.set(self.signer_key, secrets.token_bytes(32), nx=True)
                seed = bytes(self.redis.get(self.signer_key))
            self._signer = Signer(self.origin, seed)
        return self._signer

    def checkpoint(self, size: int | None = None, cosigned: bool = True) -> str:
        """The signed checkpoint of the first ``size`` entries (all of them: the latest),
        with the witnesses' cosignatures kept for it."""
        size = self.size() if size is None else size
        note = self._signed(size)
        if not cosigned or not self.witnesses:
            return note
        lines = self.redis.hgetall(f"{self.cosigned_key}:{size}")
        return note + "".join(f"{bytes(lines[name]).decode()}\n" for name in sorted(lines))

    def cosign(self, note: str) -> tuple[int, int]:
        """Keep the configured witnesses' cosignatures of a checkpoint of this log: how many
        lines were valid ones, and how many of those were new. ``ValueError`` for a
        checkpoint that is not one of this log's trees."""
        body, blank, rest = note.partition("\n\n")
        lines = body.split("\n")
        if not blank or len(lines) != 3 or not lines[1].isdigit():
            raise ValueError("not a checkpoint: origin, size and root, a blank line, then signature lines")
        size = int(lines[1])
        if lines[0] != self.origin or not 0 < size <= self.size() or lines[2] != self._signed(size).split("\n")[2]:
            raise ValueError("not a checkpoint of this log's tree")
        text = body + "\n"
        valid = new = 0
        for line in rest.rstrip("\n").split("\n"):
            for name, public_key in self.witnesses.items():
                if cosigned_by(text, line, name, public_key):
                    valid += 1
                    new += int(self.redis.hset(f"{self.cosigned_key}:{size}", name, line))
        return valid, new

    def _signed(self, size: int) -> str:
        note = self._notes.get(size)
        if note is None:
            note = self.signer().sign(Checkpoint(self.origin, size, self.tree.root(size)))
            if len(self._notes) > 1024:
                self._notes.clear()
            self._notes[size] = note
        return note

    def inclusion(self, index: int, size: int) -> list[str]:
        """Entry ``index``'s audit path in the tree of ``size`` entries, hex."""
        return [digest.hex() for digest in self.tree.inclusion(index - 1, size)]

    def consistency(self, first: int, second: int) -> list[str]:
        return [digest.hex() for digest in self.tree.consistency(first, second)]

    def proof_of(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """What a record carries beside its ledger entry: the latest checkpoint and the
        entry's inclusion in it. None when the ledger lacks an entry (an operator deleted
        one): the record is still served, and a verifier holding the log's key says the
        proof is missing."""
        try:
            return self._proof_of(entry)
        except LookupError:
            return None

    def _proof_of(self, entry: dict[str, Any]) -> dict[str, Any]:
        note = self.checkpoint()
        size = int(note.split("\n")[1])
        return {"tree_size": size, "hashes": self.inclusion(int(entry["index"]), size), "checkpoint": note}

    def _leaves(self, start: int, end: int) -> list[bytes]:
        entries = self.redis.xrange(self.key, f"{start + 1}-0", f"{end}-0")
        if len(entries) != end - start:
            raise LookupError(f"the ledger lacks entries between {start + 1} and {end}")
        return [leaf_hash(_decode(entry)) for entry in entries]

    def _load_nodes(self, names: list[str]) -> list[bytes | None]:
        return [None if value is None else bytes(value) for value in self.redis.hmget(self.tree_key, names)]

    def _save_nodes(self, nodes: dict[str, bytes]) -> None:
        self.redis.hset(self.tree_key, mapping=nodes)


def _decode(entry: Any) -> dict[str, Any]:
    _, fields = entry
    return dict(json.loads(fields[b"e"]))
