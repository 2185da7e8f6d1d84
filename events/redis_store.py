"""The event store on Redis streams.

Keys of one game share the hash tag ``{<game>}``: ``<p>:{g}:events`` (the stream,
entry id ``<version>-0``), ``<p>:{g}:head`` (``"<version>:<hash>"``) and
``<p>:{g}:cmd:<command id>`` (the first result of a command and the fingerprint of its
request, ``"<first>:<last>:<fingerprint>"``, kept 7 days; records without the fingerprint
are the old code's, honoured as they are). The feed
``<p>:feed`` and the game index ``<p>:games`` are global.

Following: ``wait_for`` is one blocking XREAD on the game's stream. A subscription is a
consumer group on the feed: XAUTOCLAIM takes over idle entries, XREADGROUP reads a
consumer's own pending entries (id ``0``) and new ones (``>``), XACK acks.

An append is one round trip: a Lua script checks the command id (and that a repeated
one comes with the same request), the expected
version and the head hash, XADDs every event, moves the head, records the command
and adds a notice to the feed, atomically. Hashes are computed here in Python
(Redis Lua has no SHA-256); the script refuses a chain built on the wrong head.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import redis

from events.envelope import GENESIS_HASH, Envelope, NewEvent, chain
from events.store import (
    DEDUP_SECONDS,
    AppendResult,
    CommandReused,
    EventStore,
    Notice,
    Subscription,
    VersionConflict,
    now_iso,
    same_request,
)

APPEND_LUA = (
    """
-- ARGV[1]: expected version, prev hash, game id, dedup ttl, has-command flag, last
-- event's type and hash, the request's fingerprint (empty for none), joined by newlines
-- (one argument packs faster than eight); ARGV[2..]: the encoded events.
local head_args = {}
for part in string.gmatch(ARGV[1], '([^\\n]*)\\n?') do head_args[#head_args + 1] = part end
local expected = tonumber(head_args[1])
local prev_hash = head_args[2]
local game = head_args[3]
local ttl = tonumber(head_args[4])
local has_command = head_args[5] == '1'
local last_type = head_args[6]
local last_hash = head_args[7]
local fingerprint = head_args[8] or ''
local count = #ARGV - 1
if has_command then
  local seen = redis.call('GET', KEYS[3])
  if seen then
    -- A record without a fingerprint (the old code's, or a bot's) matches any request,
    -- as does a request without one: see events.store.same_request.
    local recorded = string.match(seen, '^%d+:%d+:(.+)$')
    if recorded and fingerprint ~= '' and recorded ~= fingerprint then return {'reused', seen} end
    return {'duplicate', seen}
  end
end
local version = 0
local head_hash = '"""
    + GENESIS_HASH
    + """'
local head = redis.call('GET', KEYS[2])
if head then
  local sep = string.find(head, ':', 1, true)
  version = tonumber(string.sub(head, 1, sep - 1))
  head_hash = string.sub(head, sep + 1)
end
if version ~= expected then return {'conflict', tostring(version)} end
if head_hash ~= prev_hash then return {'rehash', head_hash} end
for i = 1, count do
  redis.call('XADD', KEYS[1], tostring(expected + i) .. '-0', 'e', ARGV[1 + i])
end
local last = expected + count
redis.call('SET', KEYS[2], tostring(last) .. ':' .. last_hash)
local result = tostring(expected + 1) .. ':' .. tostring(last)
if has_command then
  local record = result
  if fingerprint ~= '' then record = result .. ':' .. fingerprint end
  redis.call('SET', KEYS[3], record, 'EX', ttl)
end
redis.call('XADD', KEYS[4], '*', 'game', game, 'version', tostring(last), 'type', last_type)
if expected == 0 then
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[5], tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000), game)
end
return {'ok', result}
"""
)

# How many of its own pending entries a consumer subscribed again reads back at once; any
# beyond are taken over once idle, like a dead consumer's.
OWN_PENDING_LIMIT = 10_000


