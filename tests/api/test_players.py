"""Players: register, a key shown once and kept hashed, seats a player holds
(created, joined, claimed), acting and reading with the key, rotation and revocation,
my games and a public profile, as read models that a rebuild reproduces."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from stores.platform import Platform
from tests.api.conftest import bearer
from workers.projector import Projector


def register(client: FlaskClient, name: str) -> tuple[dict[str, Any], dict[str, str]]:
    answer = client.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    player = answer.get_json()
    return player, bearer(player["key"])


def drain(platform: Platform) -> Projector:
    projector = Projector(platform, "players-test")
    projector.ensure_group()
    while projector.step(block_ms=None):
        pass
    return projector


def test_a_player_registers_once_per_name_whatever_its_case_and_its_key_is_kept_hashed(
    client: FlaskClient, platform: Platform
) -> None:
    answer = client.post("/v1/players", json={"name": "Ann_1"})
    assert answer.status_code == 201 and answer.headers["Location"] == "/v1/players/Ann_1"
    assert answer.headers["Cache-Control"] == "no-store"
    player = answer.get_json()
    assert player["key"].startswith("tsp_") and len(player["key"]) >= 40 and player["id"].startswith("pl_")
    for taken in ("ann_1", "ANN_1", "Ann_1"):
        refused = client.post("/v1/players", json={"name": taken})
        assert refused.status_code == 409 and refused.get_json()["code"] == "name_taken"
    # The key is nowhere in Redis, in any spelling: only its hash is.
    for key in platform.redis.scan_iter():
        kind = platform.redis.type(key)
        values = [platform.redis.get(key)] if kind == b"string" else []
        assert all(player["key"].encode() not in (v or b"") for v in [key, *values])
    me = client.get("/v1/players/me", headers=bearer(player["key"])).get_json()
    assert me == {"id": player["id"], "name": "Ann_1", "created_at": player["created_at"], "bot": False}


@pytest.mark.parametrize("name", ["ab", "a" * 21, "_ann", "-ann", "ann bob", "ann!", "ännä", "", "ann\n"])
def test_a_name_outside_the_rule_is_refused_with_the_rule_and_registers_nothing(
    client: FlaskClient, platform: Platform, name: str
) -> None:
    refused = client.post("/v1/players", json={"name": name})
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_request"
    assert name == "" or "3 to 20 characters" in refused.get_json()["rule"]
    assert not list(platform.redis.scan_iter(match="*players*"))


def test_a_player_creates_a_game_in_its_own_seat_and_acts_with_its_key(client: FlaskClient) -> None:
    ann, ann_key = register(client, "ann")
    _, bob_key = register(client, "bob")
    created = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "carl"}]}, headers=ann_key
    )
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    mine, carl = game["seats"]
    assert mine["player"] == ann["id"] and mine["name"] == "ann" and "token" not in mine, "no token for a player's seat"
    assert carl["player"] is None and "token" in carl
    view = client.get(f"/v1/games/{game['id']}", headers=ann_key).get_json()
    assert view["seat"] == 0 and view["legal_actions"]
    acted = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": view["legal_actions"][0], "expected_version": view["version"]},
        headers=ann_key,
    )
    assert acted.status_code == 200
    # Another player's key reads as a spectator and cannot act.
    theirs = client.get(f"/v1/games/{game['id']}", headers=bob_key).get_json()
    assert theirs["seat"] is None and theirs["legal_actions"] == [] and theirs["view"]["hands"] == [1, 1]
    version = theirs["version"]
    refused = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "draw"}, "expected_version": version},
        headers=bob_key,
    )
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_your_seat"
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == version, "appends nothing"
    # A 'me' seat needs a player key; a player holds one seat of a game.
    anonymous = client.post("/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "carl"}]})
    assert anonymous.status_code == 401
    twice = client.post("/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"me": True}]}, headers=ann_key)
    assert twice.status_code == 409 and twice.get_json()["code"] == "already_seated"


def test_a_player_joins_an_open_seat_with_its_key_once(client: FlaskClient) -> None:
    ann, ann_key = register(client, "ann")
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"open": True}, {"open": True}]}).get_json()
    joined = client.post(f"/v1/games/{game['id']}/seats/0/join", json={}, headers=ann_key)
    assert joined.status_code == 200, joined.get_json()
    assert joined.get_json()["token"] is None and joined.get_json()["game"]["seats"][0]["player"] == ann["id"]
    assert joined.get_json()["game"]["seats"][0]["name"] == "ann"
    again = client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=ann_key)
    assert again.status_code == 409 and again.get_json()["code"] == "already_seated"
    nameless = client.post(f"/v1/games/{game['id']}/seats/1/join", json={})
    assert nameless.status_code == 422


def test_a_player_claims_a_seat_it_played_by_token_and_the_token_stops(client: FlaskClient, platform: Platform) -> None:
    ann, ann_key = register(client, "ann")
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}).get_json()
    token, bob_token = game["seats"][0]["token"], game["seats"][1]["token"]
    wrong = client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"token": bob_token}, headers=ann_key)
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "not_your_seat"
    without_key = client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"token": token}, headers=bearer(token))
    assert without_key.status_code == 401
    claimed = client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"token": token}, headers=ann_key)
    assert claimed.status_code == 200, claimed.get_json()
    assert claimed.get_json()["seats"][0]["player"] == ann["id"] and claimed.get_json()["seat"] == 0
    assert platform.store.read(game["id"])[-1].type == "SeatClaimed"
    assert client.get(f"/v1/games/{game['id']}", headers=bearer(token)).status_code == 401, "the token is revoked"
    assert client.get(f"/v1/games/{game['id']}", headers=ann_key).get_json()["seat"] == 0
    again = client.post(f"/v1/games/{game['id']}/seats/0/claim", json={"token": token}, headers=ann_key)
    assert again.status_code == 403, "the token is gone"


def test_a_rotated_key_stops_at_once_and_a_revoked_player_acts_no_more(client: FlaskClient) -> None:
    ann, old = register(client, "ann")
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "bob"}]}, headers=old)
    rotated = client.post("/v1/players/me/key", headers=old)
    assert rotated.status_code == 200 and rotated.get_json()["key"] != ann["key"]
    new = bearer(rotated.get_json()["key"])
    for path in ("/v1/players/me", f"/v1/games/{game.get_json()['id']}"):
        assert client.get(path, headers=old).status_code == 401
    assert client.get("/v1/players/me", headers=new).status_code == 200
    assert client.delete("/v1/players/me/key", headers=new).status_code == 204
    assert client.get("/v1/players/me", headers=new).status_code == 401
    assert client.post("/v1/players/me/key", headers=new).status_code == 401, "no new key for a revoked one"
    assert client.get("/v1/players/ann").status_code == 200, "the name and profile stay"


def test_my_games_and_a_profile_are_read_models_a_rebuild_reproduces(client: FlaskClient, platform: Platform) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    first = client.post("/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "x"}]}, headers=ann_key)
    second = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"name": "y"}, {"open": True}], "options": {"start": 9}}
    ).get_json()
    client.post(f"/v1/games/{second['id']}/seats/1/join", json={}, headers=ann_key)
    client.post("/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"name": "z"}]}, headers=bob_key)
    # The second game ends: its first seat reaches 10.
    y = bearer(second["seats"][0]["token"])
    version = client.get(f"/v1/games/{second['id']}").get_json()["version"]
    ended = client.post(
        f"/v1/games/{second['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=y,
    )
    assert ended.status_code == 200
    projector = drain(platform)
    mine = client.get("/v1/players/me/games", headers=ann_key).get_json()
    assert mine["total"] == 2 and [g["id"] for g in mine["games"]] == [second["id"], first.get_json()["id"]]
    by_id = {g["id"]: g for g in mine["games"]}
    assert by_id[first.get_json()["id"]]["my_seat"] == 0 and by_id[first.get_json()["id"]]["my_turn"] is True
    assert by_id[second["id"]]["my_seat"] == 1 and by_id[second["id"]]["my_turn"] is False
    active = client.get("/v1/players/me/games?status=active", headers=ann_key).get_json()
    assert [g["id"] for g in active["games"]] == [first.get_json()["id"]]
    assert client.get("/v1/players/me/games?kind=dragoborne", headers=ann_key).get_json()["total"] == 0
    assert client.get("/v1/players/me/games", headers=bob_key).get_json()["total"] == 1, "only bob's own"
    assert client.get("/v1/players/me/games").status_code == 401
    profile = client.get("/v1/players/ANN").get_json()
    assert profile["id"] == ann["id"] and profile["finished_games"]["total"] == 1
    assert [g["id"] for g in profile["finished_games"]["latest"]] == [second["id"]]
    assert "key" not in profile and client.get("/v1/players/nobody").status_code == 404
    assert bob["id"] not in str(profile)
    live = projector.models.snapshot()
    projector.rebuild()
    assert projector.models.snapshot() == live
    assert any(":player:" in key for key in live), "the players' lists are among the models compared"


def stream_events(
    client: FlaskClient, headers: dict[str, str], count: int, after: str = "0"
) -> list[tuple[str, str, dict]]:
    """The first ``count`` events of the player's stream after cursor ``after``."""
    response = client.get(f"/v1/players/me/stream?after={after}", headers=headers, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    found: list[tuple[str, str, dict]] = []
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: "):
            lines = dict(line.split(": ", 1) for line in text.strip().splitlines())
            found.append((lines["id"], lines["event"], json.loads(lines["data"])))
        elif text.startswith("event: key_revoked"):
            found.append(("", "key_revoked", {}))
        if len(found) >= count:
            break
    response.close()
    return found


def test_each_player_hears_its_own_games_on_its_stream_and_resumes_by_cursor(
    client: FlaskClient, platform: Platform
) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    _, carl_key = register(client, "carl")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}]}, headers=ann_key
    ).get_json()
    drain(platform)
    client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key)
    drain(platform)
    heard = stream_events(client, ann_key, 3)
    assert [(e, d["game"], d["seat"]) for _, e, d in heard] == [
        ("seated", game["id"], 0),
        ("seat_filled", game["id"], 0),
        ("game_started", game["id"], 0),
    ]
    view = client.get(f"/v1/games/{game['id']}", headers=ann_key).get_json()
    first = view["to_act"][0]
    mover, waiter = (ann_key, bob_key) if first == 0 else (bob_key, ann_key)
    client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": view["version"]},
        headers=mover,
    )
    drain(platform)
    inbox = Projector(platform, "x").inbox
    waiting = platform.players.authenticate(waiter["Authorization"][7:])
    assert waiting is not None
    turn = stream_events(client, waiter, len(inbox.read(waiting["id"], "0", None)))
    assert turn[-1][1] == "your_turn" and turn[-1][2]["seat"] == (1 - first)
    # Resumed after its second event, ann's stream starts at its third.
    resumed = stream_events(client, ann_key, 1, after=heard[1][0])
    assert resumed[0][0] == heard[2][0]
    # Carl is in no game: his stream is empty of ann's and bob's games.
    assert inbox.read(platform.players.authenticate(carl_key["Authorization"][7:])["id"], "0", None) == []
    # A rebuild of the models tells no one anything again.
    before = [len(inbox.read(p["id"], "0", None, count=1000)) for p in (ann, bob)]
    Projector(platform, "rebuilder").rebuild()
    assert [len(inbox.read(p["id"], "0", None, count=1000)) for p in (ann, bob)] == before
    # A rotated key's stream ends.
    client.post("/v1/players/me/key", headers=ann_key)
    assert client.get("/v1/players/me/stream", headers=ann_key).status_code == 401
    assert client.get("/v1/players/me/stream?after=bad", headers=bob_key).status_code == 422


