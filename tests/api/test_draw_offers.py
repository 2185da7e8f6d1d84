"""Agreed endings (``core.lifecycle``): a seat offers to end the game with a shared result,
every other seat still in accepts, and the game ends, rated as a draw; a decline or a
move withdraws the offer; out of turn, twice, by a stranger or at a bot's table the offer
is refused and nothing is appended; the audit refuses an agreement nobody made."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.tooling import audit_game
from events.envelope import NewEvent
from projections.inbox import Inbox
from stores.platform import Platform
from tests.api.conftest import bearer
from tests.api.test_lifecycle import audited, move, tiny, versions
from tests.api.test_players import drain, register


def offer(client: FlaskClient, game_id: str, headers: dict[str, str]) -> Any:
    return client.post(f"/v1/games/{game_id}/draw-offers", headers=headers)


def answer(client: FlaskClient, game_id: str, offer_id: str, reply: str, headers: dict[str, str]) -> Any:
    return client.post(f"/v1/games/{game_id}/draw-offers/{offer_id}/{reply}", headers=headers)


def pending(client: FlaskClient, game_id: str, headers: dict[str, str]) -> Any:
    return client.get(f"/v1/games/{game_id}", headers=headers).get_json()["draw_offer"]


def test_an_offer_accepted_ends_a_rated_game_as_a_draw_for_everyone_told(
    client: FlaskClient, platform: Platform
) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], "rated": True}, headers=ann_key
    ).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    assert move(client, game["id"], ann_key).status_code == 200
    assert move(client, game["id"], bob_key).status_code == 200  # a result counts once both have moved
    made = offer(client, game["id"], ann_key)
    assert made.status_code == 200, made.get_json()
    offer_id = next(e["data"]["id"] for e in made.get_json()["events"] if e["type"] == "DrawOffered")
    shown = pending(client, game["id"], bob_key)
    assert shown == {"id": offer_id, "by": 0, "accepted": [0]} and pending(client, game["id"], {}) == shown
    drain(platform)
    told = [
        json.loads(f[b"n"])
        for _, f in platform.redis.xrange(Inbox(platform.redis, platform.config.prefix).key(bob["id"]))
    ]
    assert {"type": "draw_offered", "offer": offer_id, "by": 0}.items() <= next(
        n for n in told if n["type"] == "draw_offered"
    ).items(), "bob hears the offer on his stream"
    accepted = answer(client, game["id"], offer_id, "accept", bob_key)
    assert accepted.status_code == 200, accepted.get_json()
    over = client.get(f"/v1/games/{game['id']}").get_json()
    assert over["status"] == "finished" and over["draw_offer"] is None
    assert over["outcome"]["ending"] == "agreement" and over["outcome"]["winners"] == [0, 1]
    assert over["outcome"]["counts"] is True
    audited(platform, game["id"])
    drain(platform)
    board = client.get("/v1/leaderboards/tiny").get_json()["players"]
    assert {row["name"] for row in board} == {"ann", "bob"} and all(row["games"] == 1 for row in board)
    assert [round(row["rating"]) for row in board] == [1500, 1500], "a draw between equals moves nobody"
    assert ann["id"] != bob["id"]


def test_a_move_or_a_decline_withdraws_an_offer_and_the_maker_may_withdraw_it(
    client: FlaskClient, platform: Platform
) -> None:
    game, seats = tiny(client)
    assert move(client, game["id"], seats[0]).status_code == 200
    first = offer(client, game["id"], seats[1]).get_json()
    first_id = pending(client, game["id"], {})["id"]
    assert move(client, game["id"], seats[1]).status_code == 200, "the seat to act moves on"
    assert pending(client, game["id"], {}) is None
    assert answer(client, game["id"], first_id, "accept", seats[0]).status_code == 404
    assert first["version"]
    offer(client, game["id"], seats[0])
    second = pending(client, game["id"], {})["id"]
    assert answer(client, game["id"], second, "decline", seats[1]).status_code == 200
    assert pending(client, game["id"], {}) is None
    offer(client, game["id"], seats[0])
    third = pending(client, game["id"], {})["id"]
    assert answer(client, game["id"], third, "decline", seats[0]).status_code == 200, "the maker withdraws"
    assert pending(client, game["id"], {}) is None
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "active"
    audited(platform, game["id"])


def test_offers_out_of_turn_are_refused_and_append_nothing(client: FlaskClient, platform: Platform) -> None:
    game, seats = tiny(client)
    head = versions(platform, game["id"])
    _, stranger = register(client, "cyd")
    made = offer(client, game["id"], seats[0])
    offer_id = pending(client, game["id"], {})["id"]
    head = versions(platform, game["id"])
    for response, status, code in [
        (offer(client, game["id"], seats[1]), 409, "draw_pending"),
        (answer(client, game["id"], offer_id, "accept", seats[0]), 422, "invalid_request"),
        (answer(client, game["id"], "no-such-offer", "accept", seats[1]), 404, "not_found"),
        (answer(client, game["id"], offer_id, "accept", {}), 401, "unauthorized"),
        (answer(client, game["id"], offer_id, "accept", stranger), 403, "not_your_seat"),
        (answer(client, game["id"], offer_id, "accept", bearer("x" * 43)), 401, "unauthorized"),
        (client.post(f"/v1/games/{game['id']}/draw-offers/{offer_id}/maybe", headers=seats[1]), 404, "not_found"),
        (offer(client, "no-such-game", {}), 404, "not_found"),
    ]:
        assert response.status_code == status and response.get_json()["code"] == code, response.get_json()
        assert versions(platform, game["id"]) == head, "a refusal appends nothing"
    assert made.status_code == 200
    # The server's bots play on: a table with one still in refuses the offer.
    with_bot = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"bot": "random"}]})
    human = bearer(next(s["token"] for s in with_bot.get_json()["seats"] if s.get("token")))
    refused = offer(client, with_bot.get_json()["id"], human)
    assert refused.status_code == 422 and "bots" in refused.get_json()["detail"]
    # Over: no offer.
    answer(client, game["id"], offer_id, "accept", seats[1])
    assert offer(client, game["id"], seats[0]).get_json()["code"] == "game_over"


def test_the_audit_refuses_an_agreement_nobody_offered_or_not_everyone_accepted(
    client: FlaskClient, platform: Platform
) -> None:
    game, seats = tiny(client)
    assert move(client, game["id"], seats[0]).status_code == 200
    platform.store.append(game["id"], [NewEvent("DrawAgreed", {"id": "forged"})], versions(platform, game["id"]))
    report = audit_game(platform, game["id"])
    assert not report.ok and "no seat offered" in report.reason

    half, half_seats = tiny(client)
    offer(client, half["id"], half_seats[0])
    offer_id = pending(client, half["id"], {})["id"]
    platform.store.append(half["id"], [NewEvent("DrawAgreed", {"id": offer_id})], versions(platform, half["id"]))
    report = audit_game(platform, half["id"])
    assert not report.ok and "not every seat still in accepted" in report.reason


# Whether each kind's rules can end with a result the seats share (its RULINGS.md, "Agreed
# endings"), and the options a game is made with.
KINDS = [
    # "At the end of a player's turn, when they have no more forts": both sides may lose at once.
    ("dragoborne", {}, True),
    # Scores decide; tied players share the win (no tie-break in the rulebook).
    ("dragon-fortress", {}, True),
    # "the highest score if more than one player reaches the target score": ties share.
    ("fortress-royals", {}, True),
    # "The game ends when all but one of the players' Fortresses have been depleted".
    ("fortress-siege", {}, False),
    # Only the player whose own turn ends with no cards left wins ...
    ("stomping-grounds", {}, False),
    # ... unless a turn limit ends the game, the fewest cards left winning, ties sharing.
    ("stomping-grounds", {"turn_limit": 10}, True),
]


@pytest.mark.parametrize(("kind", "options", "shared"), KINDS)
def test_an_offer_is_refused_where_the_kind_s_rules_know_no_shared_result(
    client: FlaskClient, platform: Platform, kind: str, options: dict[str, Any], shared: bool
) -> None:
    players = [{"name": name} for name in ("ann", "bob", "cyd")[: 3 if kind == "dragon-fortress" else 2]]
    created = client.post("/v1/games", json={"kind": kind, "players": players, "options": options})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    seats = {s["seat"]: bearer(s["token"]) for s in game["seats"]}
    head = versions(platform, game["id"])
    made = offer(client, game["id"], seats[0])
    if not shared:
        problem = made.get_json()
        assert made.status_code == 422 and problem["code"] == "no_shared_result", problem
        assert kind in problem["detail"] and "shared result" in problem["detail"]
        assert versions(platform, game["id"]) == head and pending(client, game["id"], {}) is None
        return
    assert made.status_code == 200, made.get_json()
    offer_id = pending(client, game["id"], {})["id"]
    for seat in range(1, len(players)):
        assert answer(client, game["id"], offer_id, "accept", seats[seat]).status_code == 200
    over = client.get(f"/v1/games/{game['id']}").get_json()
    assert over["status"] == "finished" and over["outcome"]["ending"] == "agreement"
    assert over["outcome"]["winners"] == list(range(len(players))) and over["outcome"]["counts"] is False
    audited(platform, game["id"])


def test_an_agreement_before_every_seat_has_moved_moves_no_rating(client: FlaskClient, platform: Platform) -> None:
    """As for a resignation: a result nobody played for is no result."""
    _, ann_key = register(client, "ann")
    _, bob_key = register(client, "bob")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], "rated": True}, headers=ann_key
    ).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    assert move(client, game["id"], ann_key).status_code == 200  # bob never moves
    offer(client, game["id"], ann_key)
    assert answer(client, game["id"], pending(client, game["id"], {})["id"], "accept", bob_key).status_code == 200
    outcome = client.get(f"/v1/games/{game['id']}").get_json()["outcome"]
    assert outcome["ending"] == "agreement" and outcome["counts"] is False
    drain(platform)
    assert client.get("/v1/leaderboards/tiny").get_json()["players"] == []


def test_in_a_game_of_three_the_seats_still_in_share_the_result_and_the_one_that_left_loses(
    client: FlaskClient, platform: Platform
) -> None:
    keys = {name: register(client, name)[1] for name in ("ann", "bob", "cyd")}
    game = client.post(
        "/v1/games",
        json={"kind": "fortress-royals", "players": [{"me": True}, {"open": True}, {"open": True}], "rated": True},
        headers=keys["ann"],
    ).get_json()
    for seat, name in ((1, "bob"), (2, "cyd")):
        joined = client.post(f"/v1/games/{game['id']}/seats/{seat}/join", json={}, headers=keys[name])
        assert joined.status_code == 200, joined.get_json()
    by_seat = {0: keys["ann"], 1: keys["bob"], 2: keys["cyd"]}
    while len(platform.handler.load(game["id"]).acted) < 3:  # a result counts once every seat has moved
        seat = client.get(f"/v1/games/{game['id']}").get_json()["to_act"][0]
        view = client.get(f"/v1/games/{game['id']}", headers=by_seat[seat]).get_json()
        sent = {"action": view["legal_actions"][0], "expected_version": view["version"]}
        assert client.post(f"/v1/games/{game['id']}/actions", json=sent, headers=by_seat[seat]).status_code == 200
    assert client.post(f"/v1/games/{game['id']}/resign", headers=keys["cyd"]).status_code == 200
    head = versions(platform, game["id"])
    gone = offer(client, game["id"], keys["cyd"])
    assert gone.status_code == 409 and gone.get_json()["code"] == "seat_left" and versions(platform, game["id"]) == head
    assert offer(client, game["id"], keys["bob"]).status_code == 200, "the bot playing for cyd is not asked"
    offer_id = pending(client, game["id"], {})["id"]
    mine = answer(client, game["id"], offer_id, "accept", keys["bob"])
    assert mine.status_code == 422 and mine.get_json()["code"] == "invalid_request", "one's own offer"
    ended = answer(client, game["id"], offer_id, "accept", keys["ann"])
    assert [e["type"] for e in ended.get_json()["events"]] == ["DrawAnswered", "DrawAgreed", "SeedRevealed"]
    outcome = client.get(f"/v1/games/{game['id']}").get_json()["outcome"]
    assert outcome["winners"] == [0, 1] and outcome["left"] == [2] and outcome["counts"] is True
    audited(platform, game["id"])
    drain(platform)
    rating = {
        row["name"]: row["rating"] for row in client.get("/v1/leaderboards/fortress-royals").get_json()["players"]
    }
    assert rating["ann"] == pytest.approx(rating["bob"]), "a draw between the two still in"
    assert rating["ann"] > 1500 > rating["cyd"], "each of them beat the seat that left"


def test_an_offer_before_the_game_starts_or_by_a_stranger_or_withdrawn_is_refused(
    client: FlaskClient, platform: Platform
) -> None:
    waiting = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"open": True}]}).get_json()
    ann = bearer(next(s["token"] for s in waiting["seats"] if s.get("token")))
    early = offer(client, waiting["id"], ann)
    assert early.status_code == 409 and early.get_json()["code"] == "game_not_started"
    game, seats = tiny(client)
    _, stranger = register(client, "eve")
    head = versions(platform, game["id"])
    for response, status, code in [
        (offer(client, game["id"], stranger), 403, "not_your_seat"),
        (offer(client, game["id"], {}), 401, "unauthorized"),
    ]:
        assert response.status_code == status and response.get_json()["code"] == code, response.get_json()
    assert versions(platform, game["id"]) == head
    offer(client, game["id"], seats[0])
    offer_id = pending(client, game["id"], {})["id"]
    assert answer(client, game["id"], offer_id, "decline", seats[0]).status_code == 200, "the maker withdraws"
    head = versions(platform, game["id"])
    late = answer(client, game["id"], offer_id, "accept", seats[1])
    assert late.status_code == 404 and late.get_json()["code"] == "not_found"
    assert versions(platform, game["id"]) == head
