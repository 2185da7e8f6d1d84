"""The event store on Redis streams.

Two layouts of the same keys. With one partition (the default, and the only layout of
the first version): the keys of one game share the hash tag ``{<game>}``:
``<p>:{g}:events`` (the stream, entry id ``<version>-0``), ``<p>:{g}:head``
(``"<version>:<hash>"``) and ``<p>:{g}:cmd:<command id>`` (the first result of a command
and the fingerprint of its request, ``"<first>:<last>:<fingerprint>"``, kept 7 days;
records without the fingerprint are the old code's, honoured as they are); the feed
``<p>:feed`` and the game index ``<p>:games`` are global.

With N partitions (for Redis Cluster, where a script may touch one slot only): a game
belongs to partition ``crc32(game) % N``, and its keys, its partition's feed and its
partition's game index share the partition's hash tag ``{<tag>}``: ``<p>:{t}:g:<game>:events``
and so on, ``<p>:{t}:feed``, ``<p>:{t}:games``. The tags are chosen so that their slots are
evenly spaced over the 16,384 (``partition_tags``): on a cluster whose masters hold equal
ranges of slots, each master holds an equal share of the partitions. N is fixed for the
life of a deployment: games do not move between partitions. A notice's id names its
partition (``<i>/<stream id>``); feed order is per partition, so each game's notices come
in the order of its versions, and across partitions by stream id.

Following: ``wait_for`` is one blocking XREAD on the game's stream, ``wait_for_either``
one on it and a side stream of the game's own (its chat, ``key(game, "chat")``). A
subscription is a consumer group on the feed: XAUTOCLAIM takes over idle entries,
XREADGROUP reads a consumer's own pending entries (id ``0``) and new ones (``>``), XACK
acks.

An append is one round trip: a Lua script checks the command id (and that a repeated
one comes with the same request), the expected
version and the head hash, XADDs every event, moves the head, records the command
and adds a notice to the feed, atomically. Hashes are computed here in Python
(Redis Lua has no SHA-256); the script refuses a chain built on the wrong head.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from events.envelope import GENESIS_HASH, Envelope, NewEvent, chain_encoded
from events.keys import clustered, partition_of
from events.store import (
    DEDUP_SECONDS,
    AppendResult,
    CommandReused,
    EventStore,
    Notice,
    Subscription,
    VersionConflict,
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
    if recorded and fingerprint ~= '' and recorded ~= fingerprint then return 'reused ' .. seen end
    -- Written again as it is: a write that a WAIT after this script can count, and that a
    -- replica holds only once it holds everything written before it (the first append too).
    redis.call('SET', KEYS[3], seen, 'KEEPTTL')
    return 'duplicate ' .. seen
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
if version ~= expected then return 'conflict ' .. tostring(version) end
if head_hash ~= prev_hash then return 'rehash ' .. head_hash end
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
return 'ok ' .. result
"""
)

# A command's record, read and written again as it is (see the duplicate branch above).
TOUCH_LUA = """
local seen = redis.call('GET', KEYS[1])
if seen then redis.call('SET', KEYS[1], seen, 'KEEPTTL') end
return seen
"""

# How many of its own pending entries a consumer subscribed again reads back at once; any
# beyond are taken over once idle, like a dead consumer's.
OWN_PENDING_LIMIT = 10_000


# Idle subscriptions over several partitions poll them (a blocking read spans one slot);
# the pause between two polls.
POLL_SECONDS = 0.02


@cache
def partition_tags(count: int) -> tuple[str, ...]:
    """A hash tag per partition, the i-th in the i-th of ``count`` equal ranges of slots
    (the first short string found there, so the same tags on every process)."""
    tags = []
    for index in range(count):
        low, high = index * REDIS_CLUSTER_HASH_SLOTS // count, (index + 1) * REDIS_CLUSTER_HASH_SLOTS // count
        n = 0
        while not low <= key_slot(f"p{index}.{n}".encode()) < high:
            n += 1
        tags.append(f"p{index}.{n}")
    return tuple(tags)


