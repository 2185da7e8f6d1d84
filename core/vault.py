"""The vault: each game's secret seed and its seats' bearer tokens, kept only as hashes
(a token is shown once, when issued), and the records that make game creation
idempotent. On Redis, under the deployment's prefix."""

from __future__ import annotations

import abc
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Mapping
from typing import Any

import redis


class Secrets(abc.ABC):
    """What the core asks of a vault: seeds, seat tokens (shown once, kept as hashes) and
    the records of idempotent creation. ``Vault`` keeps them in Redis, ``MemoryVault`` in
    this process (tests, benchmarks, a handler without a server); both pass
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


class Vault(Secrets):
    """What never goes in the log: each game's seed and the hashes of seat tokens."""

    SEEDS_KEPT = 4096

    def __init__(self, client: redis.Redis, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        # A game's seed never changes once set, so each process keeps the ones it used
        # and an action pays no round trip for it.
        self._seeds: dict[str, str] = {}

    def _key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{part}"

    def set_seed(self, game_id: str, seed: str) -> None:
        self.redis.set(self._key(game_id, "seed"), seed)

    def seed(self, game_id: str) -> str:
        known = self._seeds.get(game_id)
        if known is not None:
            return known
        value = self.redis.get(self._key(game_id, "seed"))
        if value is None:
            raise LookupError(f"game {game_id} has no seed")
        if len(self._seeds) >= self.SEEDS_KEPT:
            self._seeds.clear()
        self._seeds[game_id] = value.decode()
        return value.decode()

    def token_key(self, token: str) -> str:
        return self.owner_key(token_hash(token))

    def owner_key(self, digest: str) -> str:
        """The key naming whom the token with SHA-256 ``digest`` acts for."""
        return f"{self.prefix}:token:{digest}"

    def issue_token(self, game_id: str, seat: int, seconds: int | None = None) -> str:
        """A new 256-bit token for ``seat``; only its SHA-256 is stored.

        Two writes to two slots (a cluster refuses them in one transaction), in the order
        that leaves nothing usable half-done: the game's list of its tokens first (what
        ``revoke`` reads), then the token's key, which makes it work."""
        token = new_token()
        self.redis.hset(self._key(game_id, "tokens"), token_hash(token), seat)
        self.redis.set(self.token_key(token), f"{game_id}:{seat}", ex=seconds)
        return token

    def owner(self, token: str) -> tuple[str, int] | None:
        """The game and seat a token acts for, or None for an unknown token."""
        return self.owner_of(self.redis.get(self.token_key(token)))

    @staticmethod
    def owner_of(value: bytes | None) -> tuple[str, int] | None:
        """The game and seat stored under a token's key (``token_key``), if any."""
        if value is None:
            return None
        game_id, seat = value.decode().rsplit(":", 1)
        return game_id, int(seat)

    # -- idempotent creation ---------------------------------------------------
    # A create with an Idempotency-Key claims ``create:<sha256(key)>`` first. The
    # record keeps the request's fingerprint, the game and its seat tokens, each
    # masked with a pad derived from the key itself: Redis alone never holds a
    # usable token, while a retry carrying the key gets the first answer back.

    def _create_key(self, key: str) -> str:
        return f"{self.prefix}:create:{hashlib.sha256(key.encode()).hexdigest()}"

    def claim_create(self, key: str, fingerprint: str) -> dict[str, Any] | None:
        """None when this request now owns ``key``; else the record already there."""
        record = json.dumps({"fingerprint": fingerprint, "game": None})
        if self.redis.set(self._create_key(key), record, nx=True, ex=self.CLAIM_SECONDS):
            return None
        value = self.redis.get(self._create_key(key))
        if value is None:  # the claim lapsed between the two calls: try once more
            return self.claim_create(key, fingerprint)
        return dict(json.loads(value))

    def finish_create(self, key: str, fingerprint: str, game_id: str, tokens: Mapping[int, str]) -> None:
        self.redis.set(self._create_key(key), self._record(key, fingerprint, game_id, tokens), ex=self.KEEP_SECONDS)

    def abandon_create(self, key: str) -> None:
        self.redis.delete(self._create_key(key))

    def rematch(self, game_id: str) -> str | None:
        value = self.redis.get(self._key(game_id, "rematch"))
        return None if value is None else value.decode()

    def claim_rematch(self, game_id: str) -> bool:
        return bool(self.redis.set(self._key(game_id, "rematch"), self.PENDING, nx=True, ex=self.CLAIM_SECONDS))

    def link_rematch(self, game_id: str, rematch_id: str | None) -> None:
        if rematch_id is None:
            self.redis.delete(self._key(game_id, "rematch"))
        else:
            self.redis.set(self._key(game_id, "rematch"), rematch_id)

    def revoke(self, game_id: str, seat: int) -> None:
        key = self._key(game_id, "tokens")
        for digest, owner in self.redis.hgetall(key).items():
            if int(owner) == seat:
                self.redis.delete(f"{self.prefix}:token:{digest.decode()}")
                self.redis.hdel(key, digest)


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
