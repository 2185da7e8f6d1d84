"""Players: an identity that outlives a seat.

A player registers a display name, unique whatever its case, and gets a player key,
shown once and kept only as its SHA-256, like a seat token. With the key a client
creates games, takes seats and acts for the seats its player holds; the seats a player
holds are in each game's log (``GameCreated``, ``SeatTaken``, ``SeatClaimed`` name the
player's id), so every read model of players is rebuilt from the logs. The key can be
rotated (the old one stops at once) or revoked (none works until the next rotation...
which needs a key: a revoked player is closed for good; its name and games stay).

The players are kept by a ``PlayerStore``: ``stores.players.RedisPlayerStore`` on Redis.
"""

from __future__ import annotations

import abc
import hashlib
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from core.errors import Code, CommandError
from events.store import stamp

KEY_PREFIX = "tsp_"  # a player key; a seat token never starts so (URL-safe base64 of 32 bytes has no "_" run)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
NAME_RULE = (
    "A player's name is 3 to 20 characters: letters a-z (either case), digits, '-' and '_', "
    "beginning with a letter or a digit; names differ by more than their case."
)


def is_player_key(token: str) -> bool:
    return token.startswith(KEY_PREFIX)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class PlayerStore(abc.ABC):
    """Where players are kept: each player's record, the one name it claimed (as folded by
    ``str.casefold``: names differ by more than their case) and the digest of its key."""

    @abc.abstractmethod
    def add(self, folded_name: str, player_id: str, key_digest: str, record: dict[str, Any]) -> bool:
        """Claim the name and write the player and its key at once; False (nothing written)
        when the name is taken."""

    @abc.abstractmethod
    def player_of_key(self, key_digest: str) -> str | None:
        """The id of the player whose key has this digest; None for a key no player holds."""

    @abc.abstractmethod
    def record(self, player_id: str) -> dict[str, Any] | None: ...

    @abc.abstractmethod
    def player_of_name(self, folded_name: str) -> str | None: ...

    @abc.abstractmethod
    def close(self, player_id: str, at: str) -> bool:
        """Close the player for good at ``at``: its key stops at once, none is issued, and its
        record says when; False for an unknown player."""

    @abc.abstractmethod
    def set_key(self, player_id: str, key_digest: str | None) -> None:
        """The player's key is now the one with this digest (None: none), and the one it
        had stops at once; nothing for an unknown player."""


class Players:
    def __init__(self, store: PlayerStore) -> None:
        self.store = store

    def register(self, name: Any, now: datetime | None = None, bot: bool = False) -> tuple[dict[str, Any], str]:
        """A new player and its key (shown this once); ``bot``: a bot account, which says so
        in its profile and in every seat it takes, for good. ``invalid_request`` for a name
        outside the rule, ``name_taken`` for one already registered in any case."""
        if not isinstance(name, str) or NAME.fullmatch(name) is None:
            raise CommandError(Code.INVALID_REQUEST, NAME_RULE, rule=NAME_RULE)
        player_id = "pl_" + secrets.token_urlsafe(9).replace("-", "x")
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        created = stamp(now or datetime.now(UTC))
        record: dict[str, Any] = {"id": player_id, "name": name, "created_at": created, "key": digest(key)}
        if bot:
            record["bot"] = True
        if not self.store.add(name.casefold(), player_id, digest(key), record):
            raise CommandError(Code.NAME_TAKEN, f"The name '{name}' is taken (names differ by more than their case).")
        return public(record), key

    def authenticate(self, key: str) -> dict[str, Any] | None:
        """The player a key acts for; None for an unknown, rotated or revoked key."""
        player_id = self.store.player_of_key(digest(key))
        return None if player_id is None else self.get(player_id)

    def get(self, player_id: str) -> dict[str, Any] | None:
        record = self.store.record(player_id)
        return None if record is None else public(record)

    def by_name(self, name: str) -> dict[str, Any] | None:
        player_id = self.store.player_of_name(name.casefold())
        return None if player_id is None else self.get(player_id)

    def rotate(self, player_id: str) -> str:
        """A new key for the player; the one it had stops working."""
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        self.store.set_key(player_id, digest(key))
        return key

    def revoke(self, player_id: str) -> None:
        """The player's key stops working, and no other is issued."""
        self.store.set_key(player_id, None)

    def close(self, player_id: str, now: datetime | None = None) -> None:
        """The operator closes the player (``core.moderation``): revoked for good, and its
        profile says it was closed."""
        if not self.store.close(player_id, stamp(now or datetime.now(UTC))):
            raise CommandError(Code.NOT_FOUND, "There is no such player.")


def account_of(player: Mapping[str, Any]) -> dict[str, str]:
    """What a seat held by ``player`` records of its account (in the event that seats it):
    a bot account says so, in every game it plays."""
    return {"account": "bot"} if player.get("bot") else {}


def public(record: dict[str, Any]) -> dict[str, Any]:
    """What anyone may know of a player (never the key's digest)."""
    return {
        "id": record["id"],
        "name": record["name"],
        "created_at": record["created_at"],
        "bot": bool(record.get("bot")),
        **({"closed_at": record["closed_at"]} if record.get("closed_at") else {}),
    }