class RedisEventStore(EventStore):
    def __init__(
        self, client: Any, prefix: str = "ts", partitions: int = 1, replicas: int = 0, replica_wait_ms: int = 500
    ) -> None:
        """``client``: a ``redis.Redis``, or a ``redis.cluster.RedisCluster`` (with more
        than one partition). ``replicas``: how many replicas must confirm an append's copy
        (Redis ``WAIT``, up to ``replica_wait_ms``) before it is acknowledged."""
        if not 1 <= partitions <= REDIS_CLUSTER_HASH_SLOTS:
            raise ValueError(f"partitions must be between 1 and {REDIS_CLUSTER_HASH_SLOTS}")
        if clustered(client) and partitions == 1:
            raise ValueError("on a Redis Cluster the feed needs partitions (an append may touch one slot)")
        self.redis = client
        self.prefix = prefix
        self.partitions = partitions
        self.replicas = replicas
        self.replica_wait_ms = replica_wait_ms
        self._tags = partition_tags(partitions) if partitions > 1 else ("",)
        # Named once: every append names its partition's feed and game index.
        self._feeds: tuple[str, ...]
        self._indexes: tuple[str, ...]
        if partitions == 1:
            self._feeds, self._indexes = (f"{prefix}:feed",), (f"{prefix}:games",)
        else:
            self._feeds = tuple(f"{prefix}:{{{tag}}}:feed" for tag in self._tags)
            self._indexes = tuple(f"{prefix}:{{{tag}}}:games" for tag in self._tags)
        self._append = client.register_script(APPEND_LUA)
        self._plain = not clustered(client) and self.replicas == 0
        self._touch = client.register_script(TOUCH_LUA)

    def check_partitions(self) -> None:
        """Record the partition count on first start; refuse another count after (games
        would be looked for in the wrong partition)."""
        key = f"{self.prefix}:partitions"
        self.redis.set(key, self.partitions, nx=True)
        recorded = int(self.redis.get(key) or self.partitions)
        if recorded != self.partitions:
            raise ValueError(
                f"this Redis holds a feed of {recorded} partitions, not {self.partitions}: "
                f"set TABLESTREAM_PARTITIONS={recorded} (the count is fixed for a deployment's life)"
            )

    def partition(self, game_id: str) -> int:
        return partition_of(game_id, self.partitions)

    def key(self, game_id: str, part: str) -> str:
        if self.partitions == 1:
            return f"{self.prefix}:{{{game_id}}}:{part}"
        return f"{self.prefix}:{{{self._tags[self.partition(game_id)]}}}:g:{game_id}:{part}"

    def feed_keys(self) -> list[str]:
        """Each partition's feed, in partition order."""
        return list(self._feeds)

    def games_keys(self) -> list[str]:
        return list(self._indexes)

    def feed_key_of(self, game_id: str) -> str:
        return self._feeds[self.partition(game_id)]

    def games_key_of(self, game_id: str) -> str:
        return self._indexes[self.partition(game_id)]

    @property
    def feed_key(self) -> str:
        """The feed, with one partition (see ``feed_keys``)."""
        if self.partitions > 1:
            raise ValueError("a partitioned store has one feed per partition: feed_keys()")
        return self.feed_keys()[0]

    @property
    def games_key(self) -> str:
        """The game index, with one partition (see ``games_keys``)."""
        if self.partitions > 1:
            raise ValueError("a partitioned store has one game index per partition: games_keys()")
        return self.games_keys()[0]

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
            linked = chain_encoded(events, expected_version + 1, prev_hash, self.now(), command_id)
            envelopes = [envelope for envelope, _ in linked]
            keys = [
                self.key(game_id, "events"),
                self.key(game_id, "head"),
                self.key(game_id, f"cmd:{command_id}"),
                self.feed_key_of(game_id),
                self.games_key_of(game_id),
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
            args = [header, *(text for _, text in linked)]
            reply, replicated = self._run_append(keys, args)
            status, _, value = reply.decode().partition(" ")
            if status == "ok":
                first, last = value.split(":")
                return AppendResult(int(first), int(last), False, tuple(envelopes), replicated)
            if status == "duplicate":
                return replace(_recorded(value)[0], replicated=replicated)
            if status == "reused":
                raise CommandReused(command_id or "")
            if status == "conflict":
                raise VersionConflict(expected_version, int(value))
            prev_hash = value
        raise RuntimeError("the head hash moved twice at the same version")

    def _run_append(self, keys: list[str], args: list[Any]) -> tuple[Any, bool]:
        """The append script's reply and whether the replicas asked for confirmed it."""
        if self._plain:
            return self._evalsha(self.redis, keys, args), True
        return self._confirmed(keys[0], lambda client: self._evalsha(client, keys, args))

    def _evalsha(self, client: Any, keys: list[str], args: list[Any]) -> Any:
        """The append script on ``client``: on a connection, EVALSHA straight down, past
        redis-py's script wrapper (a Redis that lost its scripts, restarted, gets the
        text once more); in a pipeline (with a WAIT after it), through the wrapper, which
        loads the script first."""
        if isinstance(client, redis.client.Pipeline):
            return self._append(keys=keys, args=args, client=client)
        try:
            return lean_command(client, ("EVALSHA", self._append.sha, len(keys), *keys, *args))
        except redis.exceptions.NoScriptError:
            return self._append(keys=keys, args=args, client=client)

    def _confirmed(self, key: str, call: Callable[[Any], Any]) -> tuple[Any, bool]:
        """``call``'s reply and, when replicas are asked for, whether they confirmed every
        write before it on ``key``'s master: WAIT counts the writes of its own connection,
        so ``call`` (which must write) and the WAIT go down one connection to that master.

        On a cluster ``call`` always goes to that master's own client, past the cluster
        client (which costs a third more CPU an append: it works out the slot of every key
        twice and routes); a ``MOVED`` reply (the script did not run) is sent once more
        to the new owner, after learning the cluster's map again."""
        on_cluster = clustered(self.redis)
        if not on_cluster and self.replicas == 0:
            return call(self.redis), True
        for attempt in range(2):
            node = self.redis.get_node_from_key(key).redis_connection if on_cluster else self.redis
            try:
                if self.replicas == 0:
                    return call(node), True
                pipe = node.pipeline(transaction=False)
                call(pipe)
                pipe.execute_command("WAIT", self.replicas, self.replica_wait_ms)
                reply, confirmed = pipe.execute()
                return reply, int(confirmed) >= self.replicas
            except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError) as error:
                # After a master's failure or a moved slot, learn the cluster's map again, so
                # that this call's second try, or the caller's retry (with the same command
                # id), finds the new master.
                refused = isinstance(error, redis.ResponseError)
                moved = refused and str(error).startswith(("MOVED", "CLUSTERDOWN", "TRYAGAIN"))
                if on_cluster and (moved or not refused):
                    try:
                        self.redis.nodes_manager.initialize()
                    except Exception:  # the cluster is still electing: the next try learns it
                        pass
                if not (on_cluster and str(error).startswith("MOVED") and attempt == 0):
                    raise
        raise AssertionError("unreachable")

    def import_raw(self, game_id: str, entries: Sequence[tuple[int, str]]) -> None:
        last = Envelope.decode(entries[-1][1])
        if not self.redis.set(self.key(game_id, "head"), f"{last.version}:{last.hash}", nx=True):
            raise VersionConflict(0, self.last_version(game_id))
        pipe = self.redis.pipeline()
        for version, text in entries:
            pipe.xadd(self.key(game_id, "events"), {"e": text}, id=f"{version}-0")
        pipe.zadd(self.games_key_of(game_id), {game_id: int(time.time() * 1000)})
        pipe.xadd(self.feed_key_of(game_id), {"game": game_id, "version": last.version, "type": last.type})
        pipe.execute()

    def note_unreplicated(self, game_id: str, first: int, last: int) -> None:
        self.redis.zadd(self.key(game_id, "unreplicated"), {f"{first}-{last}": first})

    def unreplicated(self, game_id: str) -> list[tuple[int, int]]:
        spans = self.redis.zrange(self.key(game_id, "unreplicated"), 0, -1)
        return [(int(a), int(b)) for a, b in (span.decode().split("-") for span in spans)]

    def command_result(self, game_id: str, command_id: str, fingerprint: str | None = None) -> AppendResult | None:
        key = self.key(game_id, f"cmd:{command_id}")
        if self.replicas == 0:
            seen, replicated = self.redis.get(key), True
        else:  # a retry is acknowledged only once a replica holds what it answers
            seen, replicated = self._confirmed(key, lambda client: self._touch(keys=[key], client=client))
        if seen is None:
            return None
        result, recorded = _recorded(seen.decode())
        if not same_request(recorded, fingerprint):
            raise CommandReused(command_id)
        return replace(result, replicated=replicated)

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
        # The head first: an append that lands between the two reads (a pipeline is not a
        # transaction) then only adds events past it, where read the other way round the
        # head would be ahead of the events read and the log would look cut short.
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(self.key(game_id, "head"))
        pipe.xrange(self.key(game_id, "events"), min=f"{after + 1}-0", max="+")
        head, entries = pipe.execute()
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
        for key in self.games_keys():
            for member, _ in self.redis.zscan_iter(key):
                yield member.decode()

    def recent_game_ids(self, limit: int) -> list[str]:
        """The ``limit`` games created last, newest first (across the partitions)."""
        found: list[tuple[bytes, float]] = []
        for key in self.games_keys():
            found.extend(self.redis.zrevrange(key, 0, limit - 1, withscores=True))
        found.sort(key=lambda member: -member[1])
        return [member.decode() for member, _ in found[:limit]]

    def last_notice(self) -> Notice | None:
        """The newest notice of the feed (of every partition's newest, the latest)."""
        latest = [
            _notice(entry_id, fields, index if self.partitions > 1 else None)
            for index, key in enumerate(self.feed_keys())
            for entry_id, fields in self.redis.xrevrange(key, count=1)
        ]
        return max(latest, key=_feed_order, default=None)

    def notices(self, after: str = "0", limit: int = 1000) -> list[Notice]:
        """With partitions: every partition's notices after ``after`` in the order of
        (stream id, partition), the first ``limit`` of them."""
        if self.partitions == 1:
            entries = self.redis.xrange(self.feed_key, min=f"({after}" if after != "0" else "-", max="+", count=limit)
            return [_notice(entry_id, fields) for entry_id, fields in entries]
        at, start = (-1, "0-0") if after == "0" else _split(after)
        found: list[Notice] = []
        for index, key in enumerate(self.feed_keys()):
            # The same stream id in a later partition comes after ``after``; in this or an
            # earlier one, before it.
            low = start if index > at else f"({start}"
            entries = self.redis.xrange(key, min="-" if after == "0" else low, max="+", count=limit)
            found.extend(_notice(entry_id, fields, index) for entry_id, fields in entries)
        return sorted(found, key=_feed_order)[:limit]

    def wait_for(self, game_id: str, after: int, timeout_seconds: float, limit: int | None = None) -> list[Envelope]:
        streams = {self.key(game_id, "events"): f"{after}-0"}
        reply = self.redis.xread(streams, count=limit, block=_block_ms(timeout_seconds))
        return [Envelope.decode(fields[b"e"]) for _, entries in reply or [] for _, fields in entries]

    def wait_for_either(
        self,
        game_id: str,
        after: int,
        side: str,
        side_after: str,
        timeout_seconds: float,
        limit: int | None = None,
    ) -> tuple[list[Envelope], list[tuple[str, dict[str, str]]]]:
        """One blocking XREAD on the game's stream and its side stream: both carry the
        game's hash tag, so they share a slot and one node answers."""
        log, beside = self.key(game_id, "events"), self.key(game_id, side)
        reply = self.redis.xread({log: f"{after}-0", beside: side_after}, count=limit, block=_block_ms(timeout_seconds))
        envelopes: list[Envelope] = []
        entries: list[tuple[str, dict[str, str]]] = []
        for name, found in reply or []:
            if (name.decode() if isinstance(name, bytes) else name) == log:
                envelopes.extend(Envelope.decode(fields[b"e"]) for _, fields in found)
            else:
                entries.extend(
                    (entry_id.decode(), {k.decode(): v.decode() for k, v in fields.items()})
                    for entry_id, fields in found
                )
        return envelopes, entries

    def subscribe(self, group: str, consumer: str, claim_idle_seconds: float = 30.0) -> Subscription:
        return RedisSubscription(self, group, consumer, claim_idle_seconds)


