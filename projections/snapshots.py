"""Versioned snapshots of tables. A snapshot is a cache: a stale one is never wrong,
only slower, and an older one never replaces a newer one.

Snapshots are pickled: they are written and read only by this service, on its own
Redis, and a snapshot that cannot be read (another code version) is ignored.
"""

from __future__ import annotations

import pickle
from typing import Protocol

import redis

from projections.table import Table

# Format 3: a table's pending undo no longer carries the version it was asked at.
# Format 4: a table carries its lifecycle, clock, timer moves and the seats that left.
# Format 5: a table counts the turns the timer played in a row, not its moves.
# Format 6: a table carries a pending draw offer, and each seat its player's account.
# Format 7: a dragoborne state carries shields_match_banners (rules revision 3): a state
# pickled without it would fold no further.
FORMAT = b"7"

# A snapshot of another format is unreadable, so any table replaces it.
PUT_IF_NEWER_LUA = """
local current = redis.call('HMGET', KEYS[1], 'version', 'format')
if current[1] and current[2] == ARGV[2] and tonumber(current[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'format', ARGV[2], 'table', ARGV[3])
return 1
"""


class Snapshots(Protocol):
    def get(self, game_id: str) -> Table | None: ...

    def put(self, table: Table) -> bool: ...

    def version(self, game_id: str) -> int: ...


class RedisSnapshots:
    def __init__(self, client: redis.Redis, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        self._put = client.register_script(PUT_IF_NEWER_LUA)

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:snapshot"

    def get(self, game_id: str) -> Table | None:
        fields = self.redis.hmget(self.key(game_id), "format", "table")
        if fields[0] != FORMAT or fields[1] is None:
            return None
        try:
            table = pickle.loads(fields[1])
        except Exception:
            return None
        return table if isinstance(table, Table) else None

    def put(self, table: Table) -> bool:
        blob = pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL)
        return bool(self._put(keys=[self.key(table.game_id)], args=[table.version, FORMAT, blob]))

    def version(self, game_id: str) -> int:
        value = self.redis.hget(self.key(game_id), "version")
        return 0 if value is None else int(value)


class MemorySnapshots:
    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}

    def get(self, game_id: str) -> Table | None:
        return self._tables.get(game_id)

    def put(self, table: Table) -> bool:
        current = self._tables.get(table.game_id)
        if current is not None and current.version >= table.version:
            return False
        self._tables[table.game_id] = table
        return True

    def version(self, game_id: str) -> int:
        current = self._tables.get(game_id)
        return 0 if current is None else current.version
