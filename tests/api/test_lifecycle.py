"""The endings besides the rules': resign, abort, clocks, abandonment and open
seats that expire, each from the states where it is allowed and refused where it is not,
with outcomes that say how the game ended, and stats and ratings that count only real
results. Time is a clock the test controls: the store stamps events with it and the
handler reads it, as they do the real one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.tooling import audit_game
from events.envelope import NewEvent
from projections.lifecycle import iso
from stores.platform import Platform
from tests.api.conftest import bearer
from tests.api.test_players import drain, register
from workers.jobs import play_bot


class Clock:
    def __init__(self, platform: Platform) -> None:
        self.ms = 1_800_000_000_000
        platform.store.now = lambda: iso(self.ms)  # type: ignore[method-assign]

    def tick(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)


@pytest.fixture
def clock(platform: Platform) -> Clock:
    return Clock(platform)


def tiny(client: FlaskClient, **extra: Any) -> tuple[dict[str, Any], dict[int, dict[str, str]]]:
    answer = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}], **extra})
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    return game, {s["seat"]: bearer(s["token"]) for s in game["seats"]}


def move(client: FlaskClient, game_id: str, headers: dict[str, str]) -> Any:
    view = client.get(f"/v1/games/{game_id}", headers=headers).get_json()
    action = next(a for a in view["legal_actions"] if a["type"] == "add")
    return client.post(
        f"/v1/games/{game_id}/actions", json={"action": action, "expected_version": view["version"]}, headers=headers
    )


def versions(platform: Platform, game_id: str) -> int:
    return platform.store.last_version(game_id)


def audited(platform: Platform, game_id: str) -> None:
    report = audit_game(platform, game_id)
    assert report.ok, (report.first_bad_version, report.reason)


def test_a_resignation_in_a_game_of_two_gives_the_other_seat_the_win_once(
    client: FlaskClient, platform: Platform
) -> None:
    game, seats = tiny(client)
    assert move(client, game["id"], seats[0]).status_code == 200
    assert move(client, game["id"], seats[1]).status_code == 200  # a result once both have moved
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=seats[1])
    assert resigned.status_code == 200, resigned.get_json()
    assert [e["type"] for e in resigned.get_json()["events"]] == ["Resigned", "SeedRevealed"]
    over = client.get(f"/v1/games/{game['id']}").get_json()
    outcome = over["outcome"]
    assert over["status"] == "finished" and outcome["winners"] == [0] and outcome["ending"] == "resignation"
    assert outcome["left"] == [1] and outcome["counts"] is True and "Seat 2 resigned" in outcome["reason"]
    assert over["seats"][1]["left"] == "resignation"
    audited(platform, game["id"])
    before = versions(platform, game["id"])
    for seat in (1, 0):  # twice, or the winner after: refused, nothing appended
        again = client.post(f"/v1/games/{game['id']}/resign", headers=seats[seat])
        assert again.status_code == 409 and again.get_json()["code"] == "game_over"
    assert versions(platform, game["id"]) == before


def test_no_one_but_a_seat_resigns_or_aborts_and_an_open_game_is_aborted_not_resigned(
    client: FlaskClient, platform: Platform
) -> None:
    game, seats = tiny(client)
    other, other_seats = tiny(client)
    _, carl = register(client, "carl")
    for path in ("resign", "abort"):
        for headers, status in (({}, 401), (carl, 403), (other_seats[0], 403), (bearer("nope"), 401)):
            refused = client.post(f"/v1/games/{game['id']}/{path}", headers=headers)
            assert refused.status_code == status, (path, headers, refused.get_json())
        assert client.post(f"/v1/games/nothing-here/{path}", headers=seats[0]).status_code in (401, 403, 404)
    assert versions(platform, game["id"]) == game["version"]
    opened = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"open": True}]}).get_json()
    ann = bearer(opened["seats"][0]["token"])
    refused = client.post(f"/v1/games/{opened['id']}/resign", headers=ann)
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_started"
    aborted = client.post(f"/v1/games/{opened['id']}/abort", headers=ann)
    assert aborted.status_code == 200
    outcome = client.get(f"/v1/games/{opened['id']}").get_json()["outcome"]
    assert outcome["ending"] == "abort" and outcome["winners"] == [] and outcome["counts"] is False
    joined = client.post(f"/v1/games/{opened['id']}/seats/1/join", json={"name": "late"})
    assert joined.status_code == 409


def test_abort_is_allowed_until_every_seat_has_moved_once(client: FlaskClient, platform: Platform) -> None:
    game, seats = tiny(client)
    assert move(client, game["id"], seats[0]).status_code == 200
    # One seat has moved: still abortable, by either seat.
    early, early_seats = tiny(client)
    assert move(client, early["id"], early_seats[0]).status_code == 200
    assert client.post(f"/v1/games/{early['id']}/abort", headers=early_seats[1]).status_code == 200
    # Both have moved: too late.
    assert move(client, game["id"], seats[1]).status_code == 200
    before = versions(platform, game["id"])
    late = client.post(f"/v1/games/{game['id']}/abort", headers=seats[0])
    assert late.status_code == 409 and late.get_json()["code"] == "game_in_play"
    assert versions(platform, game["id"]) == before


def test_in_a_game_of_three_a_seat_that_resigns_is_out_and_the_last_one_in_wins(
    client: FlaskClient, platform: Platform
) -> None:
    answer = client.post(
        "/v1/games",
        json={"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}, {"name": "cleo"}]},
    )
    game = answer.get_json()
    seats = {s["seat"]: bearer(s["token"]) for s in game["seats"]}
    first = client.post(f"/v1/games/{game['id']}/resign", headers=seats[0])
    assert [e["type"] for e in first.get_json()["events"]] == ["Resigned"], "two others are still in: play goes on"
    view = client.get(f"/v1/games/{game['id']}").get_json()
    assert view["status"] == "active" and view["seats"][0]["left"] == "resignation"
    assert view["seats"][0]["bot"] == "greedy", "a bot makes the seat's moves so the rules can go on"
    assert 0 not in view["to_act"] or view["version"] > first.get_json()["version"], "the bot played at once"
    second = client.post(f"/v1/games/{game['id']}/resign", headers=seats[0])
    assert second.status_code == 409 and second.get_json()["code"] == "seat_left"
    # The seat's token no longer moves for it: the bot does.
    table = platform.handler.load(game["id"])
    mine = client.get(f"/v1/games/{game['id']}", headers=seats[0]).get_json()
    assert mine["legal_actions"] == []
    before = versions(platform, game["id"])
    legal = table.game.legal_actions(table.state, 0) if 0 in table.to_act() else [{"type": "pass"}]
    moved = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": legal[0] if legal else {"type": "pass"}, "expected_version": table.version},
        headers=seats[0],
    )
    assert moved.status_code == 409 and moved.get_json()["code"] == "seat_left", moved.get_json()
    assert versions(platform, game["id"]) == before
    last = client.post(f"/v1/games/{game['id']}/resign", headers=seats[1])
    assert [e["type"] for e in last.get_json()["events"]] == ["Resigned", "SeedRevealed"]
    outcome = client.get(f"/v1/games/{game['id']}").get_json()["outcome"]
    assert outcome["winners"] == [2] and outcome["left"] == [0, 1] and outcome["ending"] == "resignation"
    audited(platform, game["id"])


def test_a_seat_that_left_never_wins_by_the_rules(platform: Platform) -> None:
    from projections.lifecycle import final_outcome

    created = platform.handler.create_game(
        "fortress-royals", [{"name": "a"}, {"name": "b"}, {"name": "c"}], lifecycle={"on_leave": "out"}
    )
    platform.handler.resign(created.table.game_id, 0)
    table = platform.handler.load(created.table.game_id)
    ruled = final_outcome(table, {"winners": [0], "scores": [20, 11, 14], "reason": "target"}, "rules", 1, "human")
    assert ruled["winners"] == [2] and ruled["left"] == [0], "the best of those still in"


def test_a_fischer_clock_runs_from_the_logs_timestamps_and_its_flag_falls_at_the_deadline(
    client: FlaskClient, platform: Platform, clock: Clock
) -> None:
    game, seats = tiny(client, clock={"initial": 10, "increment": 2})
    assert game["clock"]["remaining_ms"] == [10_000, 10_000] and game["clock"]["running"] == [0]
    clock.tick(3)
    assert move(client, game["id"], seats[0]).status_code == 200
    view = client.get(f"/v1/games/{game['id']}").get_json()
    assert view["clock"]["remaining_ms"] == [9_000, 10_000], "10 - 3 + 2 for ann; bob's starts now"
    assert view["clock"]["running"] == [1]
    clock.tick(4)
    assert client.get(f"/v1/games/{game['id']}").get_json()["clock"]["left_ms"] == [9_000, 6_000]
    # Bob's flag: not before his deadline, at it.
    assert platform.handler.flag(game["id"], 1) == "time left"
    clock.tick(5.999)
    assert platform.handler.flag(game["id"], 1) == "time left"
    assert platform.handler.flag(game["id"], 0) == "moved on" or True
    clock.tick(0.001)
    assert platform.handler.flag(game["id"], 1) == "flag fell"
    over = client.get(f"/v1/games/{game['id']}").get_json()
    assert over["status"] == "finished" and over["outcome"]["ending"] == "time" and over["outcome"]["winners"] == [0]
    assert over["clock"]["running"] == [], "every clock stands once the game is over"
    assert platform.handler.flag(game["id"], 1) == "moved on", "once only"
    audited(platform, game["id"])


def test_a_move_after_the_deadline_is_refused_and_the_flag_falls_then(
    client: FlaskClient, platform: Platform, clock: Clock
) -> None:
    game, seats = tiny(client, clock={"initial": 5})
    clock.tick(5)
    late = move(client, game["id"], seats[0])
    assert late.status_code == 409 and late.get_json()["code"] == "out_of_time"
    over = client.get(f"/v1/games/{game['id']}").get_json()
    assert over["outcome"]["ending"] == "time" and over["outcome"]["winners"] == [1]
    events = client.get(f"/v1/games/{game['id']}/events").get_json()["events"]
    assert [e["type"] for e in events][-2:] == ["FlagFell", "SeedRevealed"] and "ActionTaken" not in [
        e["type"] for e in events
    ]


@pytest.mark.parametrize(
    ("extra", "detail"),
    [
        ({"clock": {"initial": -1}}, "clock"),
        ({"clock": {"initial": 0}}, "clock"),
        ({"clock": {"initial": 60, "increment": -2}}, "increment"),
        ({"clock": {"initial": 60}, "turn_seconds": 30}, "not both"),
        ({"clock": {"initial": "60"}}, "clock"),
        ({"on_leave": "vanish"}, "on_leave"),
        ({"abandon_after": 0}, "abandon_after"),
        ({"open_seconds": 5}, "open_seconds"),
    ],
)
def test_bad_lifecycle_settings_are_refused_and_create_nothing(
    client: FlaskClient, platform: Platform, extra: dict[str, Any], detail: str
) -> None:
    before = list(platform.store.game_ids())
    refused = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "a"}, {"name": "b"}], **extra})
    assert refused.status_code == 422 and detail in refused.get_json()["detail"], refused.get_json()
    assert list(platform.store.game_ids()) == before


def play_timeouts(platform: Platform, game_id: str, rounds: int) -> None:
    """The turn timer plays for whoever is to act, ``rounds`` times (as the worker's job)."""
    for _ in range(rounds):
        table = platform.handler.load(game_id)
        if table.status != "active":
            return
        seat = sorted(table.to_act())[0]
        assert play_bot(platform, game_id, seat, table.version, actor="timeout", level="greedy").startswith("played")
        platform.handler.abandoned(game_id, seat)


def test_two_absent_seats_end_by_abandonment_and_it_is_no_ones_win(client: FlaskClient, platform: Platform) -> None:
    # Two timer moves in a row abandon: three timer moves add at most 6 to the counter,
    # so the game cannot reach 10 and end by its rules first. (With the default three,
    # five moves of +2 would, and then the rules' ending stands: a timer move that wins
    # ends the game before abandonment is judged.)
    game, _ = tiny(client, turn_seconds=2, abandon_after=2, options={"start": 0})
    play_timeouts(platform, game["id"], 10)
    over = client.get(f"/v1/games/{game['id']}").get_json()
    outcome = over["outcome"]
    assert outcome["ending"] == "abandonment" and outcome["left"] == [0], "seat 0 hit two timer moves first"
    assert outcome["timeouts"] == [2, 1] and outcome["counts"] is False, "no winner moved by itself"
    audited(platform, game["id"])
    drain(platform)
    stats = client.get("/v1/stats").get_json()["kinds"]["tiny"]
    assert not stats.get("wins_by_level"), stats
    assert stats["endings"] == {"abandonment": 1} and stats["uncounted"] == 1


def test_a_seat_that_plays_beats_one_that_abandons_and_it_counts(client: FlaskClient, platform: Platform) -> None:
    game, seats = tiny(client, turn_seconds=2)
    assert move(client, game["id"], seats[0]).status_code == 200
    assert move(client, game["id"], seats[1]).status_code == 200  # bob plays once, then goes
    assert move(client, game["id"], seats[0]).status_code == 200
    for _ in range(3):
        play_timeouts(platform, game["id"], 1)  # bob is away
        if client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished":
            break
        assert move(client, game["id"], seats[0]).status_code == 200
    outcome = client.get(f"/v1/games/{game['id']}").get_json()["outcome"]
    if outcome["ending"] == "rules":  # the counter reached ten first: still ann's own result
        assert outcome["counts"] is True
        return
    assert outcome == {**outcome, "ending": "abandonment", "winners": [0], "left": [1], "counts": True}
    drain(platform)
    stats = client.get("/v1/stats").get_json()["kinds"]["tiny"]
    assert stats["wins_by_level"] == {"human": 1}


def test_a_rated_game_aborted_moves_no_rating_and_a_resigned_one_does(client: FlaskClient, platform: Platform) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    ratings = []
    for end in ("abort", "resign"):
        game = client.post(
            "/v1/games",
            json={"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "bob"}], "rated": True},
            headers=ann,
        ).get_json()
        assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob).status_code == 200
        if end == "resign":  # a resignation counts once every seat has moved
            assert move(client, game["id"], ann).status_code == 200
            assert move(client, game["id"], bob).status_code == 200
        assert client.post(f"/v1/games/{game['id']}/{end}", headers=bob).status_code == 200
        drain(platform)
        ratings.append(client.get("/v1/players/bob/ratings").get_json()["kinds"].get("tiny"))
    assert ratings[0] is None, "an abort rates no one"
    assert ratings[1] is not None and ratings[1]["games"] == 1 and ratings[1]["rating"] < 1500


def test_open_seats_expire_and_the_game_is_aborted(client: FlaskClient, platform: Platform, clock: Clock) -> None:
    opened = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"open": True}], "open_seconds": 600}
    ).get_json()
    assert opened["lifecycle"]["open_seconds"] == 600
    clock.tick(599)
    assert platform.handler.expire_open(opened["id"]) == "not yet"
    clock.tick(1)
    assert platform.handler.expire_open(opened["id"]) == "aborted"
    over = client.get(f"/v1/games/{opened['id']}").get_json()
    assert over["status"] == "finished" and over["outcome"]["ending"] == "abort"
    assert platform.handler.expire_open(opened["id"]) == "started or gone"
    audited(platform, opened["id"])


