"""Ratings: Glicko-2 per kind for rated games between players, folded from the
ledger in its order; leaderboards and histories; a rebuild gives the same numbers."""

from __future__ import annotations

import random
from typing import Any

import glicko2
import pytest
from flask.testing import FlaskClient

from projections.ratings import START, rate
from stores.platform import Platform
from tests.api.conftest import bearer
from workers.projector import Projector


def test_the_glicko2_update_gives_glickmans_worked_example() -> None:
    # Glickman's example: a 1500 player (deviation 200, volatility 0.06) beats a 1400 (30),
    # loses to a 1550 (100) and to a 1700 (300): 1464.06, 151.52, 0.05999.
    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert round(player.rating, 0) == 1464 and round(player.rd, 2) == 151.52 and round(player.vol, 5) == 0.05999


def test_one_game_moves_a_winner_up_and_a_loser_down_by_as_much_and_shared_wins_are_draws() -> None:
    after = rate({}, {"a"}, ["a", "b"])
    assert after["a"]["rating"] > 1500 > after["b"]["rating"]
    assert after["a"]["rating"] - 1500 == pytest.approx(1500 - after["b"]["rating"])
    assert after["a"]["rd"] < START["rd"] and after["a"]["games"] == 1
    drawn = rate({}, {"a", "b"}, ["a", "b"])
    assert drawn["a"]["rating"] == pytest.approx(1500) and drawn["b"]["rating"] == pytest.approx(1500)


def register(client: FlaskClient, name: str) -> dict[str, str]:
    return bearer(client.post("/v1/players", json={"name": name}).get_json()["key"])


def test_a_rated_game_is_between_players_only(client: FlaskClient) -> None:
    ann = register(client, "ann")
    for players in ([{"me": True}, {"bot": "random"}], [{"me": True}, {"name": "bob"}]):
        refused = client.post("/v1/games", json={"kind": "tiny", "players": players, "rated": True}, headers=ann)
        assert refused.status_code == 422 and "rated game" in refused.get_json()["detail"]
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], "rated": True}, headers=ann
    ).get_json()
    assert game["rated"] is True
    anonymous = client.post(f"/v1/games/{game['id']}/seats/1/join", json={"name": "dan"})
    assert anonymous.status_code == 403


def play_out(client: FlaskClient, game: dict[str, Any], keys: dict[int, dict[str, str]], rng: random.Random) -> None:
    for _ in range(50):
        view = client.get(f"/v1/games/{game['id']}").get_json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        legal = client.get(f"/v1/games/{game['id']}", headers=keys[seat]).get_json()["legal_actions"]
        answer = client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": rng.choice(legal), "expected_version": view["version"]},
            headers=keys[seat],
        )
        assert answer.status_code == 200
    raise AssertionError("the game did not end")


def test_ratings_follow_the_ledger_and_a_rebuild_gives_the_same_numbers(
    client: FlaskClient, platform: Platform
) -> None:
    names = ["ann", "bob", "cleo", "dora"]
    keys = {name: register(client, name) for name in names}
    rng = random.Random(21)
    games = []
    for _ in range(6):  # several games in play at once, ending in another order than they began
        a, b = rng.sample(names, 2)
        game = client.post(
            "/v1/games",
            json={"kind": "tiny", "players": [{"me": True}, {"open": True, "for": b}], "rated": True},
            headers=keys[a],
        ).get_json()
        assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=keys[b]).status_code == 200
        games.append((game, {0: keys[a], 1: keys[b]}))
    unrated = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "x"}]}, headers=keys["ann"]
    ).get_json()
    rng.shuffle(games)
    projector = Projector(platform, "ratings")
    projector.ensure_group()
    for game, seat_keys in games:
        play_out(client, game, seat_keys, rng)
        while projector.step(block_ms=None):
            pass
    play_out(client, unrated, {0: keys["ann"], 1: bearer(unrated["seats"][1]["token"])}, rng)
    while projector.step(block_ms=None):
        pass
    board = client.get("/v1/leaderboards/tiny").get_json()["players"]
    assert [row["rank"] for row in board] == list(range(1, len(board) + 1))
    assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)
    assert sum(row["games"] for row in board) == 2 * len(games), "each rated game rates both players; the unrated none"
    histories = 0
    for name in names:
        mine = client.get(f"/v1/players/{name}/ratings").get_json()["kinds"].get("tiny")
        if mine is None:
            continue
        histories += len(mine["history"])
        assert len(mine["history"]) == mine["games"] and mine["history"][-1]["rating"] == mine["rating"]
        indexes = [point["index"] for point in mine["history"]]
        assert indexes == sorted(indexes), "in the ledger's order"
    assert histories == 2 * len(games)
    live = platform.ratings.snapshot()
    projector.rebuild()
    assert platform.ratings.snapshot() == live
    assert client.get("/v1/leaderboards/nothing").status_code == 404
    assert client.get("/v1/players/nobody/ratings").status_code == 404


