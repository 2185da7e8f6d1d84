"""Players on Redis (``core.players.PlayerStore``), under ``<prefix>:players``
(``<prefix>:{players}`` on a cluster: one slot, as a registration claims the name and
writes the player and its key in one script).

Keys: ``<base>:name:<folded name>`` the id of the player that claimed the name;
``<base>:p:<player id>`` the player's record (JSON: id, name, created_at, and ``key``, the
digest of its key, empty once revoked); ``<base>:key:<digest>`` the id of the player whose
key it is.
"""

from __future__ import annotations

import json
from typing import Any

from core.players import PlayerStore
from events.keys import group

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


CLOSE_LUA = """
-- KEYS: player record; ARGV: key prefix, when
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local record = cjson.decode(raw)
if record['key'] and record['key'] ~= '' then redis.call('DEL', ARGV[1] .. record['key']) end
record['key'] = ''
record['closed_at'] = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(record))
return 1
"""


class RedisPlayerStore(PlayerStore):
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.base = group(prefix, "players", client)
        self._register = client.register_script(REGISTER_LUA)
        self._rekey = client.register_script(REKEY_LUA)
        self._close = client.register_script(CLOSE_LUA)

    def _name_key(self, folded_name: str) -> str:
        return f"{self.base}:name:{folded_name}"

    def _player_key(self, player_id: str) -> str:
        return f"{self.base}:p:{player_id}"

    def _key_key(self, key_digest: str) -> str:
        return f"{self.base}:key:{key_digest}"

    def add(self, folded_name: str, player_id: str, key_digest: str, record: dict[str, Any]) -> bool:
        keys = [self._name_key(folded_name), self._player_key(player_id), self._key_key(key_digest)]
        return bool(self._register(keys=keys, args=[player_id, json.dumps(record)]))

    def player_of_key(self, key_digest: str) -> str | None:
        player_id = self.redis.get(self._key_key(key_digest))
        return None if player_id is None else player_id.decode()

    def record(self, player_id: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._player_key(player_id))
        return None if raw is None else dict(json.loads(raw))

    def player_of_name(self, folded_name: str) -> str | None:
        player_id = self.redis.get(self._name_key(folded_name))
        return None if player_id is None else player_id.decode()

    def close(self, player_id: str, at: str) -> bool:
        return bool(self._close(keys=[self._player_key(player_id)], args=[f"{self.base}:key:", at]))

    def set_key(self, player_id: str, key_digest: str | None) -> None:
        # Revoked: no new key, and the script writes none under KEYS[2], a placeholder then.
        new_key = self._key_key("none" if key_digest is None else key_digest)
        self._rekey(keys=[self._player_key(player_id), new_key], args=[f"{self.base}:key:", key_digest or ""])
