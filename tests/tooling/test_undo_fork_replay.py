"""Undo with consent and never across a reveal; forks that reveal nothing; views at
past versions; replays rendered as jobs."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient

from core.errors import CommandError
from games import registry
from games.base import GameEvent
from games.rng import derive_rng
from projections.audit import audit_entries
from projections.table import PLATFORM_EVENTS
from service.app import create_app
from stores.platform import Platform
from tests.games.contract import assert_no_secret
from tests.tooling.conftest import humans, play, whole_version

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def error_of(call) -> CommandError:  # type: ignore[no-untyped-def]
    with pytest.raises(CommandError) as caught:
        call()
    return caught.value


def added(platform: Platform, table, seat: int, amount: int = 1):  # type: ignore[no-untyped-def]
    return platform.handler.act(table.game_id, seat, {"type": "add", "amount": amount}, table.version).table


def test_undo_needs_every_other_human_and_then_restores_the_state(platform: Platform) -> None:
    h = platform.handler
    start = h.create_game("tiny", humans(2)).table
    after_one = added(platform, start, 0, 2)
    after_two = added(platform, after_one, 1, 1)
    asked = h.request_undo(start.game_id, 1, after_one.version, NOW, 60).table
    assert asked.undo is not None and asked.undo.accepted == {1}
    assert asked.state == after_two.state, "nothing changes before the others agree"
    done = h.answer_undo(start.game_id, 0, asked.undo.id, True, NOW).table
    assert done.undo is None
    assert done.state == after_one.state and done.version > after_two.version
    events = [e.type for e in h.store.read(start.game_id)]
    assert events[-3:] == ["UndoRequested", "UndoAnswered", "Rewound"]
    assert audit_entries(start.game_id, h.store.read_raw(start.game_id), h.vault.seed(start.game_id)).ok


def test_a_declined_or_expired_request_changes_nothing(platform: Platform) -> None:
    h = platform.handler
    table = added(platform, h.create_game("tiny", humans(2)).table, 0)
    table = added(platform, table, 1)
    asked = h.request_undo(table.game_id, 1, table.version - 2, NOW, 60).table
    assert asked.undo is not None
    declined = h.answer_undo(table.game_id, 0, asked.undo.id, False, NOW).table
    assert declined.undo is None and declined.state == table.state
    again = h.request_undo(table.game_id, 1, table.version - 2, NOW, 60).table
    late = NOW + timedelta(seconds=61)
    assert again.undo is not None
    request_id = again.undo.id
    assert error_of(lambda: h.answer_undo(table.game_id, 0, request_id, True, late)).code == "undo_expired"


def test_an_action_clears_a_pending_request(platform: Platform) -> None:
    h = platform.handler
    table = added(platform, h.create_game("tiny", humans(2)).table, 0)
    asked = h.request_undo(table.game_id, 0, table.version - 2, NOW, 60).table
    assert asked.undo is not None
    request_id = asked.undo.id
    moved = added(platform, asked, 1)
    assert moved.undo is None
    assert error_of(lambda: h.answer_undo(table.game_id, 1, request_id, True, NOW)).code == "not_found"


def test_bots_agree_at_once(platform: Platform) -> None:
    h = platform.handler
    for _ in range(50):
        table = h.create_game("tiny", [{"name": "ann"}, {"bot": "random"}]).table
        before = table.version
        table = h.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version).table
        if h.store.read(table.game_id)[-1].type == "Added":  # the bot added too: nothing irreversible
            break
    else:
        raise AssertionError("the random bot drew in 50 games running")
    undone = h.request_undo(table.game_id, 0, before, NOW, 60).table
    assert [e.type for e in h.store.read(table.game_id)][-2:] == ["UndoRequested", "Rewound"]
    then = h.tables.at(table.game_id, before)
    assert then is not None and undone.state == then.state


def test_undo_never_crosses_a_draw(platform: Platform) -> None:
    h = platform.handler
    table = h.create_game("tiny", humans(2)).table
    start = table.version
    table = h.act(table.game_id, 0, {"type": "draw"}, table.version).table
    table = added(platform, table, 1)
    refused = error_of(lambda: h.request_undo(table.game_id, 1, start, NOW, 60))
    assert refused.code == "irreversible" and refused.extra["irreversible_type"] == "CardDrawn"
    assert refused.extra["irreversible_version"] == start + 2
    assert error_of(lambda: h.request_undo(table.game_id, 1, 1, NOW, 60)).code == "irreversible"


def test_undo_only_to_a_command_boundary_of_a_game_in_play(platform: Platform) -> None:
    h = platform.handler
    table = added(platform, h.create_game("tiny", humans(2)).table, 0)
    assert error_of(lambda: h.request_undo(table.game_id, 0, table.version - 1, NOW, 60)).code == "invalid_request"
    assert error_of(lambda: h.request_undo(table.game_id, 0, table.version, NOW, 60)).code == "invalid_request"


def test_a_finished_game_forks_exactly(platform: Platform) -> None:
    h = platform.handler
    table = play(platform, h.create_game("tiny", humans(2)).table, random.Random(3))
    at = whole_version(platform, table.game_id, table.version - 6)
    fork = h.fork(table.game_id, at, None).table
    then = h.tables.at(table.game_id, at)
    assert then is not None and fork.state == then.state
    assert fork.forked_from == {"game": table.game_id, "version": at, "hash": h.store.read(table.game_id)[at - 1].hash}
    assert fork.seed_commitment != table.seed_commitment and fork.fair_deal is False
    assert audit_entries(fork.game_id, h.store.read_raw(fork.game_id), h.vault.seed(fork.game_id)).ok


def test_a_fork_starts_only_between_two_commands(platform: Platform) -> None:
    """Versions inside a command (the deal, an action's effects) are refused; every
    version just before an action, and only those among the game's events, forks."""
    h = platform.handler
    table = play(platform, h.create_game("tiny", humans(2)).table, random.Random(3))
    log = h.store.read(table.game_id)
    following = {e.version - 1: e.type for e in log}
    for e in log[:-1]:
        then = h.tables.at(table.game_id, e.version)
        if then is None or then.state is None:
            with pytest.raises(CommandError, match="before the deal"):
                h.fork(table.game_id, e.version, None)
            continue
        starts = following[e.version] in ("ActionTaken", "SeatTaken", "UndoRequested", "UndoAnswered", "Rewound")
        if starts:
            assert h.fork(table.game_id, e.version, None).table.version == 1
        else:
            with pytest.raises(CommandError, match="middle of a command"):
                h.fork(table.game_id, e.version, None)
    assert any(t == "ActionTaken" for t in following.values())
    assert any(t not in PLATFORM_EVENTS for t in following.values()), "the log has a command of several events"


KINDS = [k for k in registry.keys() if k != "tiny"]


@pytest.mark.parametrize("kind", ["tiny", *KINDS])
def test_a_fork_of_a_game_in_play_reveals_nothing_the_seat_had_not_seen(platform: Platform, kind: str) -> None:
    game = registry.get(kind)
    assert game is not None
    h = platform.handler
    rng = random.Random(5)
    forked = 0
    for trial, actions in enumerate((2, 12, 26)):
        table = play(platform, h.create_game(kind, humans(game.min_players)).table, rng, actions)
        if table.status != "active":
            continue
        forked += 1
        seat = trial % len(table.seats)
        original_secrets = game.secrets(table.state, seat)
        fork = h.fork(table.game_id, table.version, seat)
        assert game.view(fork.table.state, seat) == game.view(table.state, seat)
        app = create_app(platform.config, platform)
        client = app.test_client()
        for fork_seat, token in fork.tokens.items():
            headers = {"Authorization": f"Bearer {token}"}
            for path in ("", "/events?limit=1000", "/replay", f"/history/{fork.table.version}"):
                body = client.get(f"/v1/games/{fork.table.game_id}{path}", headers=headers).get_json()
                if fork_seat == seat:
                    assert_no_secret(body, original_secrets, f"fork {path} for the forking seat")
        first = h.store.read(fork.table.game_id)[0]
        seen = client.get(f"/v1/games/{fork.table.game_id}/events").get_json()["events"][0]
        assert "state" in first.data and "state" not in seen["data"]
        # The re-deal's draws are recorded with the fork (hidden from every seat until it ends).
        assert first.data["draws"] and "draws" not in seen["data"]
        # Had every card hidden from the seat lain elsewhere, the fork would be the same: it is
        # re-dealt from the seat's information set and the fork's own seed, as the fork's
        # first command (draws labelled v1/0, v1/1, ...), and these are the draws it records.
        elsewhere = game.determinize(table.state, seat, random.Random(f"elsewhere-{trial}"))
        assert game.view(elsewhere, seat) == game.view(table.state, seat)
        fork_seed = platform.vault.seed(fork.table.game_id)
        again = derive_rng(fork_seed, 1)
        assert game.determinize(elsewhere, seat, again) == fork.table.state
        assert again.draws == first.data["draws"]
    assert forked, "no game was still in play to fork"


def test_a_spectator_cannot_fork_a_game_in_play(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", humans(2)).table
    assert error_of(lambda: platform.handler.fork(table.game_id, table.version, None)).code == "not_your_seat"


def api(platform: Platform) -> FlaskClient:
    return create_app(platform.config, platform).test_client()


def test_history_shows_the_callers_view_then_and_every_view_once_over(platform: Platform) -> None:
    client = api(platform)
    created = client.post("/v1/games", json={"kind": "tiny", "players": humans(2), "options": {"start": 7}}).get_json()
    ann, bob = (s["token"] for s in created["seats"])
    gid = created["id"]
    client.post(
        f"/v1/games/{gid}/actions",
        json={"action": {"type": "draw"}, "expected_version": 2},
        headers={"Authorization": f"Bearer {ann}"},
    )
    then = client.get(f"/v1/games/{gid}/history/2", headers={"Authorization": f"Bearer {bob}"}).get_json()
    assert then["view"]["deck"] == 4 and "views" not in then
    now = client.get(f"/v1/games/{gid}").get_json()["version"]
    client.post(
        f"/v1/games/{gid}/actions",
        json={"action": {"type": "add", "amount": 2}, "expected_version": now},
        headers={"Authorization": f"Bearer {bob}"},
    )
    over = client.get(f"/v1/games/{gid}").get_json()
    if over["status"] != "finished":
        v = over["version"]
        client.post(
            f"/v1/games/{gid}/actions",
            json={"action": {"type": "add", "amount": 2}, "expected_version": v},
            headers={"Authorization": f"Bearer {ann}"},
        )
    after = client.get(f"/v1/games/{gid}/history/2").get_json()
    assert len(after["views"]) == 2 and all(isinstance(v["hands"][i], list) for i, v in enumerate(after["views"]))
    assert client.get(f"/v1/games/{gid}/history/999").status_code == 404


def test_a_replay_job_renders_every_version_with_every_view(platform: Platform) -> None:
    client = api(platform)
    table = play(platform, platform.handler.create_game("tiny", humans(2)).table, random.Random(8))
    queued = client.post(f"/v1/games/{table.game_id}/replays")
    assert queued.status_code == 202
    job = client.get(queued.headers["Location"]).get_json()
    assert job["status"] == "finished" and job["progress"]["done"] == job["progress"]["total"] == table.version
    lines = client.get(job["result"]).get_data(as_text=True).splitlines()
    header, *steps = (json.loads(line) for line in lines)
    assert header["seed"] is not None and len(steps) == table.version
    assert [s["version"] for s in steps] == list(range(1, table.version + 1))
    assert set(steps[-1]["views"]) == {"None", "0", "1"}
    replay = client.get(f"/v1/games/{table.game_id}/replay").get_json()
    assert replay["seed"] == header["seed"] and len(replay["events"]) == table.version


def test_an_audit_job_reports_through_the_api(platform: Platform) -> None:
    client = api(platform)
    table = play(platform, platform.handler.create_game("tiny", humans(2)).table, random.Random(9))
    job = client.get(client.post(f"/v1/games/{table.game_id}/audits").headers["Location"]).get_json()
    report = client.get(job["result"]).get_json()
    assert report["ok"] is True and report["first_bad_version"] is None


@pytest.mark.parametrize("kind", KINDS)
def test_undo_in_every_kind_succeeds_exactly_when_no_irreversible_event_lies_between(
    platform: Platform, kind: str
) -> None:
    game = registry.get(kind)
    assert game is not None
    h = platform.handler
    rng = random.Random(11)
    table = h.create_game(kind, humans(game.min_players)).table
    undone = refused = 0
    for _ in range(120):
        if table.status != "active":
            break
        before = table
        seat = min(table.to_act())
        table = h.act(table.game_id, seat, rng.choice(game.legal_actions(table.state, seat)), table.version).table
        if table.status != "active" or rng.random() < 0.6:
            continue  # most actions stand, so the game moves on
        crossed = [
            e
            for e in h.store.read(table.game_id, after=before.version)
            if game.irreversible(GameEvent(e.type, e.data, e.seat))
        ]
        asker = (seat + 1) % len(table.seats)
        try:
            asked = h.request_undo(table.game_id, asker, before.version, NOW, 60).table
        except CommandError as error:
            assert error.code == "irreversible" and crossed, error.detail
            assert error.extra["irreversible_version"] == crossed[0].version
            refused += 1
            continue
        assert not crossed
        for other in range(len(table.seats)):
            if other != asker and asked.undo is not None:
                asked = h.answer_undo(table.game_id, other, asked.undo.id, True, NOW).table
        assert asked.state == before.state, "the undo restores the state before the action"
        table = asked
        undone += 1
    print(f"{kind}: {undone} undos done, {refused} refused as irreversible")
    assert audit_entries(table.game_id, h.store.read_raw(table.game_id), h.vault.seed(table.game_id)).ok


def test_undo_over_the_api_waits_for_the_other_seat_and_is_refused_across_a_draw(platform: Platform) -> None:
    client = api(platform)
    created = client.post("/v1/games", json={"kind": "tiny", "players": humans(2)}).get_json()
    gid = created["id"]
    ann, bob = ({"Authorization": f"Bearer {s['token']}"} for s in created["seats"])

    def act(who: dict[str, str], action: dict) -> dict:  # type: ignore[type-arg]
        version = client.get(f"/v1/games/{gid}", headers=who).get_json()["version"]
        answer = client.post(
            f"/v1/games/{gid}/actions", json={"action": action, "expected_version": version}, headers=who
        )
        assert answer.status_code == 200, answer.get_json()
        return client.get(f"/v1/games/{gid}", headers=who).get_json()

    start = client.get(f"/v1/games/{gid}", headers=ann).get_json()
    act(ann, {"type": "add", "amount": 2})
    # Given ann added 2, when bob asks to undo it, then nothing changes until ann answers.
    asked = client.post(f"/v1/games/{gid}/undo-requests", json={"to_version": start["version"]}, headers=bob)
    assert asked.status_code == 201
    pending = asked.get_json()["pending"]
    assert pending["by"] == 1 and pending["accepted"] == [1] and pending["to_version"] == start["version"]
    assert asked.get_json()["game"]["view"]["count"] == 2
    declined = client.post(f"/v1/games/{gid}/undo-requests/{pending['id']}/decline", headers=ann).get_json()
    assert declined["pending"] is None and declined["game"]["view"]["count"] == 2
    again = client.post(f"/v1/games/{gid}/undo-requests", json={"to_version": start["version"]}, headers=bob)
    request_id = again.get_json()["pending"]["id"]
    accepted = client.post(f"/v1/games/{gid}/undo-requests/{request_id}/accept", headers=ann).get_json()
    assert accepted["pending"] is None and accepted["game"]["view"] == start["view"]
    assert platform.store.read(gid)[-1].type == "Rewound"
    # Given ann then draws (a reveal to her), when bob asks to undo past the draw,
    # then the answer is 409 irreversible naming the draw.
    drawn_at = act(ann, {"type": "draw"})["version"]
    act(bob, {"type": "add", "amount": 1})
    refused = client.post(f"/v1/games/{gid}/undo-requests", json={"to_version": drawn_at - 2}, headers=bob)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "irreversible" and problem["irreversible_type"] == "CardDrawn"
    assert problem["irreversible_version"] == drawn_at and "CardDrawn" in problem["detail"]


def test_a_fork_can_seat_bots_and_they_play_it(platform: Platform) -> None:
    h = platform.handler
    table = play(platform, h.create_game("tiny", humans(2)).table, random.Random(12), 2)
    assert table.status == "active" and min(table.to_act()) == 0
    fork = h.fork(table.game_id, table.version, 0, [{"name": "ann"}, {"bot": "greedy"}])
    assert set(fork.tokens) == {0}
    after = h.act(fork.table.game_id, 0, {"type": "add", "amount": 1}, fork.table.version).table
    bot_turns = [e for e in h.store.read(fork.table.game_id) if e.type == "ActionTaken" and e.seat == 1]
    assert bot_turns and bot_turns[0].actor == "bot"
    assert after.status == "finished" or 0 in platform.handler.load(fork.table.game_id).to_act()


def _forged(platform: Platform, fork_id: str, change) -> str:  # type: ignore[no-untyped-def]
    """The fork's log with its ForkedFrom changed and the chain rebuilt, stored as a new game."""
    from tests.tooling.test_audit import rechain

    forged_id = f"{fork_id}-{change.__name__}"
    seed = platform.vault.seed(fork_id)
    platform.store.import_raw(forged_id, rechain(platform.store.read_raw(fork_id), 1, change, seed))
    platform.vault.set_seed(forged_id, platform.vault.seed(fork_id))
    return forged_id


def test_an_audit_checks_where_a_fork_comes_from(platform: Platform) -> None:
    from core.tooling import audit_game

    h = platform.handler
    finished = play(platform, h.create_game("tiny", humans(2)).table, random.Random(3))
    exact = h.fork(
        finished.game_id, whole_version(platform, finished.game_id, finished.version - 6), None
    ).table.game_id
    in_play = play(platform, h.create_game("tiny", humans(2)).table, random.Random(4), 2)
    redealt = h.fork(in_play.game_id, in_play.version, 0).table.game_id
    for fork_id in (exact, redealt):
        report = audit_game(platform, fork_id)
        assert report.ok and report.checks["fork"].startswith("ok"), report.as_json()

    # Given a fork whose ForkedFrom names another hash, or (exact) another state, or (re-dealt)
    # shows the forking seat something else, when audited, then it fails at version 1.
    def other_hash(raw: dict) -> dict:
        return {**raw, "data": {**raw["data"], "hash": "f" * 64}}

    def other_count(raw: dict) -> dict:
        state = json.loads(json.dumps(raw["data"]["state"]).replace('"count": ', '"count": 1', 1))
        return {**raw, "data": {**raw["data"], "state": state}}

    for fork_id, change, words in (
        (exact, other_hash, "hash"),
        (exact, other_count, "state"),
        (redealt, other_count, "saw"),
    ):
        report = audit_game(platform, _forged(platform, fork_id, change))
        assert not report.ok and report.first_bad_version == 1 and words in (report.reason or ""), report.as_json()
