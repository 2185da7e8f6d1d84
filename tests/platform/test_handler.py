"""The command handler on the tiny game: given events, when a command, then events or an
error; on the in-memory store, and on a local Redis Cluster (partitioned store, Redis
snapshots and vault)."""

from __future__ import annotations

import random
import uuid

import fakeredis
import pytest

from core.commands import Commands
from core.creation import Creation
from core.errors import CommandError
from core.forks import Forks
from core.handler import Handler
from core.lifecycle import Lifecycle
from core.undo import Undo
from events.memory import MemoryEventStore
from events.redis_store import RedisEventStore
from games.rng import commitment
from projections.lifecycle import iso
from projections.snapshots import RedisSnapshots
from projections.table import fold
from projections.tables import Tables
from stores.vault import RedisVault
from tests.localcluster import local_cluster  # noqa: F401  (a fixture)

TWO = [{"name": "ann"}, {"name": "bob"}]


@pytest.fixture(params=["memory", "cluster"])
def h(request: pytest.FixtureRequest) -> Handler:
    if request.param == "cluster":
        # The session's cluster, and every key in it, goes when the session ends.
        client = request.getfixturevalue("local_cluster").client()
        prefix = f"h-{uuid.uuid4().hex[:12]}"
        cluster_store = RedisEventStore(client, prefix=prefix, partitions=6)
        snapshots = RedisSnapshots(client, prefix=prefix)
        return Handler(
            cluster_store, Tables(cluster_store, snapshots, snapshot_every=3), RedisVault(client, prefix=prefix)
        )
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    return Handler(store, Tables(store, RedisSnapshots(client), snapshot_every=3), RedisVault(client))


def error_of(call) -> CommandError:  # type: ignore[no-untyped-def]
    with pytest.raises(CommandError) as caught:
        call()
    return caught.value


def test_creating_a_game_commits_to_its_seed_and_hands_a_token_per_human_seat(h: Handler) -> None:
    created = h.create_game("tiny", [{"name": "ann"}, {"bot": "random"}])
    envelopes = h.store.read(created.table.game_id)
    assert envelopes[0].type == "GameCreated"
    assert envelopes[0].data["seed_commitment"] == commitment(h.vault.seed(created.table.game_id))
    assert "seed" not in envelopes[0].data
    assert set(created.tokens) == {0}
    assert h.vault.owner(created.tokens[0]) == (created.table.game_id, 0)
    assert created.table.fair_deal is True


def test_a_seed_chosen_by_the_creator_is_not_a_fair_deal(h: Handler) -> None:
    created = h.create_game("tiny", TWO, seed="my-seed")
    assert created.table.fair_deal is False
    again = h.create_game("tiny", TWO, seed="my-seed")
    deals = [h.store.read(t.table.game_id)[1].data for t in (created, again)]
    assert deals[0] == deals[1], "the same seed deals the same cards"


@pytest.mark.parametrize(
    ("kind", "players", "options", "code"),
    [
        ("no-such-game", TWO, {}, "unknown_kind"),
        ("tiny", [{"name": "ann"}], {}, "invalid_options"),
        ("tiny", TWO, {"start": 12}, "invalid_options"),
        ("tiny", TWO, {"colour": "red"}, "invalid_options"),
        ("tiny", [{"name": "ann"}, {"bot": "genius"}], {}, "invalid_request"),
        ("tiny", [{"name": "a\x00b"}, {"name": "bob"}], {}, "invalid_request"),
    ],
)
def test_a_game_that_cannot_start_is_refused_and_appends_nothing(
    h: Handler, kind: str, players: list, options: dict, code: str
) -> None:
    assert error_of(lambda: h.create_game(kind, players, options)).code == code
    assert list(h.store.game_ids()) == []


def test_acting_appends_the_action_then_its_events(h: Handler) -> None:
    table = h.create_game("tiny", TWO).table
    acted = h.act(table.game_id, 0, {"type": "add", "amount": 2}, table.version, "cmd-1")
    assert [e.type for e in acted.envelopes] == ["ActionTaken", "Added"]
    assert acted.envelopes[0].data == {"action": {"type": "add", "amount": 2}}
    assert acted.table.state.count == 2 and acted.table.version == table.version + 2


