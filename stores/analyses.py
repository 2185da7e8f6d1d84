"""Post-game analyses (``core.analysis``) on Redis: each a JSON string among its game's keys
(``<game's key>:analysis``, in the game's slot on a cluster), a read model beside the log."""

from __future__ import annotations

import json
from typing import Any

from events.redis_store import RedisEventStore


class RedisAnalyses:
    def __init__(self, store: RedisEventStore) -> None:
        self.store = store

    def save(self, game_id: str, analysis: dict[str, Any]) -> None:
        self.store.redis.set(self.store.key(game_id, "analysis"), json.dumps(analysis))

    def get(self, game_id: str) -> dict[str, Any] | None:
        raw = self.store.redis.get(self.store.key(game_id, "analysis"))
        return None if raw is None else dict(json.loads(raw))
