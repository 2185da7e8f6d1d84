"""The vault: each game's secret seed and its seats' bearer tokens, kept only as hashes
(a token is shown once, when issued), and the records that make game creation
idempotent. What the core asks of one (``Secrets``), the tokens and the masking of a
creation's record; ``stores.vault.RedisVault`` keeps them on Redis, ``MemoryVault`` here
in this process."""

from __future__ import annotations

import abc
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Mapping
from typing import Any

from projections.table import Table


class Secrets(abc.ABC):
    """What the core asks of a vault: seeds, seat tokens (shown once, kept as hashes) and
    the records of idempotent creation. ``stores.vault.RedisVault`` keeps them in Redis,
    ``MemoryVault`` in this process (tests, benchmarks, a handler without a server); both pass
    ``tests/platform/test_vault_contract.py``."""

    CLAIM_SECONDS = 30  # a create holds its Idempotency-Key this long while it runs
    PENDING = "pending"  # a rematch link being made
    KEEP_SECONDS = 24 * 3600  # and its answer this long once done

    @abc.abstractmethod
    def set_seed(self, game_id: str, seed: str) -> None: ...

    @abc.abstractmethod
    def seed(self, game_id: str) -> str:
        """The game's seed; LookupError for a game without one."""

    @abc.abstractmethod
    def issue_token(self, game_id: str, seat: int, seconds: int | None = None) -> str:
        """A new 256-bit token for ``seat``; only its SHA-256 is kept. ``seconds``: it
        lapses after that long (an invite code)."""

    @abc.abstractmethod
    def owner(self, token: str) -> tuple[str, int] | None:
        """The game and seat a token acts for, or None for an unknown token."""

    @abc.abstractmethod
    def claim_create(self, key: str, fingerprint: str) -> dict[str, Any] | None:
        """None when this request now owns ``key``; else the record already there."""

    @abc.abstractmethod
    def finish_create(self, key: str, fingerprint: str, game_id: str, tokens: Mapping[int, str]) -> None: ...

    @abc.abstractmethod
    def abandon_create(self, key: str) -> None: ...

    @abc.abstractmethod
    def revoke(self, game_id: str, seat: int) -> None:
        """Every token of ``seat`` in ``game_id`` acts no more."""

    # A finished game's rematch: one per game. The request that makes it first
    # claims the link for ``CLAIM_SECONDS``; the link then names the new game for good
    # (the new game's ``GameCreated`` names the old one, so the link is also in the logs).

    @abc.abstractmethod
    def rematch(self, game_id: str) -> str | None:
        """The id of the game's rematch; ``PENDING`` while one is being made; None."""

    @abc.abstractmethod
    def claim_rematch(self, game_id: str) -> bool:
        """Whether this request now makes the game's rematch (no link and no live claim)."""

    @abc.abstractmethod
    def link_rematch(self, game_id: str, rematch_id: str | None) -> None:
        """Set the link to the new game (for good), or drop this request's claim (None)."""

    @staticmethod
    def created_tokens(key: str, record: Mapping[str, Any]) -> dict[int, str]:
        return {
            int(seat): _mask(key, int(seat), bytes.fromhex(masked)).decode()
            for seat, masked in record.get("tokens", {}).items()
        }

    @staticmethod
    def _record(key: str, fingerprint: str, game_id: str, tokens: Mapping[int, str]) -> str:
        masked = {str(seat): _mask(key, seat, token.encode()).hex() for seat, token in tokens.items()}
        return json.dumps({"fingerprint": fingerprint, "game": game_id, "tokens": masked})


class MemoryVault(Secrets):
    """The vault's in-memory twin: the same promises, in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seeds: dict[str, str] = {}
        self._owners: dict[str, tuple[str, int]] = {}  # token hash -> (game, seat)
        self._creates: dict[str, tuple[float, str]] = {}  # key hash -> (expires at, record)
        self._lapses: dict[str, float] = {}  # token hash -> when it stops (invite codes)
        self._rematches: dict[str, tuple[float, str]] = {}  # game -> (expires at, link)

    def set_seed(self, game_id: str, seed: str) -> None:
        with self._lock:
            self._seeds[game_id] = seed

    def seed(self, game_id: str) -> str:
        with self._lock:
            if game_id not in self._seeds:
                raise LookupError(f"game {game_id} has no seed")
            return self._seeds[game_id]

    def issue_token(self, game_id: str, seat: int, seconds: int | None = None) -> str:
        token = new_token()
        with self._lock:
            self._owners[token_hash(token)] = (game_id, seat)
            if seconds is not None:
                self._lapses[token_hash(token)] = time.monotonic() + seconds
        return token

    def owner(self, token: str) -> tuple[str, int] | None:
        with self._lock:
            digest = token_hash(token)
            if self._lapses.get(digest, float("inf")) <= time.monotonic():
                return None
            return self._owners.get(digest)

    def _live(self, key: str) -> str | None:
        found = self._creates.get(hashlib.sha256(key.encode()).hexdigest())
        return found[1] if found is not None and found[0] > time.monotonic() else None

    def _put(self, key: str, record: str, seconds: float) -> None:
        self._creates[hashlib.sha256(key.encode()).hexdigest()] = (time.monotonic() + seconds, record)

    def claim_create(self, key: str, fingerprint: str) -> dict[str, Any] | None:
        with self._lock:
            record = self._live(key)
            if record is not None:
                return dict(json.loads(record))
            self._put(key, json.dumps({"fingerprint": fingerprint, "game": None}), self.CLAIM_SECONDS)
            return None

    def finish_create(self, key: str, fingerprint: str, game_id: str, tokens: Mapping[int, str]) -> None:
        with self._lock:
            self._put(key, self._record(key, fingerprint, game_id, tokens), self.KEEP_SECONDS)

    def abandon_create(self, key: str) -> None:
        with self._lock:
            self._creates.pop(hashlib.sha256(key.encode()).hexdigest(), None)

    def rematch(self, game_id: str) -> str | None:
        with self._lock:
            found = self._rematches.get(game_id)
            return found[1] if found is not None and found[0] > time.monotonic() else None

    def claim_rematch(self, game_id: str) -> bool:
        with self._lock:
            found = self._rematches.get(game_id)
            if found is not None and found[0] > time.monotonic():
                return False
            self._rematches[game_id] = (time.monotonic() + self.CLAIM_SECONDS, self.PENDING)
            return True

    def link_rematch(self, game_id: str, rematch_id: str | None) -> None:
        with self._lock:
            if rematch_id is None:
                self._rematches.pop(game_id, None)
            else:
                self._rematches[game_id] = (float("inf"), rematch_id)

    def revoke(self, game_id: str, seat: int) -> None:
        with self._lock:
            for digest in [d for d, owner in self._owners.items() if owner == (game_id, seat)]:
                del self._owners[digest]


def opening_seed(vault: Secrets, table: Table, seat: int | None) -> str | None:
    """The seed a seat's events are opened with while ``table`` is in play (the salts
    of its own hidden values, ``projections.views.openings``); None for a spectator,
    a finished game, or a schema-1 game, whose hashes are not shown in play."""
    if seat is None or table.status == "finished" or table.schema < 2:
        return None
    try:
        return vault.seed(table.game_id)
    except LookupError:
        return None


def new_token() -> str:
    """256 random bits, URL-safe; never one that reads as a player key (``tsp_...``)."""
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith("tsp_"):
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _mask(key: str, seat: int, data: bytes) -> bytes:
    """XOR ``data`` with a pad that only the Idempotency-Key can make (it is its own inverse)."""
    pad = hashlib.shake_256(f"tablestream-create\0{key}\0{seat}".encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))
