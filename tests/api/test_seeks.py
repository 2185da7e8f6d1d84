"""Matchmaking (``core.seeks``) over HTTP: two players' seeks meet in a game both play to its
end, each told on its stream; seeks that disagree (clock, rating, rated), a cancelled one,
a player's own and a blocked pair never meet; ten seekers matched by four workers at once
fill each seek once; a hostile client cannot cancel another's seek, flood, or seek anonymously."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from flask.testing import FlaskClient

from projections.inbox import Inbox
from stores.platform import Platform
from tests.api.test_players import register
from tests.api.test_tournaments import play_mine
from workers.matchmaking import match


def seek(client: FlaskClient, key: dict[str, str], **fields: Any) -> Any:
    return client.post("/v1/seeks", json={"kind": "tiny", **fields}, headers=key)


def inbox(platform: Platform, player_id: str) -> list[dict[str, Any]]:
    key = Inbox(platform.redis, platform.config.prefix).key(player_id)
    return [json.loads(fields[b"n"]) for _, fields in platform.redis.xrange(key)]


def test_two_seeks_meet_in_a_game_both_play_to_its_end(client: FlaskClient, platform: Platform) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    first = seek(client, ann_key, clock={"initial": 300, "increment": 2})
    assert first.status_code == 201, first.get_json()
    assert first.get_json()["rating"] == 1500 and first.get_json()["status"] == "open"
    lobby = client.get("/v1/seeks?kind=tiny").get_json()["seeks"]
    assert [s["player"]["name"] for s in lobby] == ["ann"], "the lobby shows the open seeks"
    assert match(platform, "tiny") == 0, "alone: nobody to meet"
    second = seek(client, bob_key, clock={"initial": 300, "increment": 2})
    assert match(platform, "tiny") == 1
    filled = client.get(f"/v1/seeks/{first.get_json()['id']}").get_json()
    again = client.get(f"/v1/seeks/{second.get_json()['id']}").get_json()
    assert filled["status"] == again["status"] == "filled" and filled["game"] == again["game"]
    game = client.get(f"/v1/games/{filled['game']}").get_json()
    assert {s["player"] for s in game["seats"]} == {ann["id"], bob["id"]} and game["clock"] is not None
    for player in (ann, bob):
        told = [n for n in inbox(platform, player["id"]) if n["type"] == "seek_filled"]
        assert len(told) == 1 and told[0]["game"] == filled["game"]
    assert client.get("/v1/seeks?kind=tiny").get_json()["seeks"] == []
    keys = {s["seat"]: (ann_key if s["player"] == ann["id"] else bob_key) for s in game["seats"]}
    for _ in range(40):  # each plays its own turns with its key
        view = client.get(f"/v1/games/{game['id']}").get_json()
        if view["status"] == "finished":
            break
        play_turn = keys[view["to_act"][0]]
        mine = client.get(f"/v1/games/{game['id']}", headers=play_turn).get_json()
        client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": mine["legal_actions"][0], "expected_version": mine["version"]},
            headers=play_turn,
        )
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"
    assert play_mine  # (the tournaments' helper plays against bots; here both seats are people)


def test_seeks_that_disagree_are_cancelled_or_blocked_never_meet(client: FlaskClient, platform: Platform) -> None:
    keys = {name: register(client, name)[1] for name in ("ann", "bob", "cyd", "dee", "eve", "fay")}
    seek(client, keys["ann"], clock={"initial": 60})
    seek(client, keys["bob"], clock={"initial": 120})  # another clock
    seek(client, keys["cyd"], rated=True)  # rated, the others not
    seek(client, keys["ann"])  # ann's own two seeks never meet each other
    assert seek(client, keys["ann"]).status_code == 201
    cancelled = seek(client, keys["dee"]).get_json()["id"]
    assert client.delete(f"/v1/seeks/{cancelled}", headers=keys["dee"]).status_code == 204
    assert client.delete(f"/v1/seeks/{cancelled}", headers=keys["dee"]).status_code == 409
    assert client.put("/v1/players/me/blocks/ann", headers=keys["eve"]).status_code == 204
    seek(client, keys["eve"])  # blocks ann: they are never matched
    assert match(platform, "tiny") == 0
    assert client.get(f"/v1/seeks/{cancelled}").get_json()["status"] == "cancelled"
    # fay, with a width of 0 and the same rating, meets ann (not eve: eve blocks ann first in line)
    seek(client, keys["fay"], width=0)
    assert match(platform, "tiny") == 1
    games = {s["game"] for s in (client.get(f"/v1/seeks/{i}").get_json() for i in _ids(platform)) if s["game"]}
    assert len(games) == 1
    players = {s["name"] for s in client.get(f"/v1/games/{games.pop()}").get_json()["seats"]}
    assert players == {"ann", "fay"}


def _ids(platform: Platform) -> list[str]:
    return [
        key.decode().rsplit(":", 1)[1] for key in platform.redis.scan_iter(match=f"{platform.config.prefix}:seek:*")
    ]


def test_ten_seekers_matched_by_four_workers_at_once_fill_each_seek_once(
    client: FlaskClient, platform: Platform
) -> None:
    keys = [register(client, f"seeker{n}")[1] for n in range(10)]
    seek_ids = [seek(client, key).get_json()["id"] for key in keys]
    made: list[int] = []
    threads = [threading.Thread(target=lambda: made.append(match(platform, "tiny"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(made) == 5
    seeks = [client.get(f"/v1/seeks/{i}").get_json() for i in seek_ids]
    assert all(s["status"] == "filled" for s in seeks)
    games: dict[str, list[str]] = {}
    for s in seeks:
        games.setdefault(s["game"], []).append(s["player"]["name"])
    assert len(games) == 5 and all(len(set(names)) == 2 for names in games.values()), games


def test_a_hostile_client_cannot_cancel_anothers_seek_flood_or_seek_anonymously(client: FlaskClient) -> None:
    _, ann = register(client, "ann")
    _, mallory = register(client, "mallory")
    mine = seek(client, ann).get_json()["id"]
    assert client.delete(f"/v1/seeks/{mine}", headers=mallory).status_code == 404
    assert client.delete(f"/v1/seeks/{mine}").status_code == 401
    assert seek(client, {}).status_code == 401
    for n in range(2):
        assert seek(client, mallory).status_code == 201, n
    seek(client, mallory)
    flood = seek(client, mallory)
    assert flood.status_code == 429 and flood.get_json()["code"] == "rate_limited"
    for wrong, status in [
        ({"kind": "no-such-kind"}, 404),
        ({"players": 3}, 422),
        ({"width": 5000}, 422),
        ({"rated": "yes"}, 422),
        ({"extra": 1}, 422),
    ]:
        answer = client.post("/v1/seeks", json={"kind": "tiny", **wrong}, headers=ann)
        assert answer.status_code == status and answer.mimetype == "application/problem+json", (
            wrong,
            answer.get_json(),
        )
    assert client.get("/v1/seeks").status_code == 422
    assert client.get("/v1/seeks/sk_nothing").status_code == 404


def test_a_match_a_dead_worker_took_is_made_once_by_the_next(client: FlaskClient, platform: Platform) -> None:
    from core.seeks import match_id

    keys = [register(client, name)[1] for name in ("ann", "bob")]
    ids = [seek(client, key).get_json()["id"] for key in keys]
    now = int(time.time() * 1000)
    assert platform.seeks.take("tiny", ids, match_id(ids), now)  # and the worker died here
    assert match(platform, "tiny", now_ms=now + 1000) == 0, "a live worker may still be making it"
    assert match(platform, "tiny", now_ms=now + 120_000) == 1
    assert match(platform, "tiny", now_ms=now + 240_000) == 0, "made once"
    games = {client.get(f"/v1/seeks/{i}").get_json()["game"] for i in ids}
    assert len(games) == 1 and None not in games
