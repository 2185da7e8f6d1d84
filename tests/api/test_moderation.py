"""Moderation (``core.moderation``): a block keeps the blocked player's invitations and chat
from the blocker (page, game stream, inbox), a mute hides one game's chat of one player
from the caller only; reports reach the operator alone, a reporter cannot flood them, and
a player the operator closes can act no more."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from projections.inbox import Inbox
from stores.platform import Platform
from tests.api.conftest import bearer, operator
from tests.api.test_chat import Stream, chat_of, player_game, say, texts
from tests.api.test_players import register


def inbox_chat(platform: Platform, player_id: str) -> list[str]:
    inbox = Inbox(platform.redis, platform.config.prefix)
    return [
        json.loads(fields[b"n"])["message"]["text"]
        for _, fields in platform.redis.xrange(inbox.key(player_id))
        if json.loads(fields[b"n"])["type"] == "chat"
    ]


def test_a_block_keeps_the_blocked_players_invitations_and_chat_from_the_blocker(
    client: FlaskClient, platform: Platform
) -> None:
    game, ann, bob = player_game(client)
    ann_id = client.get("/v1/players/me", headers=ann).get_json()["id"]
    assert client.put("/v1/players/me/blocks/BOB", headers=ann).status_code == 204  # names in any case
    assert client.get("/v1/players/me/blocks", headers=ann).get_json()["players"][0]["name"] == "bob"
    stream = Stream(client, game, {**ann, "Last-Event-ID": "999"})
    say(client, game, bob, "from bob")
    say(client, game, ann, "from ann")
    # ann reads nobody's chat of bob's, wherever she looks; everyone else reads it all.
    assert texts(client, game, ann) == [("seats", "from ann")]
    assert chat_of(stream.until_chat(1)) == ["from ann"]
    stream.close()
    assert "from bob" not in inbox_chat(platform, ann_id)
    _, carl = register(client, "carl")
    for reader in (bob, carl, {}):
        assert texts(client, game, reader) == [("seats", "from bob"), ("seats", "from ann")]
    # bob cannot invite ann by name; ann may still invite bob.
    reserved = {"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "ann"}]}
    refused = client.post("/v1/games", json=reserved, headers=bob)
    assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    assert "ann" not in str(client.get("/v1/players/me/games", headers=bob).get_json()["games"])
    invite_bob = {"kind": "tiny", "players": [{"me": True}, {"open": True, "for": "bob"}]}
    assert client.post("/v1/games", json=invite_bob, headers=ann).status_code == 201
    # Unblocked: bob's messages, old and new, reach her again.
    assert client.delete("/v1/players/me/blocks/bob", headers=ann).status_code == 204
    assert texts(client, game, ann) == [("seats", "from bob"), ("seats", "from ann")]
    assert client.post("/v1/games", json=reserved, headers=bob).status_code == 201


def test_blocks_and_mutes_are_refused_where_they_make_no_sense(client: FlaskClient) -> None:
    game, ann, _ = player_game(client)
    for method, path, code in [
        ("put", "/v1/players/me/blocks/ann", 422),
        ("put", "/v1/players/me/blocks/nobody", 404),
        ("put", f"/v1/games/{game['id']}/mutes/ann", 422),
        ("put", "/v1/games/no-such-game/mutes/bob", 404),
    ]:
        answer = client.open(path, method=method.upper(), headers=ann)
        assert answer.status_code == code, (path, answer.get_json())
        assert answer.mimetype == "application/problem+json"
    assert client.put("/v1/players/me/blocks/bob").status_code == 401, "a player's own, with its key"
    seat_token = bearer(game["seats"][0].get("token") or "x" * 43)
    assert client.put("/v1/players/me/blocks/bob", headers=seat_token).status_code == 401


def test_a_mute_hides_one_players_chat_in_one_game_from_the_caller_only(client: FlaskClient) -> None:
    game, ann, bob = player_game(client)
    other = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}]}, headers=ann
    ).get_json()
    assert client.post(f"/v1/games/{other['id']}/seats/1/join", json={}, headers=bob).status_code == 200
    assert client.put(f"/v1/games/{game['id']}/mutes/bob", headers=ann).status_code == 204
    say(client, game, bob, "muted here")
    say(client, other, bob, "heard there")
    assert texts(client, game, ann) == []
    assert texts(client, other, ann) == [("seats", "heard there")]
    assert texts(client, game, bob) == [("seats", "muted here")], "only the caller's reading changes"
    assert client.delete(f"/v1/games/{game['id']}/mutes/bob", headers=ann).status_code == 204
    assert texts(client, game, ann) == [("seats", "muted here")]


def report(client: FlaskClient, headers: dict[str, str], **fields: Any) -> Any:
    return client.post("/v1/reports", json={"player": "ann", "reason": "cheating", **fields}, headers=headers)


def test_reports_reach_the_operator_alone_a_flood_is_refused_and_a_closed_player_acts_no_more(
    client: FlaskClient,
) -> None:
    game, ann, bob = player_game(client)
    filed = [report(client, bob, game=game["id"], note=f"report {n}") for n in range(5)]
    assert all(answer.status_code == 201 for answer in filed), [a.get_json() for a in filed]
    flood = report(client, bob)
    assert flood.status_code == 429 and flood.get_json()["code"] == "rate_limited"
    _, carl = register(client, "carl")
    for wrong, code in [
        ({"reason": "boring"}, 422),
        ({"player": "carl"}, 422),  # itself
        ({"player": "nobody"}, 404),
        ({"game": "no-such-game"}, 404),
        ({"note": "x" * 501}, 422),
        ({"extra": 1}, 422),
    ]:
        answer = report(client, carl, **wrong)
        assert answer.status_code == code, (wrong, answer.get_json())
        assert answer.mimetype == "application/problem+json"
    assert report(client, {}).status_code == 401, "a player's, with its key"
    # Only the operator reads them, whatever the spelling of the header.
    assert client.get("/v1/reports").status_code == 401
    assert client.get("/v1/reports", headers=bob).status_code == 403
    assert client.get("/v1/reports", headers={"authorization": "bearer nope"}).status_code == 403
    page = client.get("/v1/reports", headers=operator()).get_json()
    assert page["total"] == 5 and {r["player"]["name"] for r in page["reports"]} == {"ann"}
    assert page["reports"][0]["reporter"]["name"] == "bob" and page["reports"][0]["game"] == game["id"]
    first, second = page["reports"][0]["id"], page["reports"][1]["id"]
    dismissed = client.post(f"/v1/reports/{first}/resolve", json={"resolution": "dismissed"}, headers=operator())
    assert dismissed.status_code == 200 and dismissed.get_json()["status"] == "resolved"
    assert (
        client.post(f"/v1/reports/{first}/resolve", json={"resolution": "dismissed"}, headers=operator()).status_code
        == 404
    )
    assert report(client, bob).status_code == 201, "a resolved report frees its place"
    assert client.post(f"/v1/reports/{second}/resolve", json={"resolution": "closed"}, headers=bob).status_code == 403
    closed = client.post(f"/v1/reports/{second}/resolve", json={"resolution": "closed"}, headers=operator())
    assert closed.status_code == 200
    # ann is closed: her key stops at once, and her profile says so.
    assert client.get("/v1/players/me", headers=ann).status_code == 401
    assert say(client, game, ann, "still here?").status_code == 401
    assert "closed_at" in client.get("/v1/players/ann").get_json()
    resolved = client.get("/v1/reports?status=resolved", headers=operator()).get_json()
    assert {r["id"] for r in resolved["reports"]} == {first, second}


def test_the_operator_closes_a_player_and_no_one_else_may(client: FlaskClient) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    assert client.post("/v1/players/ann/close", headers=bob).status_code == 403
    assert client.get("/v1/players/me", headers=ann).status_code == 200
    closed = client.post("/v1/players/ann/close", headers=operator())
    assert closed.status_code == 200 and closed.get_json()["closed_at"]
    assert client.get("/v1/players/me", headers=ann).status_code == 401
    assert client.post("/v1/players/nobody/close", headers=operator()).status_code == 404