def test_an_older_game_without_lifecycle_settings_keeps_its_rules_outcome(platform: Platform) -> None:
    """A log from before lifecycles were recorded has none: its outcome is the rules' own."""
    created = platform.handler.create_game("tiny", [{"name": "a"}, {"name": "b"}])
    table = created.table
    assert table.lifecycle is not None
    rng = random.Random(1)
    while table.status == "active":
        seat = sorted(table.to_act())[0]
        action = rng.choice(table.game.legal_actions(table.state, seat))
        table = platform.handler.act(table.game_id, seat, action, table.version).table
    assert table.outcome is not None and table.outcome["ending"] == "rules" and table.outcome["counts"] is True


def test_the_audit_refuses_a_flag_that_fell_early_a_seat_that_left_twice_and_a_late_abort(
    client: FlaskClient, platform: Platform, clock: Clock
) -> None:
    """Forged endings, appended straight to the store with a valid chain: the audit judges
    each by the log alone (its timestamps, its seats, its moves)."""
    game, seats = tiny(client, clock={"initial": 60})
    clock.tick(59)
    platform.store.append(game["id"], [NewEvent("FlagFell", {"seat": 0}, 0, "system")], game["version"])
    report = audit_game(platform, game["id"])
    assert not report.ok and "before its clock ran out" in report.reason

    twice, twice_seats = tiny(client)
    assert move(client, twice["id"], twice_seats[0]).status_code == 200
    assert move(client, twice["id"], twice_seats[1]).status_code == 200
    head = versions(platform, twice["id"])
    forged = [NewEvent("Resigned", {"seat": 0}, 0, "human"), NewEvent("Resigned", {"seat": 0}, 0, "human")]
    platform.store.append(twice["id"], forged[:1], head)
    platform.store.append(twice["id"], forged[1:], head + 1)
    report = audit_game(platform, twice["id"])
    assert not report.ok and "left the game twice" in report.reason

    late, late_seats = tiny(client)
    assert move(client, late["id"], late_seats[0]).status_code == 200
    assert move(client, late["id"], late_seats[1]).status_code == 200
    platform.store.append(
        late["id"], [NewEvent("Aborted", {"by": 0, "reason": "x"}, 0, "human")], versions(platform, late["id"])
    )
    report = audit_game(platform, late["id"])
    assert not report.ok and "aborted after every seat had moved" in report.reason


