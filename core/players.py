"""Players: an identity that outlives a seat.

A player registers a display name, unique whatever its case, and gets a player key,
shown once and kept only as its SHA-256, like a seat token. With the key a client
creates games, takes seats and acts for the seats its player holds; the seats a player
holds are in each game's log (``GameCreated``, ``SeatTaken``, ``SeatClaimed`` name the
player's id), so every read model of players is rebuilt from the logs. The key can be
rotated (the old one stops at once) or revoked (none works until the next rotation...
which needs a key: a revoked player is closed for good; its name and games stay).

On Redis, under ``<prefix>:players`` (``<prefix>:{players}`` on a cluster: one slot, as
a registration claims the name and writes the player and its key in one script).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from datetime import UTC, datetime
from typing import Any

from core.errors import Code, CommandError
from events.keys import group
from events.store import stamp

KEY_PREFIX = "tsp_"  # a player key; a seat token never starts so (URL-safe base64 of 32 bytes has no "_" run)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
NAME_RULE = (
    "A player's name is 3 to 20 characters: letters a-z (either case), digits, '-' and '_', "
    "beginning with a letter or a digit; names differ by more than their case."
)

REGISTER_LUA = """
-- KEYS: name claim, player record, key; ARGV: player id, record (JSON), key digest
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[3], ARGV[1])
return 1
"""

REKEY_LUA = """
-- KEYS: player record, the new key (or none); ARGV: key prefix, new digest (or '')
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local record = cjson.decode(raw)
if record['key'] and record['key'] ~= '' then redis.call('DEL', ARGV[1] .. record['key']) end
record['key'] = ARGV[2]
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], record['id']) end
redis.call('SET', KEYS[1], cjson.encode(record))
return 1
"""


def is_player_key(token: str) -> bool:
    return token.startswith(KEY_PREFIX)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Players:
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.base = group(prefix, "players", client)
        self._register = client.register_script(REGISTER_LUA)
        self._rekey = client.register_script(REKEY_LUA)

    def _name_key(self, name: str) -> str:
        return f"{self.base}:name:{name.casefold()}"

    def _player_key(self, player_id: str) -> str:
        return f"{self.base}:p:{player_id}"

    def _key_key(self, key_digest: str) -> str:
        return f"{self.base}:key:{key_digest}"

    def register(self, name: Any, now: datetime | None = None) -> tuple[dict[str, Any], str]:
        """A new player and its key (shown this once). ``invalid_request`` for a name
        outside the rule, ``name_taken`` for one already registered in any case."""
        if not isinstance(name, str) or NAME.fullmatch(name) is None:
            raise CommandError(Code.INVALID_REQUEST, NAME_RULE, rule=NAME_RULE)
        player_id = "pl_" + secrets.token_urlsafe(9).replace("-", "x")
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        created = stamp(now or datetime.now(UTC))
        record = {"id": player_id, "name": name, "created_at": created, "key": digest(key)}
        keys = [self._name_key(name), self._player_key(player_id), self._key_key(digest(key))]
        if not self._register(keys=keys, args=[player_id, json.dumps(record)]):
            raise CommandError(Code.NAME_TAKEN, f"The name '{name}' is taken (names differ by more than their case).")
        return public(record), key

    def authenticate(self, key: str) -> dict[str, Any] | None:
        """The player a key acts for; None for an unknown, rotated or revoked key."""
        player_id = self.redis.get(self._key_key(digest(key)))
        return None if player_id is None else self.get(player_id.decode())

    def get(self, player_id: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._player_key(player_id))
        return None if raw is None else public(json.loads(raw))

    def by_name(self, name: str) -> dict[str, Any] | None:
        player_id = self.redis.get(self._name_key(name))
        return None if player_id is None else self.get(player_id.decode())

    def rotate(self, player_id: str) -> str:
        """A new key for the player; the one it had stops working."""
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        self._rekey(
            keys=[self._player_key(player_id), self._key_key(digest(key))], args=[f"{self.base}:key:", digest(key)]
        )
        return key

    def revoke(self, player_id: str) -> None:
        """The player's key stops working, and no other is issued."""
        self._rekey(keys=[self._player_key(player_id), self._key_key("none")], args=[f"{self.base}:key:", ""])


def public(record: dict[str, Any]) -> dict[str, Any]:
    """What anyone may know of a player (never the key's digest)."""
    return {"id": record["id"], "name": record["name"], "created_at": record["created_at"]}
