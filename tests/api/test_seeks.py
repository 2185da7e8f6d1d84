"""Matchmaking (``core.seeks``) over HTTP: two players' seeks meet, by a worker, in a game
both play to its end, each told on its stream; seeks that disagree (clock, rated, rating
outside a width), a cancelled one, a player's own and a blocked pair never meet; ten
seekers seeking and matching at once over threads fill each seek once; with the queue away
a seek is kept and the reconcile matches it; a hostile client cannot cancel another's seek,
flood, or seek anonymously."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import Queue

from core.jobs import queue_names
from core.seeks import match_id
from stores.platform import Platform
from tests.api.test_players import register, stream_events
from tests.conftest import burst_worker
from workers import runtime, wiring
from workers.matchmaking import match, reconcile_seeks


@pytest.fixture
def worker(platform: Platform) -> Iterator[Platform]:
    """The jobs an RQ worker runs here act through ``platform``."""
    wiring.use(platform)
    yield platform
    runtime._override.remove(platform)


def seek(client: FlaskClient, key: dict[str, str], **fields: Any) -> Any:
    return client.post("/v1/seeks", json={"kind": "tiny", **fields}, headers=key)


def queued(platform: Platform) -> int:
    return Queue(queue_names(platform.config.prefix)[0], connection=platform.queue_redis).count


class Away:
    """A queue's Redis that cannot be reached."""

    def __getattr__(self, name: str) -> Any:
        raise redis.ConnectionError("the queue's Redis is away")


def rate(platform: Platform, player_id: str, rating: float) -> None:
    """Given: the ratings read model holds ``rating`` for the player at tiny."""
    entry = {"rating": rating, "rd": 60.0, "vol": 0.06, "games": 10}
    platform.redis.hset(platform.ratings.key("current", "tiny"), player_id, json.dumps(entry))


def test_two_seeks_meet_by_a_worker_in_a_game_both_play_to_its_end(client: FlaskClient, worker: Platform) -> None:
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    first = seek(client, ann_key, clock={"initial": 300, "increment": 2})
    assert first.status_code == 201, first.get_json()
    assert first.get_json()["rating"] == 1500 and first.get_json()["status"] == "open"
    lobby = client.get("/v1/seeks?kind=tiny").get_json()
    assert [s["player"]["name"] for s in lobby["seeks"]] == ["ann"] and lobby["total"] == 1
    burst_worker(list(queue_names(worker.config.prefix)), worker.queue_redis)
    assert client.get(f"/v1/seeks/{first.get_json()['id']}").get_json()["status"] == "open", "alone: nobody to meet"
    second = seek(client, bob_key, clock={"initial": 300, "increment": 2})
    assert second.status_code == 201
    burst_worker(list(queue_names(worker.config.prefix)), worker.queue_redis)
    filled = client.get(f"/v1/seeks/{first.get_json()['id']}").get_json()
    again = client.get(f"/v1/seeks/{second.get_json()['id']}").get_json()
    assert filled["status"] == again["status"] == "filled" and filled["game"] == again["game"]
    game = client.get(f"/v1/games/{filled['game']}").get_json()
    assert {s["player"] for s in game["seats"]} == {ann["id"], bob["id"]} and game["clock"] is not None
    for key, mine in ((ann_key, first), (bob_key, second)):
        [(_, event, told)] = stream_events(client, key, 1)
        assert event == "seek_filled" and told["game"] == filled["game"] and told["seek"] == mine.get_json()["id"]
        assert game["seats"][told["seat"]]["name"] == mine.get_json()["player"]["name"], "the seat it was given"
    assert client.get("/v1/seeks?kind=tiny").get_json()["seeks"] == []
    keys = {s["seat"]: (ann_key if s["player"] == ann["id"] else bob_key) for s in game["seats"]}
    for _ in range(40):  # each plays its own turns with its key
        view = client.get(f"/v1/games/{game['id']}").get_json()
        if view["status"] == "finished":
            break
        turn = keys[view["to_act"][0]]
        mine = client.get(f"/v1/games/{game['id']}", headers=turn).get_json()
        answer = client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": mine["legal_actions"][0], "expected_version": mine["version"]},
            headers=turn,
        )
        assert answer.status_code == 200, answer.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"


def test_seeks_that_disagree_are_cancelled_or_blocked_never_meet(client: FlaskClient, platform: Platform) -> None:
    keys = {name: register(client, name)[1] for name in ("ann", "bob", "cyd", "dee", "eve", "fay")}
    seek(client, keys["ann"], clock={"initial": 60})
    seek(client, keys["bob"], clock={"initial": 120})  # another clock
    seek(client, keys["cyd"], rated=True)  # rated, the others not
    own = seek(client, keys["ann"]).get_json()
    again = seek(client, keys["ann"])  # the same seek again: the one open, not a second
    assert again.status_code == 200 and again.get_json()["id"] == own["id"]
    assert seek(client, keys["ann"], width=500).status_code == 201  # ann's own seeks never meet each other
    cancelled = seek(client, keys["dee"]).get_json()["id"]
    assert client.delete(f"/v1/seeks/{cancelled}", headers=keys["dee"]).status_code == 204
    refused = client.delete(f"/v1/seeks/{cancelled}", headers=keys["dee"])
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_in_play"
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


