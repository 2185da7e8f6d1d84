"""Rematch: any seat of a finished game offers one; it has the game's kind,
options, rating and listing, a new seed and the seat order rotated; it starts when every
human seat has accepted; the two games name each other; one rematch per game however
many seats ask at once; nothing is made or appended for a caller with no seat."""

from __future__ import annotations

import random
import threading

from flask.testing import FlaskClient

from core.creation import rematch_seats
from projections.inbox import Inbox
from stores.platform import Platform
from tests.api.conftest import bearer
from tests.api.test_players import drain, register
from tests.api.test_ratings import play_out


def test_a_rematch_has_the_games_settings_a_new_seed_and_the_seats_rotated_and_starts_when_all_accept(
    client: FlaskClient, platform: Platform
) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    game = client.post(
        "/v1/games",
        json={
            "kind": "tiny",
            "players": [{"me": True}, {"open": True, "for": "bob"}],
            "rated": True,
            "unlisted": True,
            "options": {"start": 4},
            "turn_seconds": 300,
        },
        headers=ann_key,
    ).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    play_out(client, game, {0: ann_key, 1: bob_key}, random.Random(5))
    old = client.get(f"/v1/games/{game['id']}").get_json()
    assert old["status"] == "finished" and old["rematch"] is None

    offered = client.post(f"/v1/games/{game['id']}/rematch", headers=ann_key)
    assert offered.status_code == 200, offered.get_json()
    answer = offered.get_json()
    new_id = answer["rematch"]
    assert new_id != game["id"] and answer["seat"] == 1 and answer["token"] is None, "ann sat first; now second"
    new = answer["game"]
    assert new["status"] == "open" and new["rematch_of"] == game["id"]
    assert (new["kind"], new["options"], new["rated"], new["unlisted"], new["turn_seconds"]) == (
        "tiny",
        old["options"],
        True,
        True,
        300,
    )
    assert new["seed_commitment"] != old["seed_commitment"], "a new seed"
    assert new["seats"][1]["player"] == ann["id"]
    assert new["seats"][0]["open"] and new["seats"][0]["reserved_for"] == bob["id"], "bob's seat waits for bob"
    assert client.get(f"/v1/games/{game['id']}").get_json()["rematch"] == new_id, "the old game names the new"

    # Asked again, the same rematch and nothing appended.
    again = client.post(f"/v1/games/{game['id']}/rematch", headers=ann_key).get_json()
    assert again["rematch"] == new_id and again["game"]["version"] == new["version"]

    # Bob hears of it on his stream.
    drain(platform)
    notices = [n for _, n in Inbox(platform.redis, platform.config.prefix).read(bob["id"], "0", None)]
    offers = [n for n in notices if n["type"] == "rematch_offered"]
    assert offers == [
        {
            "type": "rematch_offered",
            "game": new_id,
            "kind": "tiny",
            "version": new["version"],
            "seat": 0,
            "of": game["id"],
            "by": 1,
        }
    ]
    assert not [
        n
        for _, n in Inbox(platform.redis, platform.config.prefix).read(ann["id"], "0", None)
        if n["type"] == "rematch_offered"
    ], "the one who offered is not asked"

    accepted = client.post(f"/v1/games/{game['id']}/rematch", headers=bob_key).get_json()
    assert accepted["rematch"] == new_id and accepted["seat"] == 0
    started = client.get(f"/v1/games/{new_id}", headers=bob_key).get_json()
    assert started["status"] == "active" and started["seat"] == 0 and started["legal_actions"]
    assert [s["player"] for s in started["seats"]] == [bob["id"], ann["id"]]
    # The new game plays and rates like any other, and names the game it follows.
    play_out(client, started, {0: bob_key, 1: ann_key}, random.Random(6))
    assert client.get(f"/v1/games/{new_id}").get_json()["rematch_of"] == game["id"]