class RedisEventStore(EventStore):
    def __init__(self, client: redis.Redis, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix
        self._append = client.register_script(APPEND_LUA)

    def key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:{part}"

    @property
    def feed_key(self) -> str:
        return f"{self.prefix}:feed"

    @property
    def games_key(self) -> str:
        return f"{self.prefix}:games"

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        command_id: str | None = None,
        prev_hash: str | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        if not events:
            raise ValueError("an append needs at least one event")
        if prev_hash is None:
            prev_hash = self._head_hash(game_id, expected_version)
        for _ in range(2):
            envelopes = chain(events, expected_version + 1, prev_hash, now_iso(), command_id)
            keys = [
                self.key(game_id, "events"),
                self.key(game_id, "head"),
                self.key(game_id, f"cmd:{command_id}"),
                self.feed_key,
                self.games_key,
            ]
            header = "\n".join(
                (
                    str(expected_version),
                    prev_hash,
                    game_id,
                    str(DEDUP_SECONDS),
                    "1" if command_id is not None else "0",
                    envelopes[-1].type,
                    envelopes[-1].hash,
                    fingerprint or "",
                )
            )
            args = [header, *(e.encode() for e in envelopes)]
            status, value = self._append(keys=keys, args=args)
            status, value = status.decode(), value.decode()
            if status == "ok":
                first, last = value.split(":")
                return AppendResult(int(first), int(last), False, tuple(envelopes))
            if status == "duplicate":
                return _recorded(value)[0]
            if status == "reused":
                raise CommandReused(command_id or "")
            if status == "conflict":
                raise VersionConflict(expected_version, int(value))
            prev_hash = value
        raise RuntimeError("the head hash moved twice at the same version")

    def import_raw(self, game_id: str, entries: Sequence[tuple[int, str]]) -> None:
        last = Envelope.decode(entries[-1][1])
        if not self.redis.set(self.key(game_id, "head"), f"{last.version}:{last.hash}", nx=True):
            raise VersionConflict(0, self.last_version(game_id))
        pipe = self.redis.pipeline()
        for version, text in entries:
            pipe.xadd(self.key(game_id, "events"), {"e": text}, id=f"{version}-0")
        pipe.zadd(self.games_key, {game_id: int(time.time() * 1000)})
        pipe.xadd(self.feed_key, {"game": game_id, "version": last.version, "type": last.type})
        pipe.execute()

    def command_result(self, game_id: str, command_id: str, fingerprint: str | None = None) -> AppendResult | None:
        seen = self.redis.get(self.key(game_id, f"cmd:{command_id}"))
        if seen is None:
            return None
        result, recorded = _recorded(seen.decode())
        if not same_request(recorded, fingerprint):
            raise CommandReused(command_id)
        return result

    def _head_hash(self, game_id: str, version: int) -> str:
        if version == 0:
            return GENESIS_HASH
        head = self.redis.get(self.key(game_id, "head"))
        if head is None:
            return GENESIS_HASH
        head_version, head_hash = head.decode().split(":", 1)
        return head_hash if int(head_version) == version else GENESIS_HASH

    def read_raw(self, game_id: str, after: int = 0, limit: int | None = None) -> list[tuple[int, str]]:
        entries = self.redis.xrange(self.key(game_id, "events"), min=f"{after + 1}-0", max="+", count=limit)
        return [(int(entry_id.split(b"-")[0]), fields[b"e"].decode()) for entry_id, fields in entries]

    def read_tail(self, game_id: str, after: int = 0) -> tuple[list[Envelope], int]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.key(game_id, "events"), min=f"{after + 1}-0", max="+")
        pipe.get(self.key(game_id, "head"))
        entries, head = pipe.execute()
        envelopes = [Envelope.decode(fields[b"e"]) for _, fields in entries]
        return envelopes, 0 if head is None else int(head.split(b":", 1)[0])

    def last_version(self, game_id: str) -> int:
        head = self.redis.get(self.key(game_id, "head"))
        return 0 if head is None else int(head.split(b":", 1)[0])

    def head(self, game_id: str) -> tuple[int, str]:
        head = self.redis.get(self.key(game_id, "head"))
        if head is None:
            return 0, GENESIS_HASH
        version, digest = head.decode().split(":", 1)
        return int(version), digest

    def game_ids(self) -> Iterator[str]:
        for member, _ in self.redis.zscan_iter(self.games_key):
            yield member.decode()

    def notices(self, after: str = "0", limit: int = 1000) -> list[Notice]:
        entries = self.redis.xrange(self.feed_key, min=f"({after}" if after != "0" else "-", max="+", count=limit)
        return [_notice(entry_id, fields) for entry_id, fields in entries]

    def wait_for(self, game_id: str, after: int, timeout_seconds: float, limit: int | None = None) -> list[Envelope]:
        streams = {self.key(game_id, "events"): f"{after}-0"}
        reply = self.redis.xread(streams, count=limit, block=_block_ms(timeout_seconds))
        return [Envelope.decode(fields[b"e"]) for _, entries in reply or [] for _, fields in entries]

    def subscribe(self, group: str, consumer: str, claim_idle_seconds: float = 30.0) -> Subscription:
        return RedisSubscription(self, group, consumer, claim_idle_seconds)