def test_an_action_is_decided_and_folded_once_and_the_table_is_the_logs_fold(
    h: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's decision is the only judge of an action (the platform checks no turn or
    shape of its own), and each event it makes is folded once, as it is made: the table
    kept after the append is the one a fold of the log gives."""
    table = h.create_game("tiny", TWO, {"start": 8}).table
    game = table.game
    calls = {"decision": 0, "evolve": 0}
    decision, evolve = game.decision, game.evolve

    def counted_decision(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["decision"] += 1
        return decision(*args, **kwargs)

    def counted_evolve(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["evolve"] += 1
        return evolve(*args, **kwargs)

    monkeypatch.setattr(game, "decision", counted_decision)
    monkeypatch.setattr(game, "evolve", counted_evolve)
    acted = h.act(table.game_id, 0, {"type": "draw"}, table.version)
    assert calls == {"decision": 1, "evolve": 1}, "one decision, its one event folded once"
    assert error_of(lambda: h.act(table.game_id, 0, {"type": "fly"}, acted.version)).code == "not_your_turn"
    assert calls["decision"] > 1, "a refusal is the game's, not a check of the platform's before it"
    monkeypatch.undo()
    ended = h.act(table.game_id, 1, {"type": "add", "amount": 2}, acted.version)
    assert ended.table.status == "finished"
    assert ended.table == fold(None, h.store.read(table.game_id), lambda v: h.tables.at(table.game_id, v))


def test_refusals_have_stable_codes_and_append_nothing(h: Handler) -> None:
    table = h.create_game("tiny", TWO).table
    gid, v = table.game_id, table.version
    assert error_of(lambda: h.act(gid, 1, {"type": "add", "amount": 1}, v)).code == "not_your_turn"
    assert error_of(lambda: h.act(gid, 0, {"type": "add", "amount": 3}, v)).code == "illegal_action"
    assert error_of(lambda: h.act(gid, 0, {"type": "add", "amount": 1}, v - 1)).code == "stale_version"
    assert error_of(lambda: h.act(gid, 0, {"type": "add", "amount": 1}, v + 1)).code == "stale_version"
    assert error_of(lambda: h.act("nope", 0, {"type": "add", "amount": 1}, v)).code == "not_found"
    illegal = error_of(lambda: h.act(gid, 0, {"type": "fly"}, v))
    assert illegal.extra["legal_actions"] == h.load(gid).game.legal_actions(table.state, 0)
    assert h.store.last_version(gid) == v


def test_a_retried_command_returns_the_first_answer_and_appends_nothing(h: Handler) -> None:
    table = h.create_game("tiny", TWO).table
    first = h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version, "same-key")
    again = h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version, "same-key")
    assert again.duplicate and [e.hash for e in again.envelopes] == [e.hash for e in first.envelopes]
    assert h.store.last_version(table.game_id) == first.version


def test_the_game_ends_with_its_outcome_and_reveals_the_seed(h: Handler) -> None:
    table = h.create_game("tiny", TWO, {"start": 9}).table
    acted = h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version)
    ended = acted.envelopes[-1]
    assert ended.type == "SeedRevealed"
    assert ended.data["outcome"]["winners"] == [0]
    assert commitment(ended.data["seed"]) == table.seed_commitment
    assert acted.table.status == "finished"
    assert error_of(lambda: h.act(table.game_id, 1, {"type": "add", "amount": 1}, acted.version)).code == "game_over"


def test_an_open_seat_waits_for_a_player_then_the_game_starts(h: Handler) -> None:
    table = h.create_game("tiny", [{"name": "ann"}, {"open": True}]).table
    assert table.status == "open"
    assert error_of(lambda: h.act(table.game_id, 0, {"type": "draw"}, table.version)).code == "game_not_started"
    joined, token = h.join(table.game_id, 1, "bob")
    assert joined.status == "active" and h.vault.owner(token) == (table.game_id, 1)
    assert error_of(lambda: h.join(table.game_id, 1, "eve")).code == "seat_taken"


@pytest.mark.parametrize("clock", [None, {"initial": 30, "increment": 1}])
def test_fold_from_any_snapshot_equals_fold_from_zero_at_every_version(
    h: Handler, clock: dict[str, int] | None
) -> None:
    rng = random.Random(7)
    if clock is not None:  # time moves between commands: the clocks are part of every table compared
        now = [1_800_000_000_000]

        def later() -> str:
            now[0] += rng.randrange(0, 4000)
            return iso(now[0])

        h.store.now = later  # type: ignore[method-assign]
    for _ in range(10):
        table = h.create_game("tiny", TWO, lifecycle={"clock": clock}).table
        while table.status == "active":
            seat = next(iter(table.to_act()))
            action = rng.choice(table.game.legal_actions(table.state, seat))
            table = h.act(table.game_id, seat, action, table.version).table
        if clock is not None:
            assert table.clock is not None and table.clock.remaining != (30_000, 30_000)
        envelopes = h.store.read(table.game_id)
        for version in range(1, len(envelopes) + 1):
            from_zero = fold(None, envelopes[:version])
            for start in range(1, version + 1):
                from_snapshot = fold(fold(None, envelopes[:start]), envelopes[start:version])
                assert from_snapshot == from_zero
            assert h.tables.at(table.game_id, version) == from_zero
        fresh = Tables(h.store, h.tables.snapshots)
        assert fresh.load(table.game_id) == fold(None, envelopes)
        assert h.tables.snapshots.version(table.game_id) == table.version


def test_concurrent_creates_with_one_key_make_one_game_and_all_get_its_tokens(h: Handler) -> None:
    import threading

    players = [{"name": "ann"}, {"name": "bob"}]
    results: list[tuple[str, dict[int, str]]] = []
    barrier = threading.Barrier(8)

    def create() -> None:
        barrier.wait()
        created = h.create_game("tiny", players, command_id="same-key")
        results.append((created.table.game_id, created.tokens))

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8 and len(set(game for game, _ in results)) == 1
    assert all(tokens == results[0][1] and set(tokens) == {0, 1} for _, tokens in results)
    assert len(list(h.store.game_ids())) == 1


def test_a_process_whose_cached_table_is_behind_the_log_answers_stale_and_appends_nothing(h: Handler) -> None:
    # Two API processes share the log; each keeps its own tables.
    other = Handler(h.store, Tables(h.store, h.tables.snapshots), h.vault)
    table = h.create_game("tiny", TWO).table
    gid, v = table.game_id, table.version
    assert other.load(gid).version == v  # the other process has seen version v
    h.act(gid, 0, {"type": "add", "amount": 1}, v)
    late = error_of(lambda: other.act(gid, 0, {"type": "add", "amount": 2}, v))
    assert (late.code, late.extra["version"]) == ("stale_version", v + 2)
    wrong_turn = error_of(lambda: other.act(gid, 0, {"type": "add", "amount": 1}, v))
    assert wrong_turn.code == "stale_version", "a refusal is judged on the latest version"
    assert h.store.last_version(gid) == v + 2
    retried = other.act(gid, 1, {"type": "draw"}, v + 2, "k")
    again = h.act(gid, 1, {"type": "draw"}, v + 2, "k")
    assert again.duplicate and [e.hash for e in again.envelopes] == [e.hash for e in retried.envelopes]
    assert h.store.last_version(gid) == retried.version


def test_the_handler_names_every_command_of_every_part_and_the_parts_share_one_core() -> None:
    """The handler is composed, not inherited: each part (creation, endings, undo, forks)
    is built on the one core, and every public command of a part is the handler's, bound
    to that part, so a command added to a part cannot be left unreachable."""
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, RedisSnapshots(client)), RedisVault(client))
    parts = {}
    for part_class in (Creation, Lifecycle, Undo, Forks):
        assert not issubclass(part_class, Commands), f"{part_class.__name__} inherits the core"
        for name, member in vars(part_class).items():
            if callable(member) and not name.startswith("_"):
                command = getattr(handler, name)
                assert command.__func__ is member, f"handler.{name} is not {part_class.__name__}.{name}"
                parts[part_class] = command.__self__
    assert {part.core for part in parts.values()} == {handler.core}
    assert handler.act.__func__ is Lifecycle.act  # a move goes through the clock's check
