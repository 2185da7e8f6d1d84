"""One contract for every event store: in memory, on fakeredis, on a real Redis (with one
partition, the first version's layout, and with several), and on a real Redis Cluster of
three masters with a replica each (partitioned)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator

import fakeredis
import pytest
import redis
from redis.crc import key_slot

from events import NewEvent, VersionConflict
from events.memory import MemoryEventStore
from events.redis_store import RedisEventStore, partition_tags
from events.store import CommandReused, EventStore
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)

STORES = ["memory", "fakeredis", "redis", "redis-partitioned", "cluster"]


def cluster_store(cluster: LocalCluster) -> RedisEventStore:
    """A partitioned store on the session's cluster, under a prefix of its own (the
    cluster, and every key in it, goes when the session ends)."""
    return RedisEventStore(cluster.client(), prefix=f"t-{uuid.uuid4().hex[:12]}", partitions=6)


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest) -> Iterator[EventStore]:
    if request.param == "memory":
        yield MemoryEventStore()
    elif request.param == "fakeredis":
        yield RedisEventStore(fakeredis.FakeRedis(), prefix="t")
    elif request.param == "cluster":
        yield cluster_store(request.getfixturevalue("local_cluster"))
    else:
        client = request.getfixturevalue("real_redis")
        partitions = 4 if request.param == "redis-partitioned" else 1
        yield RedisEventStore(client, prefix=request.getfixturevalue("prefix"), partitions=partitions)


def one(kind: str = "Ticked", **data: object) -> list[NewEvent]:
    return [NewEvent(kind, data)]


def test_versions_start_at_one_and_are_ordered(store: EventStore) -> None:
    first = store.append("g", [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})], 0, "c1")
    second = store.append("g", one(n=3), 2, "c2")
    assert (first.first_version, first.last_version) == (1, 2)
    assert (second.first_version, second.last_version) == (3, 3)
    assert [e.version for e in store.read("g")] == [1, 2, 3]
    assert [e.type for e in store.read("g")] == ["A", "B", "Ticked"]
    assert store.last_version("g") == 3
    assert [e.version for e in store.read("g", after=1, limit=1)] == [2]


def test_a_stale_expected_version_is_refused_with_the_current_one(store: EventStore) -> None:
    store.append("g", one(), 0)
    store.append("g", one(), 1)
    with pytest.raises(VersionConflict) as behind:
        store.append("g", one(), 1)
    assert behind.value.current == 2
    assert store.last_version("g") == 2


def test_an_expected_version_ahead_of_the_log_is_refused(store: EventStore) -> None:
    store.append("g", one(), 0)
    with pytest.raises(VersionConflict) as ahead:
        store.append("g", one(), 5)
    assert ahead.value.current == 1
    assert store.last_version("g") == 1


def test_a_repeated_command_id_appends_nothing_and_returns_the_first_result(store: EventStore) -> None:
    first = store.append("g", [NewEvent("A", {}), NewEvent("B", {})], 0, "same")
    again = store.append("g", one(), 2, "same")
    stale_again = store.append("g", one(), 0, "same")
    assert (again.first_version, again.last_version, again.duplicate) == (1, 2, True)
    assert (stale_again.first_version, stale_again.last_version) == (first.first_version, first.last_version)
    assert store.last_version("g") == 2
    assert store.command_result("g", "same") is not None
    assert store.command_result("g", "other") is None


def test_a_command_id_repeated_with_another_request_is_refused_and_appends_nothing(store: EventStore) -> None:
    store.append("g", [NewEvent("A", {}), NewEvent("B", {})], 0, "same", fingerprint="f1")
    notices = len(store.notices())
    with pytest.raises(CommandReused):
        store.append("g", one(), 2, "same", fingerprint="f2")
    with pytest.raises(CommandReused):
        store.append("g", one(), 0, "same", fingerprint="f2")
    with pytest.raises(CommandReused):
        store.command_result("g", "same", "f2")
    assert store.last_version("g") == 2 and len(store.notices()) == notices


def test_a_command_id_repeated_with_its_request_returns_the_first_result(store: EventStore) -> None:
    store.append("g", one(), 0, "same", fingerprint="f1")
    store.append("g", one(), 1)
    again = store.append("g", one(), 1, "same", fingerprint="f1")
    looked_up = store.command_result("g", "same", "f1")
    assert (again.first_version, again.last_version, again.duplicate) == (1, 1, True)
    assert looked_up is not None and (looked_up.first_version, looked_up.last_version) == (1, 1)
    assert store.last_version("g") == 2


def test_a_missing_fingerprint_on_either_side_matches(store: EventStore) -> None:
    # Records of the old code carry no fingerprint, nor do bots' commands: both are
    # answered as duplicates, whatever the retry's fingerprint.
    store.append("g", one(), 0, "unbound")
    store.append("g", one(), 1, "bound", fingerprint="f1")
    assert store.append("g", one(), 2, "unbound", fingerprint="f9").duplicate
    assert store.append("g", one(), 2, "bound").duplicate
    assert store.command_result("g", "unbound", "f9") is not None
    assert store.command_result("g", "bound") is not None
    assert store.last_version("g") == 2


def test_the_same_command_id_in_two_games_is_two_commands(store: EventStore) -> None:
    store.append("g1", one(), 0, "same", fingerprint="f1")
    second = store.append("g2", one(), 0, "same", fingerprint="f2")
    assert not second.duplicate and store.last_version("g2") == 1


def test_games_are_separate_logs_and_each_command_adds_a_notice(store: EventStore) -> None:
    store.append("g1", one(), 0)
    store.append("g2", [NewEvent("A", {}), NewEvent("Z", {})], 0)
    store.append("g1", one("Y"), 1)
    assert store.last_version("g1") == 2 and store.last_version("g2") == 2
    assert sorted(store.game_ids()) == ["g1", "g2"]
    notices = store.notices()
    expected = [("g1", 1, "Ticked"), ("g2", 2, "Z"), ("g1", 2, "Y")]
    if totally_ordered(store):
        assert [(n.game, n.version, n.type) for n in notices] == expected
        assert [n.game for n in store.notices(after=notices[0].id)] == ["g2", "g1"]
    else:
        assert sorted((n.game, n.version, n.type) for n in notices) == sorted(expected)
        assert [n.version for n in notices if n.game == "g1"] == [1, 2]
        assert store.notices(after=notices[0].id) == notices[1:]


def test_the_chain_verifies_and_links_each_event_to_the_one_before(store: EventStore) -> None:
    for version in range(5):
        store.append("g", one(n=version), version)
    envelopes = store.read("g")
    assert store.verify("g").ok
    assert all(b.prev_hash == a.hash for a, b in zip(envelopes, envelopes[1:], strict=False))
    assert store.head("g") == (5, envelopes[-1].hash)


def tamper(store: EventStore, game: str, version: int, text: str) -> None:
    if isinstance(store, MemoryEventStore):
        store.tamper(game, version, text)
    else:
        assert isinstance(store, RedisEventStore)
        key = store.key(game, "events")
        store.redis.xdel(key, f"{version}-0")
        # Re-inserting in the middle of a stream needs it rebuilt: copy, edit, rewrite.
        entries = store.redis.xrange(key)
        store.redis.delete(key)
        rows = sorted([(int(i.split(b"-")[0]), f[b"e"].decode()) for i, f in entries] + [(version, text)])
        for v, t in rows:
            store.redis.xadd(key, {"e": t}, id=f"{v}-0")


@pytest.mark.parametrize("where", ["data", "type", "unparseable"])
def test_a_changed_byte_makes_verification_name_that_version(store: EventStore, where: str) -> None:
    for version in range(6):
        store.append("g", one(n=version * 11), version)
    ((_, text),) = store.read_raw("g", after=3, limit=1)
    if where == "data":
        changed = text.replace('"n":33', '"n":34')
    elif where == "type":
        changed = text.replace('"Ticked"', '"Tucked"')
    else:
        changed = text[:-1]
    assert changed != text
    tamper(store, "g", 4, changed)
    report = store.verify("g")
    assert not report.ok
    assert report.first_bad_version == 4


def test_events_round_trip_through_canonical_json(store: EventStore) -> None:
    data = {"cards": ["QH", "10S"], "nested": {"ünïcode": "✓", "n": None}, "flag": True}
    store.append("g", [NewEvent("Dealt", data, seat=1, actor="bot")], 0, "cmd")
    (envelope,) = store.read("g")
    assert envelope.data == data and envelope.seat == 1 and envelope.actor == "bot"
    assert envelope.command_id == "cmd"
    assert json.loads(envelope.encode()) == envelope.as_dict()


def test_sixty_four_threads_at_the_same_version_one_wins(real_redis: redis.Redis, prefix: str) -> None:
    store = RedisEventStore(real_redis, prefix=prefix)
    store.append("race", one(), 0)
    barrier = threading.Barrier(64)
    won: list[int] = []
    lost: list[int] = []

    def writer(index: int) -> None:
        mine = RedisEventStore(redis.Redis(connection_pool=real_redis.connection_pool), prefix=prefix)
        barrier.wait()
        try:
            mine.append("race", one(writer=index), 1, f"cmd-{index}")
            won.append(index)
        except VersionConflict:
            lost.append(index)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"64 writers at version 1: {len(won)} won, {len(lost)} refused")
    assert len(won) == 1 and len(lost) == 63
    envelopes = store.read("race")
    assert [e.version for e in envelopes] == [1, 2]
    assert envelopes[1].data == {"writer": won[0]}
    assert store.verify("race").ok


@pytest.fixture(params=["fakeredis", "redis"])
def redis_store(request: pytest.FixtureRequest) -> Iterator[RedisEventStore]:
    if request.param == "fakeredis":
        yield RedisEventStore(fakeredis.FakeRedis(), prefix="t")
    else:
        yield RedisEventStore(request.getfixturevalue("real_redis"), prefix=request.getfixturevalue("prefix"))


def test_version_n_is_stream_entry_n_and_a_games_keys_share_one_hash_tag(redis_store: RedisEventStore) -> None:
    first = redis_store.append("g", [NewEvent("A", {}), NewEvent("B", {})], 0, "c1")
    redis_store.append("g", one(), 2, "c2", prev_hash=first.envelopes[-1].hash)
    client = redis_store.redis
    ids = [entry_id.decode() for entry_id, _ in client.xrange(redis_store.key("g", "events"))]
    assert ids == ["1-0", "2-0", "3-0"]
    keys = {k.decode() for k in client.scan_iter(match=f"{redis_store.prefix}:*")}
    global_keys = {redis_store.feed_key, redis_store.games_key}
    game_keys = keys - global_keys
    assert game_keys == {redis_store.key("g", part) for part in ("events", "head", "cmd:c1", "cmd:c2")}
    assert all("{g}" in key for key in game_keys)
    assert len({key_slot(key.encode()) for key in game_keys}) == 1, "one cluster slot for the whole game"


@pytest.mark.parametrize("partitions", [2, 3, 16, 48])
def test_partition_tags_fall_in_evenly_spaced_ranges_of_slots(partitions: int) -> None:
    tags = partition_tags(partitions)
    slots = [key_slot(tag.encode()) for tag in tags]
    width = 16384 / partitions
    assert [int(slot // width) for slot in slots] == list(range(partitions))
    assert partition_tags(partitions) == tags, "the same tags every time"


def test_a_partitioned_games_keys_and_its_partitions_feed_and_index_share_one_slot(
    local_cluster: LocalCluster,  # noqa: F811  (the fixture)
) -> None:
    # On a real cluster: a script touching keys of two slots would fail with CROSSSLOT.
    store = cluster_store(local_cluster)
    games = [f"game-{i}" for i in range(40)]
    for game in games:
        first = store.append(game, [NewEvent("A", {}), NewEvent("B", {})], 0, "c1")
        store.append(game, one(), 2, "c2", prev_hash=first.envelopes[-1].hash)
        keys = [store.key(game, part) for part in ("events", "head", "cmd:c1", "cmd:c2")]
        keys += [store.feed_key_of(game), store.games_key_of(game)]
        assert all(store.redis.exists(key) for key in keys)
        assert len({key_slot(key.encode()) for key in keys}) == 1, "one slot for a game and its partition's feed"
    assert sorted(store.game_ids()) == sorted(games)
    assert len({store.partition(game) for game in games}) == store.partitions, "40 games reach all 6 partitions"


def test_games_spread_evenly_over_the_masters(local_cluster: LocalCluster) -> None:  # noqa: F811
    """Which master holds each of 10,000 games (by its partition's slot): the largest
    share against an even one, for 48 partitions on 3 masters."""
    client = local_cluster.client()
    store = RedisEventStore(client, prefix="spread", partitions=48)
    masters = {}
    for game in (f"{uuid.UUID(int=i).hex}" for i in range(10_000)):
        node = client.get_node_from_key(store.key(game, "events"))
        masters[node.name] = masters.get(node.name, 0) + 1
    assert len(masters) == 3
    assert max(masters.values()) / (10_000 / 3) <= 1.1, masters


def test_a_command_id_is_remembered_for_at_least_a_day(redis_store: RedisEventStore) -> None:
    redis_store.append("g", one(), 0, "remember-me")
    ttl = redis_store.redis.ttl(redis_store.key("g", "cmd:remember-me"))
    assert ttl >= 24 * 3600


def test_a_dedup_record_written_by_the_old_code_is_honoured(redis_store: RedisEventStore) -> None:
    redis_store.append("g", [NewEvent("A", {}), NewEvent("B", {})], 0)
    # The record as the code before fingerprints wrote it: "<first>:<last>" only.
    redis_store.redis.set(redis_store.key("g", "cmd:old"), "1:2", ex=3600)
    again = redis_store.append("g", one(), 2, "old", fingerprint="f1")
    assert (again.first_version, again.last_version, again.duplicate) == (1, 2, True)
    looked_up = redis_store.command_result("g", "old", "f1")
    assert looked_up is not None and looked_up.last_version == 2
    assert redis_store.last_version("g") == 2


def test_the_dedup_record_keeps_the_fingerprint(redis_store: RedisEventStore) -> None:
    redis_store.append("g", one(), 0, "c", fingerprint="ab" * 32)
    assert redis_store.redis.get(redis_store.key("g", "cmd:c")) == b"1:1:" + b"ab" * 32


def test_an_append_is_one_round_trip_to_redis(redis_store: RedisEventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # The handler always knows the head's hash (the table it decided on carries it), so
    # it passes prev_hash; the first append registers the script, the rest are counted.
    # Counted where every command leaves the client, whichever way it was built: the
    # connection's send_packed_command (execute_command, pipelines and the store's own
    # packed EVALSHA all end there, on fakeredis too).
    head = redis_store.append("g", one(), 0, "warm").envelopes[-1].hash
    sent: list[str] = []
    connection_class = redis_store.redis.connection_pool.connection_class
    send = connection_class.send_packed_command

    def counted(self: object, command: object, *args: object, **options: object) -> object:
        chunks = [command] if isinstance(command, (bytes, str)) else list(command)  # type: ignore[call-overload]
        packed = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in chunks)
        sent.append(packed.split(b"\r\n")[2].decode())  # *<n>, $<len>, then the command's name
        return send(self, command, *args, **options)

    monkeypatch.setattr(connection_class, "send_packed_command", counted)
    for version in range(1, 6):
        head = (
            redis_store.append(
                "g", [NewEvent("A", {}), NewEvent("B", {})], version * 2 - 1, f"c{version}", prev_hash=head
            )
            .envelopes[-1]
            .hash
        )
    with pytest.raises(VersionConflict):
        redis_store.append("g", one(), 3, "late", prev_hash=head)
    redis_store.append("g", one(), 11, "c1", prev_hash=head)
    head = redis_store.append("g", one(), 11, "bound", prev_hash=head, fingerprint="f1").envelopes[-1].hash
    with pytest.raises(CommandReused):
        redis_store.append("g", one(), 12, "bound", prev_hash=head, fingerprint="f2")
    assert [name.upper() for name in sent] == ["EVALSHA"] * 9
    assert redis_store.last_version("g") == 12


@pytest.mark.parametrize("lost", ["the command", "its reply"])
def test_an_append_whose_connection_drops_lands_once(
    real_redis: redis.Redis, prefix: str, lost: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The connection an append goes down drops once: before the command left, or after
    # Redis ran it, with its reply lost. The append is sent again on a new connection;
    # either way it lands once (a second run of a command that was applied answers
    # duplicate, with its versions).
    store = RedisEventStore(real_redis, prefix=prefix)
    head = store.append("g", one(), 0, "c1").envelopes[-1].hash
    connection_class = real_redis.connection_pool.connection_class
    send, read = connection_class.send_packed_command, connection_class.read_response
    drops: list[str] = []

    def drop_once() -> None:
        drops.append(lost)
        raise redis.ConnectionError("connection reset by peer (injected)")

    def sending(self: redis.Connection, *args: object, **options: object) -> object:
        if lost == "the command" and not drops:
            drop_once()
        return send(self, *args, **options)

    def reading(self: redis.Connection, *args: object, **options: object) -> object:
        reply = read(self, *args, **options)
        if lost == "its reply" and not drops:
            drop_once()
        return reply

    monkeypatch.setattr(connection_class, "send_packed_command", sending)
    monkeypatch.setattr(connection_class, "read_response", reading)
    result = store.append("g", one(n=2), 1, "c2", prev_hash=head)
    monkeypatch.undo()
    assert drops == [lost]
    assert (result.first_version, result.last_version, result.duplicate) == (2, 2, lost == "its reply")
    assert [envelope.data for envelope in store.read("g")] == [{}, {"n": 2}]
    store.append("g", one(n=3), 2, "c3", prev_hash=store.read("g")[-1].hash)
    assert real_redis.xlen(store.key("g", "events")) == 3


# Following a log and the feed: ``wait_for`` (the event stream a client watches) and
# subscriptions (the projector's consumer group).

WAKE_TIMEOUT = 10.0


def appended_later(store: EventStore, game: str, expected_version: int, delay: float = 0.2) -> threading.Timer:
    timer = threading.Timer(delay, store.append, args=(game, one(), expected_version))
    timer.start()
    return timer


def test_wait_for_returns_the_events_after_a_version_in_order_at_once(store: EventStore) -> None:
    store.append("g", [NewEvent("A", {}), NewEvent("B", {})], 0)
    store.append("g", one(), 2)
    started = time.monotonic()
    assert [(e.version, e.type) for e in store.wait_for("g", 1, WAKE_TIMEOUT)] == [(2, "B"), (3, "Ticked")]
    assert [e.version for e in store.wait_for("g", 0, WAKE_TIMEOUT, limit=2)] == [1, 2]
    assert time.monotonic() - started < WAKE_TIMEOUT


@pytest.mark.timeout(60)
def test_wait_for_returns_nothing_once_the_timeout_passes(store: EventStore) -> None:
    store.append("g", one(), 0)
    started = time.monotonic()
    assert store.wait_for("g", 1, 0.3) == []
    assert time.monotonic() - started >= 0.25, "it waited"
    assert store.wait_for("nobody", 0, 0.05) == []
    assert store.wait_for("g", 1, 0) == [], "a timeout of 0 does not wait (Redis's BLOCK 0 would wait forever)"


@pytest.mark.timeout(60)
def test_wait_for_wakes_when_another_thread_appends(store: EventStore) -> None:
    store.append("g", one(), 0)
    writer = appended_later(store, "g", 1)
    started = time.monotonic()
    woken = store.wait_for("g", 1, WAKE_TIMEOUT)
    waited = time.monotonic() - started
    writer.join()
    assert [e.version for e in woken] == [2]
    assert waited < WAKE_TIMEOUT, "woken by the append, not by the timeout"


def totally_ordered(store: EventStore) -> bool:
    """One feed hands out notices in the order they were appended. A partitioned store has
    a feed per partition: each game's notices come in version order, and notices of games
    in different partitions by stream id, which may not be the order of the appends."""
    return not (isinstance(store, RedisEventStore) and store.partitions > 1)


def test_each_games_notices_come_in_version_order_whatever_the_partitions(store: EventStore) -> None:
    games = [f"g{i}" for i in range(12)]
    for _ in range(4):
        append_commands(store, *games)
    subscription = store.subscribe("projector", "p1")
    received = subscription.receive(count=1000, block_seconds=0.05)
    listed = store.notices()
    for notices in (received, listed):
        assert sorted((n.game, n.version) for n in notices) == sorted((g, v) for g in games for v in range(1, 5))
        for game in games:
            assert [n.version for n in notices if n.game == game] == [1, 2, 3, 4]
    # Listing after any notice gives exactly the ones listed after it.
    for cut in (0, 7, 30, 47):
        assert store.notices(after=listed[cut].id) == listed[cut + 1 :]
    assert store.notices(after=listed[5].id, limit=3) == listed[6:9]
    subscription.ack(*received)
    assert subscription.caught_up()


def append_commands(store: EventStore, *games: str) -> None:
    for game in games:
        store.append(game, one(game.upper()), store.last_version(game))


def test_a_subscription_hands_out_the_feed_in_order_and_an_acked_notice_once(store: EventStore) -> None:
    append_commands(store, "g1", "g2", "g1")
    subscription = store.subscribe("projector", "p1")
    received = subscription.receive(block_seconds=0.05)
    assert received == store.notices()
    expected = [("g1", 1, "G1"), ("g2", 1, "G2"), ("g1", 2, "G1")]
    if totally_ordered(store):
        assert [(n.game, n.version, n.type) for n in received] == expected
    else:
        assert sorted((n.game, n.version, n.type) for n in received) == sorted(expected)
        assert [n.version for n in received if n.game == "g1"] == [1, 2]
    subscription.ack(*received)
    assert subscription.receive(block_seconds=0.05) == []
    append_commands(store, "g2")
    assert [(n.game, n.version) for n in subscription.receive(block_seconds=0.05)] == [("g2", 2)]


def test_consumers_of_a_group_share_the_feed_and_each_group_gets_all_of_it(store: EventStore) -> None:
    append_commands(store, "a", "b", "c")
    first = store.subscribe("projector", "p1").receive(count=2, block_seconds=0.05)
    second = store.subscribe("projector", "p2").receive(count=2, block_seconds=0.05)
    other = store.subscribe("audit", "p1").receive(block_seconds=0.05)
    if totally_ordered(store):
        assert [n.game for n in first] == ["a", "b"] and [n.game for n in second] == ["c"]
        assert [n.game for n in other] == ["a", "b", "c"]
    else:
        assert len(first) == 2 and sorted(n.game for n in first + second) == ["a", "b", "c"]
        assert sorted(n.game for n in other) == ["a", "b", "c"]


def test_a_group_is_caught_up_when_every_notice_was_handed_out_and_acked(store: EventStore) -> None:
    subscription = store.subscribe("projector", "p1")
    assert not subscription.caught_up(), "no group before the first receive"
    assert subscription.receive(block_seconds=0.05) == []
    assert subscription.caught_up(), "an empty feed"
    append_commands(store, "g", "h")
    assert not subscription.caught_up()
    first, second = subscription.receive(block_seconds=0.05)
    subscription.ack(first)
    assert not subscription.caught_up()
    subscription.ack(second)
    assert subscription.caught_up()
    assert not store.subscribe("audit", "p1").caught_up()


def test_a_consumer_subscribed_again_under_its_name_first_gets_what_it_did_not_ack(store: EventStore) -> None:
    append_commands(store, "a", "b", "c")
    doomed = store.subscribe("projector", "host-1")
    applied, *unacked = doomed.receive(block_seconds=0.05)
    doomed.ack(applied)
    # The process dies here, and comes back under the same name.
    restarted = store.subscribe("projector", "host-1")
    append_commands(store, "d")
    again = restarted.receive(block_seconds=0.05)
    if totally_ordered(store):
        assert [n.game for n in again] == ["b", "c", "d"]
        assert [n.game for n in unacked] == ["b", "c"]
    else:
        assert sorted(n.game for n in again) == sorted([n.game for n in unacked] + ["d"])
        assert sorted(n.game for n in [applied, *unacked]) == ["a", "b", "c"]
    assert restarted.receive(block_seconds=0.05) == [], "handed out again once, not on every receive"


def test_another_consumer_takes_over_what_a_dead_one_left_idle(store: EventStore) -> None:
    append_commands(store, "a", "b", "c")
    doomed = store.subscribe("projector", "host-1")
    applied, *_ = doomed.receive(block_seconds=0.05)
    doomed.ack(applied)
    # "host-1" dies here and never comes back.
    patient = store.subscribe("projector", "host-2")
    assert patient.receive(block_seconds=0.05) == [], "not idle for claim_idle_seconds yet"
    survivor = store.subscribe("projector", "host-3", claim_idle_seconds=0)
    taken = survivor.receive(block_seconds=0.05)
    if totally_ordered(store):
        assert [n.game for n in taken] == ["b", "c"]
    else:
        assert sorted(n.game for n in taken) == sorted({"a", "b", "c"} - {applied.game})
    survivor.ack(*taken)
    assert survivor.caught_up()


def test_a_notice_not_acked_is_handed_out_again_once_idle(store: EventStore) -> None:
    # The projector does not ack a game it could not apply: it comes back to be tried again.
    append_commands(store, "bad", "good")
    subscription = store.subscribe("projector", "p1", claim_idle_seconds=0)
    bad, good = subscription.receive(block_seconds=0.05)
    subscription.ack(good)
    assert subscription.receive(block_seconds=0.05) == [bad]
    subscription.ack(bad)
    assert subscription.receive(block_seconds=0.05) == []


@pytest.mark.timeout(60)
def test_receive_returns_nothing_once_the_wait_passes(store: EventStore) -> None:
    append_commands(store, "g")
    subscription = store.subscribe("projector", "p1")
    subscription.ack(*subscription.receive(block_seconds=0.05))
    started = time.monotonic()
    assert subscription.receive(block_seconds=0.3) == []
    assert time.monotonic() - started >= 0.25, "it waited"


@pytest.mark.timeout(60)
def test_receive_wakes_when_another_thread_appends(store: EventStore) -> None:
    subscription = store.subscribe("projector", "p1")
    assert subscription.receive(block_seconds=0) == []
    writer = appended_later(store, "g", 0)
    started = time.monotonic()
    woken = subscription.receive(block_seconds=WAKE_TIMEOUT)
    waited = time.monotonic() - started
    writer.join()
    assert [(n.game, n.version) for n in woken] == [("g", 1)]
    assert waited < WAKE_TIMEOUT, "woken by the append, not by the timeout"


def test_following_keeps_to_the_stores_keys(redis_store: RedisEventStore) -> None:
    # Everything a reader touches is under the prefix, which the tests' cleanup deletes.
    assert redis_store.wait_for("g", 0, 0.05) == []
    subscription = redis_store.subscribe("projector", "p1")
    subscription.receive(block_seconds=0.05)
    redis_store.append("g", one(), 0)
    subscription.ack(*subscription.receive(block_seconds=0.05))
    assert [e.version for e in redis_store.wait_for("g", 0, 0.05)] == [1]
    keys = {k.decode() for k in redis_store.redis.scan_iter(match=f"{redis_store.prefix}:*")}
    assert keys == {
        redis_store.feed_key,
        redis_store.games_key,
        redis_store.key("g", "events"),
        redis_store.key("g", "head"),
    }


def test_a_feed_entry_deleted_after_it_was_handed_out_is_acked_not_received(redis_store: RedisEventStore) -> None:
    append_commands(redis_store, "a", "b")
    doomed = redis_store.subscribe("projector", "host-1")
    first, second = doomed.receive(block_seconds=0.05)
    redis_store.redis.xdel(redis_store.feed_key, first.id)
    restarted = redis_store.subscribe("projector", "host-1")
    assert restarted.receive(block_seconds=0.05) == [second]
    restarted.ack(second)
    assert restarted.caught_up()


def test_a_tail_read_while_another_client_appends_never_ends_before_its_head(store: EventStore) -> None:
    """``read_tail`` answers the events and the head; were the head read after the events,
    an append landing in between would make a whole log look cut short (``LogDamaged``)."""
    store.append("race", one(n=0), 0)
    done = threading.Event()
    appended = [1]

    def append() -> None:
        while not done.is_set() and appended[0] < 5000:
            store.append("race", one(n=appended[0]), appended[0])
            appended[0] += 1

    writer = threading.Thread(target=append)
    writer.start()
    try:
        seen, reads = 0, 0
        deadline = time.monotonic() + 60
        # At least 300 reads, and on until the writer has appended 200 (on a loaded machine
        # the reads alone can end before the writer's thread has had a turn).
        while (reads < 300 or appended[0] <= 200) and time.monotonic() < deadline:
            after = max(0, seen - 1)  # the tail only: a whole log each time would make this quadratic
            tail, head = store.read_tail("race", after=after)
            assert tail and tail[-1].version >= head, f"read up to {tail[-1].version if tail else after}, head {head}"
            seen, reads = tail[-1].version, reads + 1
    finally:
        done.set()
        writer.join()
    assert appended[0] > 200, "the reads ran while the log grew"


def test_an_append_survives_a_redis_that_lost_its_scripts() -> None:
    """The append goes down as a bare EVALSHA; a Redis restarted (its script cache empty)
    gets the script's text once more, and nothing is appended twice."""
    client = fakeredis.FakeRedis()
    store = RedisEventStore(client, prefix="t")
    store.append("g", one(n=1), 0, "c1")
    client.script_flush()
    result = store.append("g", one(n=2), 1, "c2")
    assert (result.first_version, result.last_version) == (2, 2)
    client.script_flush()
    again = store.append("g", one(n=2), 1, "c2")  # the same command, retried: recorded, not appended
    assert again.duplicate and again.last_version == 2
    assert [e.data["n"] for e in store.read("g")] == [1, 2]