def test_invites_reserved_seats_and_unlisted_games_stay_out_of_the_lobby_and_profiles(
    client: FlaskClient, platform: Platform
) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    _, carl_key = register(client, "carl")
    invited = client.post(
        "/v1/games",
        json={"kind": "tiny", "players": [{"me": True}, {"open": True, "invite": True}], "unlisted": True},
        headers=ann_key,
    ).get_json()
    code = invited["seats"][1]["invite"]
    assert isinstance(code, str) and len(code) >= 43 and "token" not in invited["seats"][1] and invited["unlisted"]
    ttl = platform.redis.ttl(platform.vault.token_key(code))
    assert 6 * 24 * 3600 < ttl <= 7 * 24 * 3600, "an invite code lapses after a week"
    reserved = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "BOB"}]}, headers=ann_key
    ).get_json()
    assert reserved["seats"][1]["reserved_for"] == bob["id"] and not reserved["unlisted"]
    unknown = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "nobody"}]}, headers=ann_key
    )
    assert unknown.status_code == 422
    drain(platform)
    lobby = client.get("/v1/games?status=open").get_json()
    assert lobby["total"] == 0, "neither game has a seat anyone may take"
    # The invite seat opens only with its code, once.
    for body, headers in (({"name": "dan"}, {}), ({"name": "dan", "invite": code + "x"}, {}), ({}, carl_key)):
        refused = client.post(f"/v1/games/{invited['id']}/seats/1/join", json=body, headers=headers)
        assert refused.status_code == 403 and refused.get_json()["code"] == "not_your_seat"
    joined = client.post(f"/v1/games/{invited['id']}/seats/1/join", json={"name": "dan", "invite": code})
    assert joined.status_code == 200 and joined.get_json()["token"]
    assert platform.vault.owner(code) is None, "the code served once"
    # The reserved seat takes only its player.
    for headers in ({}, carl_key):
        refused = client.post(f"/v1/games/{reserved['id']}/seats/1/join", json={"name": "x"}, headers=headers)
        assert refused.status_code == 403
    assert client.post(f"/v1/games/{reserved['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    drain(platform)
    listed = {g["id"] for g in client.get("/v1/games").get_json()["games"]}
    assert reserved["id"] in listed and invited["id"] not in listed, "an unlisted game is in no public list"
    mine = {g["id"] for g in client.get("/v1/players/me/games", headers=ann_key).get_json()["games"]}
    assert mine == {invited["id"], reserved["id"]}, "but in its own players' lists"
    # Once finished, the unlisted game stays off ann's public profile.
    for game in (invited, reserved):
        for _ in range(30):
            view = client.get(f"/v1/games/{game['id']}").get_json()
            if view["status"] == "finished":
                break
            seat = view["to_act"][0]
            headers = ann_key if seat == 0 else (bearer(joined.get_json()["token"]) if game is invited else bob_key)
            answer = client.post(
                f"/v1/games/{game['id']}/actions",
                json={"action": {"type": "add", "amount": 2}, "expected_version": view["version"]},
                headers=headers,
            )
            assert answer.status_code == 200, answer.get_json()
    drain(platform)
    profile = client.get("/v1/players/ann").get_json()
    assert [g["id"] for g in profile["finished_games"]["latest"]] == [reserved["id"]]
    assert profile["finished_games"]["total"] == 1 and invited["id"] not in json.dumps(profile)


def test_a_fork_is_its_creator_s_game_and_plays_under_no_one_else_s_name(
    client: FlaskClient, platform: Platform
) -> None:
    """A stranger forks a finished game of two players, and ann forks one in play: the forks'
    seats hold no player, so neither fork is in anyone's games, profile or results, and
    resigning one changes no player's record."""
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    start = {"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "bob"}], "options": {"start": 8}}
    game = client.post("/v1/games", json=start, headers=ann_key).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    in_play = client.post("/v1/games", json={**start, "options": {"start": 0}}, headers=ann_key).get_json()
    client.post(f"/v1/games/{in_play['id']}/seats/1/join", json={}, headers=bob_key)
    version = client.get(f"/v1/games/{game['id']}", headers=ann_key).get_json()["version"]
    won = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": 2}, "expected_version": version},
        headers=ann_key,
    )
    assert won.status_code == 200
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"
    drain(platform)
    before = {name: client.get(f"/v1/players/{name}").get_json()["finished_games"]["total"] for name in ("ann", "bob")}

    stranger = client.post(f"/v1/games/{game['id']}/forks", json={"at_version": version}).get_json()
    at = client.get(f"/v1/games/{in_play['id']}").get_json()["version"]
    own = client.post(f"/v1/games/{in_play['id']}/forks", json={"at_version": at}, headers=ann_key).get_json()
    for fork in (stranger, own):
        assert "seats" in fork, fork
        assert all(seat.get("player") is None for seat in fork["seats"]), fork["seats"]
    token = bearer(next(s["token"] for s in stranger["seats"] if s["seat"] == 1))
    assert client.post(f"/v1/games/{stranger['id']}/resign", headers=token).status_code == 200
    drain(platform)
    for name, key in (("ann", ann_key), ("bob", bob_key)):
        listed = {g["id"] for g in client.get("/v1/players/me/games", headers=key).get_json()["games"]}
        assert not listed & {stranger["id"], own["id"]}, f"a fork in {name}'s games"
        assert client.get(f"/v1/players/{name}").get_json()["finished_games"]["total"] == before[name]


def test_a_post_with_no_body_is_the_empty_object_whatever_its_content_type(client: FlaskClient) -> None:
    """A player joins an open seat with its key and no body, as the README shows, with or
    without a Content-Type; a body that is there must still be JSON, and a route that needs
    a field says which."""
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    for key, content_type in ((ann_key, None), (bob_key, "application/json")):
        game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "x"}, {"open": True}]}).get_json()
        joined = client.post(f"/v1/games/{game['id']}/seats/1/join", headers=key, content_type=content_type)
        assert joined.status_code == 200, joined.get_json()
        assert joined.get_json()["game"]["seats"][1]["name"] in ("ann", "bob")
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "x"}, {"open": True}]}).get_json()
    text = client.post(f"/v1/games/{game['id']}/seats/1/join", data="name=cy", content_type="text/plain")
    assert text.status_code == 415
    nameless = client.post(f"/v1/games/{game['id']}/seats/1/join")
    assert nameless.status_code == 422 and "Send a name for the seat" in nameless.get_json()["detail"]
    created = client.post("/v1/games")
    assert created.status_code == 422 and "kind" in created.get_json()["detail"]


