"""Table chat on Redis (``core.chat.ChatLog``): a stream of the game's own among its keys,
``<game key prefix>:chat`` (the store's ``key(game, "chat")``: the game's hash tag, so its
slot on a cluster), each entry one message, its JSON under the field ``m``; ``XADD MAXLEN
~`` keeps about the latest ``KEPT``, and an entry's id is Redis's clock. An author's rate
state in a game is ``<game key prefix>:chat-rate:<author>``, the GCRA's theoretical
arrival time in ms, lapsing once it is past; one script checks it and adds the message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.chat import PART, ChatLog, RateRefused
from events.redis_store import RedisEventStore

FIELD = "m"  # the field holding an entry's message

POST_LUA = """
-- KEYS[1]: the game's chat stream; KEYS[2]: the author's rate state in that game.
-- ARGV: the window in ms, the limit, the messages kept, the message (JSON).
-- Returns {1, entry id} when stored, {0, ms until a post would be allowed} when refused.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local window = tonumber(ARGV[1])
local interval = window / tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[2]))
if tat == nil or tat < now or redis.call('PTTL', KEYS[2]) < 0 then tat = now end
local next_tat = tat + interval
local allowed_at = next_tat - window
if now < allowed_at then return {0, math.ceil(allowed_at - now)} end
redis.call('SET', KEYS[2], string.format('%.3f', next_tat), 'PX', math.max(1, math.ceil(next_tat - now)))
return {1, redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[4])}
"""


class RedisChatLog(ChatLog):
    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.redis = store.redis
        self._post = self.redis.register_script(POST_LUA)

    def key(self, game_id: str) -> str:
        return self.store.key(game_id, PART)

    def append(self, game_id: str, author: str, message: str, window_ms: int, limit: int, kept: int) -> str:
        rate_key = self.store.key(game_id, f"{PART}-rate:{author}")
        done, value = self._post(keys=[self.key(game_id), rate_key], args=[window_ms, limit, kept, message])
        if not int(done):
            raise RateRefused(int(value))
        return value.decode() if isinstance(value, bytes) else str(value)

    def entries(self, game_id: str, after: str = "0", count: int | None = None) -> list[tuple[str, str]]:
        low = "-" if after == "0" else f"({after}"
        batch = self.redis.xrange(self.key(game_id), min=low, max="+", count=count)
        return [
            (raw_id.decode(), self.message_of({k.decode(): v.decode() for k, v in fields.items()}))
            for raw_id, fields in batch
        ]

    def last_id(self, game_id: str) -> str:
        last = self.redis.xrevrange(self.key(game_id), count=1)
        return last[0][0].decode() if last else "0-0"

    def restore(self, game_id: str, entries: Sequence[tuple[str, str]], kept: int) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            for entry_id, message in entries:
                pipe.xadd(self.key(game_id), {FIELD: message}, id=entry_id, maxlen=kept, approximate=True)
            pipe.execute()

    def message_of(self, fields: Mapping[str, str]) -> str:
        return fields[FIELD]