def test_no_rematch_before_the_end_nor_for_a_caller_without_a_seat(client: FlaskClient, platform: Platform) -> None:
    ann, ann_key = register(client, "ann")
    _, carl_key = register(client, "carl")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "bob"}]}, headers=ann_key
    ).get_json()
    bob_token = bearer(game["seats"][1]["token"])
    early = client.post(f"/v1/games/{game['id']}/rematch", headers=ann_key)
    assert early.status_code == 409 and early.get_json()["code"] == "game_in_play"
    assert platform.vault.rematch(game["id"]) is None
    play_out(client, game, {0: ann_key, 1: bob_token}, random.Random(3))
    other = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "x"}, {"name": "y"}]}).get_json()
    for headers, status, code in (
        ({}, 401, "unauthorized"),
        (carl_key, 403, "not_your_seat"),
        (bearer(other["seats"][0]["token"]), 403, "not_your_seat"),
        (bearer("not-a-token"), 401, "unauthorized"),
        ({"Authorization": "Basic abc"}, 401, "unauthorized"),
    ):
        refused = client.post(f"/v1/games/{game['id']}/rematch", headers=headers)
        assert (refused.status_code, refused.get_json()["code"]) == (status, code), headers
    assert platform.vault.rematch(game["id"]) is None, "nothing was made"
    missing = client.post("/v1/games/g_nothing/rematch", headers=ann_key)
    assert missing.status_code == 404


def test_seat_token_holders_rematch_with_their_old_tokens_and_no_one_else_takes_their_seats(
    client: FlaskClient, platform: Platform
) -> None:
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}).get_json()
    tokens = {s["seat"]: bearer(s["token"]) for s in game["seats"]}
    play_out(client, game, tokens, random.Random(4))
    offered = client.post(f"/v1/games/{game['id']}/rematch", headers=tokens[1]).get_json()
    new_id, bob_new = offered["rematch"], offered["token"]
    assert offered["seat"] == 0 and bob_new, "bob sat second, now first, with a token of the new game"
    new = offered["game"]
    assert new["seats"][0]["name"] == "bob" and new["seats"][1]["open"] and new["seats"][1]["rematch_seat"] == 0
    # Ann's kept seat: not by name, not with bob's tokens, not with a player key.
    _, dan_key = register(client, "dan")
    for attempt in (
        client.post(f"/v1/games/{new_id}/seats/1/join", json={"name": "mallory"}),
        client.post(f"/v1/games/{new_id}/seats/1/join", json={}, headers=dan_key),
        client.post(f"/v1/games/{new_id}/seats/1/join", json={"name": "bob"}, headers=bearer(bob_new)),
    ):
        assert attempt.status_code == 403 and attempt.get_json()["code"] == "not_your_seat"
    drain(platform)
    lobby = client.get("/v1/games?status=open").get_json()["games"]
    assert new_id not in [g["id"] for g in lobby], "a rematch's kept seats are not in the lobby"
    accepted = client.post(f"/v1/games/{game['id']}/rematch", headers=tokens[0]).get_json()
    assert accepted["seat"] == 1 and accepted["token"]
    view = client.get(f"/v1/games/{new_id}", headers=bearer(accepted["token"])).get_json()
    assert view["status"] == "active" and view["seat"] == 1
    # Asked again, a holder gets a new token and the one it had stops.
    again = client.post(f"/v1/games/{game['id']}/rematch", headers=tokens[0]).get_json()
    assert again["token"] and again["token"] != accepted["token"]
    assert client.get(f"/v1/games/{new_id}", headers=bearer(accepted["token"])).status_code == 401
    assert client.get(f"/v1/games/{new_id}", headers=bearer(again["token"])).get_json()["seat"] == 1


def test_seats_asking_at_once_make_one_rematch(client: FlaskClient, platform: Platform) -> None:
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}).get_json()
    tokens = {s["seat"]: bearer(s["token"]) for s in game["seats"]}
    play_out(client, game, tokens, random.Random(8))
    results: list[tuple[str, int]] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def ask(seat: int) -> None:
        try:
            barrier.wait()
            table, new_seat, _ = platform.handler.rematch(game["id"], seat, None)
            results.append((table.game_id, new_seat))
        except BaseException as error:  # noqa: BLE001  (a seat taken by its twin is expected)
            errors.append(error)

    threads = [threading.Thread(target=ask, args=(i % 2,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made = {game_id for game_id, _ in results}
    assert len(made) == 1, f"one rematch, not {made}"
    assert all(getattr(e, "code", None) in ("seat_taken",) for e in errors), errors
    rematch = platform.handler.load(made.pop())
    assert rematch.status == "active" and platform.vault.rematch(game["id"]) == rematch.game_id


def test_a_bot_keeps_its_level_and_name_in_the_rotated_seats(platform: Platform) -> None:
    created = platform.handler.create_game(
        "fortress-royals",
        [{"name": "ann"}, {"bot": "greedy", "name": "greedy bot 1"}, {"name": "bob", "player": "pl_bob"}],
    )
    assert rematch_seats(created.table) == [
        {"name": "greedy bot 1", "bot": "greedy"},
        {"open": True, "reserved_for": "pl_bob"},
        {"open": True, "rematch_seat": 0},
    ]