def test_my_turn_lists_only_the_games_where_a_seat_of_mine_is_to_act_and_lists_say_who_acts(
    client: FlaskClient, platform: Platform
) -> None:
    _, ann_key = register(client, "ann")
    _, bob_key = register(client, "bob")
    both = {"kind": "tiny", "players": [{"me": True}, {"open": True}]}
    games = [client.post("/v1/games", json=both, headers=ann_key).get_json() for _ in range(3)]
    for game in games:
        assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob_key).status_code == 200
    # ann moves in the first game: bob is to act there, ann in the other two.
    version = client.get(f"/v1/games/{games[0]['id']}").get_json()["version"]
    moved = client.post(
        f"/v1/games/{games[0]['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=ann_key,
    )
    assert moved.status_code == 200, moved.get_data(as_text=True)
    drain(platform)

    def turn_ids(key: dict[str, str], query: str = "") -> list[str]:
        page = client.get(f"/v1/players/me/games?my_turn=true{query}", headers=key)
        assert page.status_code == 200, page.get_data(as_text=True)
        assert all(g["my_turn"] for g in page.get_json()["games"])
        return [g["id"] for g in page.get_json()["games"]]

    assert turn_ids(ann_key) == [games[2]["id"], games[1]["id"]]
    assert turn_ids(bob_key) == [games[0]["id"]]
    assert turn_ids(ann_key, "&kind=tiny&status=active") == [games[2]["id"], games[1]["id"]]
    assert turn_ids(ann_key, "&kind=dragoborne") == []
    # Every list says whose turn it is, as the game does.
    lobby = {g["id"]: g for g in client.get("/v1/games?status=active").get_json()["games"]}
    assert lobby[games[0]["id"]]["to_act"] == [1] and lobby[games[1]["id"]]["to_act"] == [0]
    # The read model lags a move: a game no longer ann's turn is left out all the same.
    version = client.get(f"/v1/games/{games[1]['id']}").get_json()["version"]
    client.post(
        f"/v1/games/{games[1]['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=ann_key,
    )
    assert turn_ids(ann_key) == [games[2]["id"]]
    for query in ("?my_turn=false", "?my_turn=1", "?my_turn=true&status=finished"):
        refused = client.get(f"/v1/players/me/games{query}", headers=ann_key)
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_request", query