class RedisSubscription(Subscription):
    def __init__(self, store: RedisEventStore, group: str, consumer: str, claim_idle_seconds: float) -> None:
        super().__init__(group, consumer, claim_idle_seconds)
        self.store = store
        self._opened = False

    def open(self) -> None:
        try:
            self.store.redis.xgroup_create(self.store.feed_key, self.group, id="0", mkstream=True)
        except redis.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def receive(self, count: int = 100, block_seconds: float = 1.0) -> list[Notice]:
        r, feed = self.store.redis, self.store.feed_key
        if not self._opened:
            self.open()
        idle_ms = round(self.claim_idle_seconds * 1000)
        # Redis 6.2 answers [cursor, entries]; Redis 7 adds the ids it deleted.
        entries = list(r.xautoclaim(feed, self.group, self.consumer, idle_ms, "0-0", count=count)[1])
        if not self._opened:
            for _, own in r.xreadgroup(self.group, self.consumer, {feed: "0"}, count=OWN_PENDING_LIMIT) or []:
                entries.extend(own)
            self._opened = True
        block = None if entries else _block_ms(block_seconds)
        for _, new in r.xreadgroup(self.group, self.consumer, {feed: ">"}, count=count, block=block) or []:
            entries.extend(new)
        # An entry deleted from the feed after it was handed out comes back without fields
        # (and on Redis 6.2 XAUTOCLAIM without its id): there is nothing to apply.
        gone = [entry_id for entry_id, fields in entries if not fields and entry_id is not None]
        if gone:
            r.xack(feed, self.group, *gone)
        # Taken over and own pending entries can be the same entry; feed order, once each.
        notices = {entry_id: _notice(entry_id, fields) for entry_id, fields in entries if fields}
        return sorted(notices.values(), key=lambda notice: _feed_position(notice.id))

    def ack(self, *notices: Notice) -> None:
        if notices:
            self.store.redis.xack(self.store.feed_key, self.group, *(notice.id for notice in notices))

    def caught_up(self) -> bool:
        pipe = self.store.redis.pipeline(transaction=False)
        pipe.xinfo_groups(self.store.feed_key)
        pipe.xinfo_stream(self.store.feed_key)
        try:
            groups, stream = pipe.execute()
        except redis.ResponseError:  # no feed yet
            return False
        # The group's last delivered id, not its lag: Redis 6.2 has no lag, and Redis 7 has
        # none once an entry was deleted.
        mine = next((g for g in groups if g["name"].decode() == self.group), None)
        return mine is not None and mine["pending"] == 0 and mine["last-delivered-id"] == stream["last-generated-id"]


def _notice(entry_id: bytes, fields: dict[bytes, bytes]) -> Notice:
    return Notice(entry_id.decode(), fields[b"game"].decode(), int(fields[b"version"]), fields[b"type"].decode())


def _feed_position(notice_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in notice_id.split("-"))


def _block_ms(seconds: float) -> int | None:
    """The BLOCK argument for a wait of ``seconds``: none for no wait, as BLOCK 0 waits forever."""
    return max(1, round(seconds * 1000)) if seconds > 0 else None


def _recorded(record: str) -> tuple[AppendResult, str | None]:
    """A dedup record's result and fingerprint (None in a record of the old code)."""
    first, last, *fingerprint = record.split(":", 2)
    return AppendResult(int(first), int(last), duplicate=True), fingerprint[0] if fingerprint else None