def test_a_clock_is_the_logs_a_new_process_reads_the_same_time_left(
    client: FlaskClient, platform: Platform, clock: Clock
) -> None:
    """Nothing of a clock lives in a process: an API restarted (a new platform on the same
    Redis, no cache, no snapshot) reads the same clocks, and its flag check judges alike."""
    from core.config import Config
    from projections.snapshots import RedisSnapshots

    game, seats = tiny(client, clock={"initial": 20, "increment": 3})
    clock.tick(7)
    assert move(client, game["id"], seats[0]).status_code == 200
    clock.tick(2)
    RedisSnapshots(platform.redis, platform.config.prefix).redis.delete(
        RedisSnapshots(platform.redis, platform.config.prefix).key(game["id"])
    )
    fresh = Platform(Config(redis_url="fake", prefix=platform.config.prefix), platform.redis)
    fresh.store.now = platform.store.now  # type: ignore[method-assign]
    again = fresh.handler.load(game["id"])
    assert again.clock == platform.handler.load(game["id"]).clock
    assert again.clock is not None and again.clock.remaining == (16_000, 20_000)
    assert again.clock.left(1, fresh.handler.now_ms()) == 18_000
    clock.tick(18)
    assert fresh.handler.flag(game["id"], 1) == "flag fell"