class RedisSubscription(Subscription):
    """A consumer group of the same name on every partition's feed."""

    def __init__(self, store: RedisEventStore, group: str, consumer: str, claim_idle_seconds: float) -> None:
        super().__init__(group, consumer, claim_idle_seconds)
        self.store = store
        self._opened = False

    def open(self) -> None:
        for feed in self.store.feed_keys():
            try:
                self.store.redis.xgroup_create(feed, self.group, id="0", mkstream=True)
            except redis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def receive(self, count: int = 100, block_seconds: float = 1.0) -> list[Notice]:
        r, feeds = self.store.redis, self.store.feed_keys()
        if not self._opened:
            self.open()
        idle_ms = round(self.claim_idle_seconds * 1000)
        entries: list[tuple[int, Any, dict[bytes, bytes]]] = []
        for index, feed in enumerate(feeds):
            # Redis 6.2 answers [cursor, entries]; Redis 7 adds the ids it deleted.
            claimed = r.xautoclaim(feed, self.group, self.consumer, idle_ms, "0-0", count=count)[1]
            entries.extend((index, entry_id, fields) for entry_id, fields in claimed)
            if not self._opened:
                for _, own in r.xreadgroup(self.group, self.consumer, {feed: "0"}, count=OWN_PENDING_LIMIT) or []:
                    entries.extend((index, entry_id, fields) for entry_id, fields in own)
        self._opened = True
        entries.extend(self._new(feeds, count, 0 if entries else block_seconds))
        # An entry deleted from the feed after it was handed out comes back without fields
        # (and on Redis 6.2 XAUTOCLAIM without its id): there is nothing to apply.
        for index, feed in enumerate(feeds):
            gone = [entry_id for i, entry_id, fields in entries if i == index and not fields and entry_id is not None]
            if gone:
                r.xack(feed, self.group, *gone)
        # Taken over and own pending entries can be the same entry; feed order, once each.
        partitioned = len(feeds) > 1
        notices = {
            (index, entry_id): _notice(entry_id, fields, index if partitioned else None)
            for index, entry_id, fields in entries
            if fields
        }
        return sorted(notices.values(), key=_feed_order)

    def _new(self, feeds: list[str], count: int, block_seconds: float) -> list[tuple[int, Any, dict[bytes, bytes]]]:
        """Up to ``count`` notices never handed out, waiting up to ``block_seconds`` for
        one: one blocking read on a single feed; on several (which may live on different
        cluster nodes), a read of each, again every ``POLL_SECONDS`` until one comes."""
        r = self.store.redis
        if len(feeds) == 1:
            reply = r.xreadgroup(
                self.group, self.consumer, {feeds[0]: ">"}, count=count, block=_block_ms(block_seconds)
            )
            return [(0, entry_id, fields) for _, new in reply or [] for entry_id, fields in new]
        deadline = time.monotonic() + block_seconds
        while True:
            found: list[tuple[int, Any, dict[bytes, bytes]]] = []
            for index, feed in enumerate(feeds):
                if len(found) >= count:
                    break
                reply = r.xreadgroup(self.group, self.consumer, {feed: ">"}, count=count - len(found))
                found.extend((index, entry_id, fields) for _, new in reply or [] for entry_id, fields in new)
            left = deadline - time.monotonic()
            if found or left <= 0:
                return found
            time.sleep(min(POLL_SECONDS, left))

    def ack(self, *notices: Notice) -> None:
        feeds = self.store.feed_keys()
        by_feed: dict[int, list[str]] = {}
        for notice in notices:
            index, entry_id = _split(notice.id) if len(feeds) > 1 else (0, notice.id)
            by_feed.setdefault(index, []).append(entry_id)
        for index, ids in by_feed.items():
            self.store.redis.xack(feeds[index], self.group, *ids)

    def caught_up(self) -> bool:
        return all(self._caught_up(feed) for feed in self.store.feed_keys())

    def _caught_up(self, feed: str) -> bool:
        pipe = self.store.redis.pipeline(transaction=False)
        pipe.xinfo_groups(feed)
        pipe.xinfo_stream(feed)
        try:
            groups, stream = pipe.execute()
        except redis.ResponseError:  # no feed yet
            return False
        # The group's last delivered id, not its lag: Redis 6.2 has no lag, and Redis 7 has
        # none once an entry was deleted.
        mine = next((g for g in groups if g["name"].decode() == self.group), None)
        return mine is not None and mine["pending"] == 0 and mine["last-delivered-id"] == stream["last-generated-id"]