def test_a_bot_account_says_so_everywhere_and_plays_a_rated_game_over_the_api(
    client: FlaskClient, platform: Platform
) -> None:
    registered = client.post("/v1/players", json={"name": "robo", "bot": True})
    assert registered.status_code == 201 and registered.get_json()["bot"] is True
    robo_key = bearer(registered.get_json()["key"])
    ann, ann_key = register(client, "ann")
    assert ann["bot"] is False, "a person is not a bot account unless it says so"
    for wrong in ({"name": "robo2", "bot": "yes"}, {"name": "robo3", "bot": 1}):
        refused = client.post("/v1/players", json=wrong)
        assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_request", wrong
    # The bot account creates a rated game in its own seat; ann joins it from the lobby.
    created = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], "rated": True}, headers=robo_key
    ).get_json()
    game_id = created["id"]
    drain(platform)
    lobby = {g["id"]: g for g in client.get("/v1/games?status=open").get_json()["games"]}
    assert lobby[game_id]["seats"][0]["account"] == "bot", "a person sees the bot before sitting down"
    assert client.post(f"/v1/games/{game_id}/seats/1/join", json={}, headers=ann_key).status_code == 200
    # A bot account with an ordinary token seat takes it over by its key: still a bot seat.
    other = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "r"}, {"me": True}]}, headers=ann_key)
    token = other.get_json()["seats"][0]["token"]
    claimed = client.post(
        f"/v1/games/{other.get_json()['id']}/seats/0/claim", json={"token": token}, headers=robo_key
    ).get_json()
    assert claimed["seats"][0]["account"] == "bot" and "account" not in claimed["seats"][1]
    # They play to the end, each with its own key; the bot moves like any client.
    keys = {0: robo_key, 1: ann_key}
    for _ in range(40):
        view = client.get(f"/v1/games/{game_id}", headers=keys[0]).get_json()
        if view["status"] == "finished":
            break
        seat = view["to_act"][0]
        moved = client.post(
            f"/v1/games/{game_id}/actions",
            json={"action": {"type": "add", "amount": 1}, "expected_version": view["version"]},
            headers=keys[seat],
        )
        assert moved.status_code == 200, moved.get_data(as_text=True)
    view = client.get(f"/v1/games/{game_id}").get_json()
    assert view["status"] == "finished"
    assert [s.get("account") for s in view["seats"]] == ["bot", None]
    drain(platform)
    profile = client.get("/v1/players/robo").get_json()
    assert profile["bot"] is True and profile["finished_games"]["total"] == 1
    assert profile["finished_games"]["latest"][0]["seats"][0]["account"] == "bot"
    assert client.get("/v1/players/ann").get_json()["bot"] is False
    # Rated as any player is: both on the leaderboard.
    board = client.get("/v1/leaderboards/tiny").get_json()["players"]
    assert sorted(row["name"] for row in board) == ["ann", "robo"]
