"""The read models over the API: statistics per kind, and a rebuild from zero as a job
that only the operator may start (design.md, "Workers": "projection rebuilds are jobs
too, with progress visible through the API")."""

from __future__ import annotations

import random
from dataclasses import replace

from flask.testing import FlaskClient

from service.app import create_app
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from workers import wiring
from workers.projector import Projector
from workers.scheduling import InlineBots

OPERATOR = "operator-token-for-tests"


def operated(platform: Platform, admin_token: str | None) -> tuple[Platform, FlaskClient]:
    p = Platform(replace(platform.config, admin_token=admin_token), platform.redis)
    p.handler.scheduler = InlineBots(p)
    wiring.use(p)
    return p, create_app(p.config, p).test_client()


def finished_games(platform: Platform, count: int) -> list[dict]:
    rng = random.Random(3)
    tables = [play(platform, platform.handler.create_game("tiny", humans(2)).table, rng) for _ in range(count)]
    assert all(t.status == "finished" for t in tables)
    return [t.summary() for t in tables]


def test_stats_count_games_lengths_and_wins_by_seat_and_level(platform: Platform) -> None:
    p, client = operated(platform, None)
    projector = Projector(p, "stats-test")
    projector.ensure_group()
    done = finished_games(p, 3)
    p.handler.create_game("tiny", humans(2))
    while projector.step(block_ms=10):
        pass
    stats = client.get("/v1/stats").get_json()["kinds"]["tiny"]
    assert stats["games"] == 4 and stats["finished"] == 3
    assert stats["average_versions"] == round(sum(g["version"] for g in done) / 3, 1)
    winners = [seat for g in done for seat in g["outcome"]["winners"]]
    assert {int(seat): n for seat, n in stats["wins_by_seat"].items()} == {s: winners.count(s) for s in set(winners)}
    assert stats["wins_by_level"] == {"human": len(winners)}


def test_only_the_operator_starts_a_rebuild_and_its_job_rebuilds_what_live_play_built(platform: Platform) -> None:
    p, client = operated(platform, OPERATOR)
    projector = Projector(p, "rebuild-test")
    projector.ensure_group()
    finished_games(p, 2)
    game = client.post("/v1/games", json={"kind": "tiny", "players": humans(2)}).get_json()
    seat_token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    while projector.step(block_ms=10):
        pass
    live = projector.models.snapshot()

    assert client.post("/v1/projections/rebuilds").status_code == 401
    for headers in (seat_token, {"Authorization": "Bearer not-the-operator"}):
        refused = client.post("/v1/projections/rebuilds", headers=headers)
        assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden", refused.get_data(as_text=True)
    _, closed = operated(platform, None)
    assert closed.post("/v1/projections/rebuilds", headers={"Authorization": f"Bearer {OPERATOR}"}).status_code == 403

    _, client = operated(platform, OPERATOR)
    projector.models.clear()
    assert projector.models.snapshot() != live
    queued = client.post("/v1/projections/rebuilds", headers={"Authorization": f"Bearer {OPERATOR}"})
    assert queued.status_code == 202, queued.get_data(as_text=True)
    operator = {"Authorization": f"Bearer {OPERATOR}"}
    job = client.get(queued.headers["Location"], headers=operator).get_json()
    assert job["kind"] == "rebuild" and job["status"] == "finished"
    assert job["progress"]["done"] == job["progress"]["total"] == 3
    assert client.get(job["result"], headers=operator).get_json() == {"games": 3}
    # The operator's job is the operator's: to anyone else it does not exist.
    assert client.get(queued.headers["Location"]).status_code == 404
    assert client.get(job["result"], headers={"Authorization": "Bearer someone-else"}).status_code == 404
    assert projector.models.snapshot() == live