def test_a_rated_game_created_with_an_idempotency_key_is_rated_and_asked_again_the_same(client: FlaskClient) -> None:
    ann = register(client, "ann")
    request = {"kind": "tiny", "players": [{"me": True}, {"open": True}], "rated": True}
    first = client.post("/v1/games", json=request, headers={**ann, "Idempotency-Key": "rated-1"}).get_json()
    again = client.post("/v1/games", json=request, headers={**ann, "Idempotency-Key": "rated-1"}).get_json()
    assert first["rated"] is True and again["id"] == first["id"]
    unrated = client.post("/v1/games", json={**request, "rated": False}, headers={**ann, "Idempotency-Key": "rated-1"})
    assert unrated.status_code == 422 and unrated.get_json()["code"] == "idempotency_key_reused"


def test_a_resignation_before_every_seat_has_moved_rates_no_one(client: FlaskClient, platform: Platform) -> None:
    """Ratings cannot be farmed: a rated game resigned before every seat has moved is an
    abort for ratings and stats (it does not count); resigned once both have moved, it does."""
    keys = {name: register(client, name) for name in ("ann", "bob")}
    projector = Projector(platform, "early")
    projector.ensure_group()

    def rated() -> dict[str, Any]:
        body = {"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "bob"}], "rated": True}
        game = client.post("/v1/games", json=body, headers=keys["ann"]).get_json()
        assert client.post(f"/v1/games/{game['id']}/seats/1/join", headers=keys["bob"]).status_code == 200
        return game

    def move(game: dict[str, Any], seat: int) -> None:
        view = client.get(f"/v1/games/{game['id']}").get_json()
        sent = {"action": {"type": "add", "amount": 1}, "expected_version": view["version"]}
        name = "ann" if seat == 0 else "bob"
        assert client.post(f"/v1/games/{game['id']}/actions", json=sent, headers=keys[name]).status_code == 200

    early = rated()
    move(early, 0)  # ann moves; bob resigns before moving
    assert client.post(f"/v1/games/{early['id']}/resign", headers=keys["bob"]).status_code == 200
    outcome = client.get(f"/v1/games/{early['id']}").get_json()["outcome"]
    assert outcome["ending"] == "resignation" and outcome["counts"] is False
    while projector.step(block_ms=None):
        pass
    assert client.get("/v1/leaderboards/tiny").get_json()["players"] == [], "no one rated"

    played = rated()
    move(played, 0)
    move(played, 1)
    assert client.post(f"/v1/games/{played['id']}/resign", headers=keys["bob"]).status_code == 200
    assert client.get(f"/v1/games/{played['id']}").get_json()["outcome"]["counts"] is True
    while projector.step(block_ms=None):
        pass
    board = {row["name"]: row for row in client.get("/v1/leaderboards/tiny").get_json()["players"]}
    assert board["ann"]["rating"] > 1500 > board["bob"]["rating"] and board["ann"]["games"] == 1