def _notice(entry_id: bytes, fields: dict[bytes, bytes], partition: int | None = None) -> Notice:
    own = entry_id.decode()
    notice_id = own if partition is None else f"{partition}/{own}"
    return Notice(notice_id, fields[b"game"].decode(), int(fields[b"version"]), fields[b"type"].decode())


def _split(notice_id: str) -> tuple[int, str]:
    """A partitioned notice id's partition and stream id."""
    partition, _, entry_id = notice_id.partition("/")
    return int(partition), entry_id


def _feed_order(notice: Notice) -> tuple[int, ...]:
    """Stream id, then partition."""
    partition, entry_id = _split(notice.id) if "/" in notice.id else (0, notice.id)
    return (*(int(part) for part in entry_id.split("-")), partition)


def _block_ms(seconds: float) -> int | None:
    """The BLOCK argument for a wait of ``seconds``: none for no wait, as BLOCK 0 waits forever."""
    return max(1, round(seconds * 1000)) if seconds > 0 else None


def _recorded(record: str) -> tuple[AppendResult, str | None]:
    """A dedup record's result and fingerprint (None in a record of the old code)."""
    first, last, *fingerprint = record.split(":", 2)
    return AppendResult(int(first), int(last), duplicate=True), fingerprint[0] if fingerprint else None