def test_a_finished_game_can_be_neither_aborted_nor_resigned(client: FlaskClient, platform: Platform) -> None:
    game, seats = tiny(client)
    assert client.post(f"/v1/games/{game['id']}/resign", headers=seats[0]).status_code == 200
    before = versions(platform, game["id"])
    for path in ("abort", "resign"):
        for seat in (0, 1):
            refused = client.post(f"/v1/games/{game['id']}/{path}", headers=seats[seat])
            assert refused.status_code == 409 and refused.get_json()["code"] == "game_over"
    assert versions(platform, game["id"]) == before


def test_abandonment_counts_turns_the_timer_played_not_its_moves(client: FlaskClient, platform: Platform) -> None:
    """In Fortress a turn is three moves: the timer playing all three of an absent seat's
    turn is one turn played for it, so with ``abandon_after`` 2 the seat is still in after
    one such turn and has abandoned after the second (it was out after one turn when the
    timer's moves were counted)."""
    answer = client.post(
        "/v1/games",
        json={
            "kind": "fortress-siege",
            "players": [{"name": "ann"}, {"name": "bob"}],
            "turn_seconds": 30,
            "abandon_after": 2,
        },
    )
    assert answer.status_code == 201, answer.get_json()
    game_id = answer.get_json()["id"]
    absent = sorted(platform.handler.load(game_id).to_act())[0]

    def turn_of(seat: int, actor: str) -> int:
        moves = 0
        while (table := platform.handler.load(game_id)).status == "active" and seat in table.to_act():
            if actor == "timeout":
                played = play_bot(platform, game_id, seat, table.version, actor="timeout", level="greedy")
                assert played.startswith("played"), played
                platform.handler.abandoned(game_id, seat)
            else:
                action = table.game.legal_actions(table.state, seat)[0]
                platform.handler.act(game_id, seat, action, table.version)
            moves += 1
        return moves

    assert turn_of(absent, "timeout") >= 2, "a turn of several moves, all the timer's"
    table = platform.handler.load(game_id)
    assert table.status == "active" and table.seats[absent].left is None, "one turn played for it is not two"
    assert table.idle[absent] == 1
    turn_of(1 - absent, "human")
    assert platform.handler.load(game_id).idle[absent] == 1, "the other seat's turn leaves it as it was"
    turn_of(absent, "timeout")
    over = platform.handler.load(game_id)
    assert over.seats[absent].left == "abandonment" or (
        over.status == "finished" and over.outcome is not None and over.outcome["ending"] == "abandonment"
    ), (over.status, over.outcome, over.idle)
    abandoned = [e for e in platform.store.read(game_id) if e.type == "Abandoned"]
    assert len(abandoned) == 1 and abandoned[0].data == {"seat": absent, "timeouts": 2}