def test_a_rating_outside_either_seekers_width_never_meets(client: FlaskClient, platform: Platform) -> None:
    (ann, ann_key), (gus, gus_key), (hal, hal_key) = (register(client, n) for n in ("ann", "gus", "hal"))
    rate(platform, gus["id"], 1800.4)
    rate(platform, hal["id"], 1620)
    wide = seek(client, ann_key, width=100).get_json()
    assert wide["rating"] == 1500
    strong = seek(client, gus_key).get_json()  # anyone for gus; but 300 is outside ann's 100
    assert strong["rating"] == 1800
    assert match(platform, "tiny") == 0
    seek(client, hal_key, width=150)  # ann is 120 from hal, inside hal's 150; hal is outside ann's 100
    assert match(platform, "tiny") == 0
    assert client.delete(f"/v1/seeks/{wide['id']}", headers=ann_key).status_code == 204
    seek(client, ann_key, width=200)  # now hal (120 away) is inside; gus (300) still is not
    assert match(platform, "tiny") == 1
    lobby = client.get("/v1/seeks?kind=tiny").get_json()["seeks"]
    assert [(s["player"]["name"], s["rating"]) for s in lobby] == [("gus", 1800)]


def _ids(platform: Platform) -> list[str]:
    return [
        key.decode().rsplit(":", 1)[1] for key in platform.redis.scan_iter(match=f"{platform.config.prefix}:seek:*")
    ]


def test_ten_seekers_seeking_and_matching_at_once_fill_each_seek_once(app: Flask, platform: Platform) -> None:
    keys = [register(app.test_client(), f"seeker{n}")[1] for n in range(10)]
    seek_ids: list[str] = []
    made: list[int] = []
    start = threading.Barrier(10)

    def seeker(key: dict[str, str]) -> None:
        client = app.test_client()
        start.wait()
        answer = seek(client, key)
        assert answer.status_code == 201
        seek_ids.append(answer.get_json()["id"])
        for _ in range(3):  # each a worker too: matching while others seek and match
            made.append(match(platform, "tiny"))

    threads = [threading.Thread(target=seeker, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made.append(match(platform, "tiny"))
    assert len(seek_ids) == 10 and sum(made) == 5
    client = app.test_client()
    seeks = [client.get(f"/v1/seeks/{i}").get_json() for i in seek_ids]
    assert all(s["status"] == "filled" for s in seeks)
    games = {s["game"] for s in seeks}
    seated = [seat["player"] for g in games for seat in client.get(f"/v1/games/{g}").get_json()["seats"]]
    assert len(games) == 5 and len(seated) == 10 and len(set(seated)) == 10, "nobody seated twice"


def test_with_the_queue_away_a_seek_is_kept_and_the_reconcile_matches_it(client: FlaskClient, worker: Platform) -> None:
    _, ann_key = register(client, "ann")
    _, bob_key = register(client, "bob")
    queue = worker.queue_redis
    worker.queue_redis = Away()
    kept = seek(client, ann_key)
    assert kept.status_code == 201, kept.get_json()
    worker.queue_redis = queue
    assert queued(worker) == 0
    assert reconcile_seeks(worker) == 1 and queued(worker) == 1
    seek(client, bob_key)
    assert queued(worker) == 1, "a run already queued reads bob's seek too: one run for the burst"
    burst_worker(list(queue_names(worker.config.prefix)), worker.queue_redis)
    assert client.get(f"/v1/seeks/{kept.get_json()['id']}").get_json()["status"] == "filled"
    seek(client, bob_key, width=10)
    assert queued(worker) == 1, "after that run started, a new seek queues a run of its own"


def test_a_hostile_client_cannot_cancel_anothers_seek_flood_or_seek_anonymously(client: FlaskClient) -> None:
    _, ann = register(client, "ann")
    _, mallory = register(client, "mallory")
    mine = seek(client, ann).get_json()
    assert "key" not in json.dumps(mine) and "key" not in json.dumps(client.get(f"/v1/seeks/{mine['id']}").get_json())
    assert client.delete(f"/v1/seeks/{mine['id']}", headers=mallory).status_code == 404
    assert client.delete(f"/v1/seeks/{mine['id']}").status_code == 401
    assert client.get(f"/v1/seeks/{mine['id']}").get_json()["status"] == "open"
    assert seek(client, {}).status_code == 401
    for width in (1, 2, 3):
        assert seek(client, mallory, width=width).status_code == 201, width
    flood = seek(client, mallory, width=4)
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


def test_a_seek_expires_after_its_time(client: FlaskClient, platform: Platform) -> None:
    _, ann_key = register(client, "ann")
    old = seek(client, ann_key).get_json()
    later = int(time.time() * 1000) + 31 * 60 * 1000
    assert match(platform, "tiny", now_ms=later) == 0
    assert client.get(f"/v1/seeks/{old['id']}").get_json()["status"] == "expired"
    assert client.delete(f"/v1/seeks/{old['id']}", headers=ann_key).status_code == 409
    assert seek(client, ann_key).status_code == 201, "an expired seek is not the one open"


def test_a_match_a_dead_worker_took_is_made_once_by_the_next(client: FlaskClient, platform: Platform) -> None:
    keys = [register(client, name)[1] for name in ("ann", "bob")]
    ids = [seek(client, key).get_json()["id"] for key in keys]
    now = int(time.time() * 1000)
    assert platform.seeks.take("tiny", ids, match_id(ids), now)  # and the worker died here
    assert match(platform, "tiny", now_ms=now + 1000) == 0, "a live worker may still be making it"
    assert match(platform, "tiny", now_ms=now + 120_000) == 1
    assert match(platform, "tiny", now_ms=now + 240_000) == 0, "made once"
    games = {client.get(f"/v1/seeks/{i}").get_json()["game"] for i in ids}
    assert len(games) == 1 and None not in games
