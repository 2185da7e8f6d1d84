"""The vault on Redis (``core.vault.Secrets``), under the deployment's prefix.

Keys: ``<prefix>:{<game>}:seed`` the game's seed; ``<prefix>:{<game>}:tokens`` a hash of
the game's token digests to their seats; ``<prefix>:token:<sha256>`` the game and seat a
token acts for (``<game>:<seat>``; with a lifetime for an invite code);
``<prefix>:create:<sha256 of the Idempotency-Key>`` a create's record (JSON, for
``KEEP_SECONDS``, or ``CLAIM_SECONDS`` while it runs); ``<prefix>:{<game>}:rematch`` the
game's rematch (``PENDING`` while claimed).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import redis

from core.vault import Secrets, new_token, token_hash


class RedisVault(Secrets):
    """What never goes in the log: each game's seed and the hashes of seat tokens, on Redis."""

    SEEDS_KEPT = 4096

    def __init__(self, client: redis.Redis, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        # A game's seed never changes once set, so each process keeps the ones it used
        # and an action pays no round trip for it.
        self._seeds: dict[str, str] = {}

    def _key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{part}"

    def seed_key(self, game_id: str) -> str:
        return self._key(game_id, "seed")

    def set_seed(self, game_id: str, seed: str) -> None:
        self.redis.set(self.seed_key(game_id), seed)

    def seed(self, game_id: str) -> str:
        known = self._seeds.get(game_id)
        if known is not None:
            return known
        value = self.redis.get(self.seed_key(game_id))
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
