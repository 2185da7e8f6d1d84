"""Post-game analysis over HTTP (``core.analysis``): asked of a finished game, run by a
worker as a job, kept as the game's read model: every decision where the seat had a
choice, the move played and the one the search prefers, the seat's expected score with
each, and the costliest few marked; a game in play is refused, and nothing is appended."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from core.analysis import analyse
from games.ismcts import action_key
from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny
from tests.conftest import burst_worker
from workers import wiring
from workers.scheduling import queue_names


def play_out(client: FlaskClient, game: dict, seed: int) -> None:
    rng = random.Random(seed)
    tokens = [bearer(s["token"]) for s in game["seats"]]
    for _ in range(60):
        view = client.get(f"/v1/games/{game['id']}", headers=tokens[0]).get_json()
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        legal = client.get(f"/v1/games/{game['id']}", headers=tokens[seat]).get_json()["legal_actions"]
        action = rng.choice(legal)
        answer = client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": action, "expected_version": view["version"]},
            headers=tokens[seat],
        )
        assert answer.status_code == 200, answer.get_json()
    raise AssertionError("the game did not end")


def test_a_finished_game_is_analysed_by_a_worker_decision_by_decision(client: FlaskClient, platform: Platform) -> None:
    wiring.use(platform)
    game = new_tiny(client)
    assert client.post(f"/v1/games/{game['id']}/analyses").status_code == 409, "not while it is played"
    assert client.get(f"/v1/games/{game['id']}/analysis").status_code == 404
    play_out(client, game, 7)
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    started = client.post(f"/v1/games/{game['id']}/analyses")
    assert started.status_code == 202, started.get_json()
    burst_worker(list(queue_names(platform)), platform.queue_redis)
    job = client.get(started.headers["Location"]).get_json()
    assert job["status"] == "finished", job
    found = client.get(f"/v1/games/{game['id']}/analysis")
    assert found.status_code == 200
    analysis = found.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == version, "nothing appended"
    events = {e.version: e for e in platform.store.read(game["id"])}
    taken = [e for e in events.values() if e.type == "ActionTaken"]
    assert [d["version"] for d in analysis["decisions"]] == [e.version for e in taken], "every choice (tiny: 2-3 each)"
    for decision in analysis["decisions"]:
        event = events[decision["version"]]
        assert decision["seat"] == event.seat and decision["played"] == event.data["action"]
        table = platform.tables.at(game["id"], decision["version"] - 1)
        legal = [action_key(a) for a in table.game.legal_actions(table.state, decision["seat"])]
        assert action_key(decision["preferred"]) in legal and decision["choices"] == len(legal)
        assert 0.0 <= decision["after"] <= 1.0 and 0.0 <= decision["before"] <= 1.0
        assert abs(decision["cost"] - max(0.0, decision["before"] - decision["after"])) < 1e-3
        if decision["played"] == decision["preferred"]:
            assert decision["cost"] == 0
    for seat in (0, 1):
        marked = [d for d in analysis["decisions"] if d["seat"] == seat and d.get("costly")]
        assert len(marked) <= 3 and all(d["cost"] > 0 for d in marked)
    # The same game and budget give the same analysis: a read model anyone can rebuild.
    assert analyse(platform, game["id"], analysis["iterations"]) == analysis
