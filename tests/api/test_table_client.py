"""What the web client's table relies on, checked through the API: the
undo offered to a seat is exactly what an undo request would do (tried against the
server's own answer at every move of random games of every kind), and each kind's card
faces and how-to-play text are served. Every hand shown once a game is over:
tests/games/test_final_view.py."""

from __future__ import annotations

import random

import pytest
from flask.testing import FlaskClient

from games import registry
from tests.api.conftest import bearer

KINDS = registry.keys()


def players_for(kind: str) -> int:
    game = registry.get(kind)
    assert game is not None
    return game.min_players


def new_game(client: FlaskClient, kind: str, seed: str) -> tuple[str, dict[int, dict[str, str]]]:
    players = [{"name": f"p{i}"} for i in range(players_for(kind))]
    answer = client.post("/v1/games", json={"kind": kind, "players": players, "seed": seed})
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    return game["id"], {s["seat"]: bearer(s["token"]) for s in game["seats"]}


def own_moves(client: FlaskClient, game_id: str, headers: dict[str, str], seat: int) -> list[int]:
    events = client.get(f"/v1/games/{game_id}/events?limit=1000", headers=headers).get_json()["events"]
    return [e["version"] for e in events if e["type"] == "ActionTaken" and e["seat"] == seat]


@pytest.mark.parametrize("kind", KINDS)
def test_undo_is_offered_exactly_when_a_request_would_succeed(client: FlaskClient, kind: str) -> None:
    rng = random.Random(kind)
    game_id, seats = new_game(client, kind, f"undo-offer-{kind}")
    offered = refused = 0
    for _ in range(60):
        game = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()
        if game["status"] != "active":
            break
        for seat, headers in seats.items():
            offer = client.get(f"/v1/games/{game_id}", headers=headers).get_json()["undo_offer"]
            if offer["to_version"] is not None:
                asked = client.post(
                    f"/v1/games/{game_id}/undo-requests", json={"to_version": offer["to_version"]}, headers=headers
                )
                assert asked.status_code == 201, (offer, asked.get_json())
                pending = asked.get_json()["pending"]
                other = seats[(seat + 1) % len(seats)]
                declined = client.post(f"/v1/games/{game_id}/undo-requests/{pending['id']}/decline", headers=other)
                assert declined.status_code == 200, declined.get_json()
                offered += 1
                continue
            assert offer["reason"], offer
            # Not offered: asking to undo any move of this seat's is refused, and appends nothing.
            for version in own_moves(client, game_id, headers, seat)[-3:]:
                before = client.get(f"/v1/games/{game_id}").get_json()["version"]
                asked = client.post(
                    f"/v1/games/{game_id}/undo-requests", json={"to_version": version - 1}, headers=headers
                )
                assert asked.status_code in (409, 422), (offer, version, asked.get_json())
                assert client.get(f"/v1/games/{game_id}").get_json()["version"] == before
                refused += 1
        game = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()
        acting = game["to_act"]
        if not acting:
            break
        seat = rng.choice(acting)
        view = client.get(f"/v1/games/{game_id}", headers=seats[seat]).get_json()
        action = rng.choice(view["legal_actions"])
        moved = client.post(
            f"/v1/games/{game_id}/actions",
            json={"action": action, "expected_version": view["version"]},
            headers=seats[seat],
        )
        assert moved.status_code in (200, 201), moved.get_json()
    assert offered + refused > 0


def test_an_undo_offered_and_accepted_takes_the_move_back(client: FlaskClient) -> None:
    game_id, seats = new_game(client, "tiny", "undo-accepted")
    view = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()
    assert view["undo_offer"] == {"to_version": None, "reason": "You have no move to undo yet."}
    action = next(a for a in view["legal_actions"] if a["type"] == "add")
    moved = client.post(
        f"/v1/games/{game_id}/actions", json={"action": action, "expected_version": view["version"]}, headers=seats[0]
    )
    assert moved.status_code in (200, 201)
    offer = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()["undo_offer"]
    assert offer["to_version"] == view["version"]
    pending = client.post(
        f"/v1/games/{game_id}/undo-requests", json={"to_version": offer["to_version"]}, headers=seats[0]
    ).get_json()["pending"]
    waiting = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()["undo_offer"]
    assert waiting["to_version"] is None and "waiting" in waiting["reason"]
    client.post(f"/v1/games/{game_id}/undo-requests/{pending['id']}/accept", headers=seats[1])
    after = client.get(f"/v1/games/{game_id}", headers=seats[0]).get_json()
    assert after["view"] == view["view"]
    # The move is gone: nothing of this seat's is left to undo.
    assert after["undo_offer"]["to_version"] is None
    assert client.get(f"/v1/games/{game_id}").get_json()["undo_offer"] is None  # a spectator


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "tiny"])
def test_each_kind_serves_its_card_faces_and_how_to_play(client: FlaskClient, kind: str) -> None:
    faces = client.get(f"/v1/kinds/{kind}/cards")
    assert faces.status_code == 200
    cards = faces.get_json()["cards"]
    assert cards, f"{kind} has no card faces"
    for key, face in cards.items():
        assert face["name"], key
        for stat in face.get("stats") or []:
            assert stat["label"] and stat["value"] not in (None, ""), (key, stat)
    rules = client.get(f"/v1/kinds/{kind}/rules").get_json()
    assert len(rules["how_to_play"]) > 400, f"{kind}: no How to play section in its README"
    assert "shared/rules" not in rules["how_to_play"]
    assert rules["rulings"].startswith("#")


def test_an_unknown_kind_has_no_cards_or_rules(client: FlaskClient) -> None:
    for path in ("/v1/kinds/no-such-game/cards", "/v1/kinds/no-such-game/rules"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.get_json()["code"] == "unknown_kind"