def resp_command(parts: Sequence[str | int]) -> bytes:
    """A command in the Redis protocol (RESP), each part UTF-8: what redis-py's client
    sends for it with its default encoding, built in one join."""
    encoded = [str(part).encode() for part in parts]
    return b"".join([b"*%d\r\n" % len(encoded), *(b"$%d\r\n%s\r\n" % (len(item), item) for item in encoded)])


def lean_command(client: Any, parts: Sequence[str | int]) -> Any:
    """``client.execute_command(*parts)``'s reply for a command that needs no reply
    callback; on a plain ``redis.Redis``, sent on a connection of its pool past
    ``execute_command``, whose bookkeeping costs an append a fifth of its CPU (bench
    row 1a). An error reply is raised as ``execute_command`` raises it. A connection
    that fails is dropped, and the command goes once more through ``execute_command``,
    whose retry policy reconnects, as it did before: the append script answers a second
    run of a command it applied with ``duplicate`` (``conflict`` without a command id),
    never appending twice."""
    if type(client) is not redis.Redis:
        return client.execute_command(*parts)
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command([resp_command(parts)], check_health=False)
        return connection.read_response()
    except (redis.ConnectionError, redis.TimeoutError):
        connection.disconnect()
    finally:
        pool.release(connection)
    return client.execute_command(*parts)
