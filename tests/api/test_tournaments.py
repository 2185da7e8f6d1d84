"""Tournaments (``core.tournaments``) over HTTP: a Swiss tournament of 8, one player and seven
bots filling the seats, runs its three rounds to its standings, paired by the worker's
step; nobody meets anyone twice, every game is linked and counted, and the standings
are what the games' outcomes say. Two workers stepping at once pair a round once; entries
and starts out of turn are refused."""

from __future__ import annotations

import itertools
import threading
from typing import Any

from flask.testing import FlaskClient
from rq import Queue
from rq.registry import ScheduledJobRegistry

from stores.platform import Platform
from tests.api.test_players import drain, register
from workers.scheduling import queue_names
from workers.tournaments import reconcile_tournaments, step

SWISS = {"kind": "tiny", "rounds": 3, "seats": 8, "fill": "random"}


def play_mine(client: FlaskClient, game_id: str, key: dict[str, str]) -> None:
    """The player's game played to its end by the player (its bot opponent answers inline)."""
    for _ in range(100):
        view = client.get(f"/v1/games/{game_id}", headers=key).get_json()
        if view["status"] == "finished":
            return
        action = view["legal_actions"][0]
        moved = client.post(
            f"/v1/games/{game_id}/actions", json={"action": action, "expected_version": view["version"]}, headers=key
        )
        assert moved.status_code == 200, moved.get_data(as_text=True)
    raise AssertionError("the game did not end")


def scheduled(platform: Platform) -> list[str]:
    registry = ScheduledJobRegistry(queue_names(platform)[0], connection=platform.queue_redis)
    return [job for job in registry.get_job_ids() if job.startswith("tournament-")]


def test_a_swiss_tournament_of_eight_with_bots_filling_seats_runs_to_its_standings(
    client: FlaskClient, platform: Platform
) -> None:
    ann, key = register(client, "ann")
    made = client.post("/v1/tournaments", json=SWISS, headers=key)
    assert made.status_code == 201, made.get_json()
    tid = made.get_json()["id"]
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=key).status_code == 200
    started = client.post(f"/v1/tournaments/{tid}/start", headers=key)
    assert started.status_code == 202 and started.get_json()["status"] == "running"
    assert scheduled(platform) or Queue(queue_names(platform)[0], connection=platform.queue_redis).job_ids, (
        "the start hands the pairing to a worker"
    )
    # Under way: the reconcile schedules its step (a queue that lost its data loses no round).
    assert platform.tournaments.running() == [tid] and reconcile_tournaments(platform) == 1
    for number in (1, 2, 3):
        assert step(platform, tid, reschedule=False) == f"round {number} paired"
        shown = client.get(f"/v1/tournaments/{tid}").get_json()
        current = shown["pairings"][-1]
        assert len(current["tables"]) == 4 and current["byes"] == []
        mine = [t["game"] for t in current["tables"] if "ann" in t["entrants"]]
        assert len(mine) == 1, "ann plays once a round"
        assert step(platform, tid, reschedule=False) == "waiting", "her game is still on"
        play_mine(client, mine[0], key)
    assert step(platform, tid, reschedule=False) == "finished"
    assert platform.tournaments.running() == [] and reconcile_tournaments(platform) == 0
    final = client.get(f"/v1/tournaments/{tid}").get_json()
    assert final["status"] == "finished" and final["round"] == 3
    # Nobody met anyone twice; every entrant played each round.
    pairs = [frozenset(t["entrants"]) for r in final["pairings"] for t in r["tables"]]
    assert len(pairs) == len(set(pairs)) == 12
    # The standings are the games' outcomes: a point a win, Buchholz the opponents' points.
    points: dict[str, float] = {}
    met: dict[str, list[str]] = {}
    for game, names in ((t["game"], t["entrants"]) for r in final["pairings"] for t in r["tables"]):
        outcome = client.get(f"/v1/games/{game}").get_json()["outcome"]
        for a, b in itertools.permutations(names, 2):
            met.setdefault(a, []).append(b)
        for seat in outcome["winners"]:
            points[names[seat]] = points.get(names[seat], 0) + 1 / len(outcome["winners"])
    rows = final["standings"]
    assert len(rows) == 8 and [row["rank"] for row in rows] == list(range(1, 9))
    for row in rows:
        assert row["points"] == points.get(row["name"], 0) and row["played"] == 3
        assert row["buchholz"] == sum(points.get(other, 0) for other in met[row["name"]])
    ordered = [(-row["points"], -row["buchholz"]) for row in rows]
    assert ordered == sorted(ordered)
    # ann's games are hers: in her list, each linked from the tournament.
    drain(platform)  # "my games" is a read model
    listed = {g["id"] for g in client.get("/v1/players/me/games", headers=key).get_json()["games"]}
    assert {t["game"] for r in final["pairings"] for t in r["tables"] if "ann" in t["entrants"]} <= listed
    assert ann["id"] in {row["entrant"] for row in rows}


def test_two_workers_stepping_at_once_pair_a_round_once(client: FlaskClient, platform: Platform) -> None:
    _, key = register(client, "ann")
    tid = client.post("/v1/tournaments", json={**SWISS, "seats": 6}, headers=key).get_json()["id"]
    client.post(f"/v1/tournaments/{tid}/start", headers=key)
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(step(platform, tid, reschedule=False))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shown = client.get(f"/v1/tournaments/{tid}").get_json()
    assert len(shown["pairings"]) >= 1 and sum(r == "round 1 paired" for r in results) == 1
    games = [t["game"] for t in shown["pairings"][0]["tables"]]
    assert len(games) == len(set(games)) == 3, "each table's game created once, whoever created it"


def test_entries_and_starts_out_of_turn_are_refused(client: FlaskClient) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    for wrong in (
        {**SWISS, "rounds": 0},
        {**SWISS, "seats": 1},
        {**SWISS, "kind": "no-such-kind"},
        {**SWISS, "format": "arena"},
        {**SWISS, "fill": "grandmaster"},
        {**SWISS, "clock": {"initial": 0}},
        {**SWISS, "extra": True},
    ):
        answer = client.post("/v1/tournaments", json=wrong, headers=ann)
        assert answer.status_code in (404, 422), (wrong, answer.get_json())
        assert answer.mimetype == "application/problem+json"
    assert client.post("/v1/tournaments", json=SWISS).status_code == 401
    small: dict[str, Any] = {"kind": "tiny", "rounds": 1, "seats": 2}
    tid = client.post("/v1/tournaments", json=small, headers=ann).get_json()["id"]
    assert client.post(f"/v1/tournaments/{tid}/start", headers=ann).status_code == 422, "no bots fill: too few"
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=ann).status_code == 200
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=ann).status_code == 409, "entered twice"
    assert client.delete(f"/v1/tournaments/{tid}/entries/me", headers=ann).status_code == 204
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=ann).status_code == 200
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=bob).status_code == 200
    _, cy = register(client, "cyd")
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=cy).status_code == 409, "no seat left"
    assert client.post(f"/v1/tournaments/{tid}/start", headers=bob).status_code == 403, "the creator's to start"
    assert client.post(f"/v1/tournaments/{tid}/start", headers=ann).status_code == 202
    assert client.post(f"/v1/tournaments/{tid}/start", headers=ann).status_code == 409
    assert client.delete(f"/v1/tournaments/{tid}/entries/me", headers=bob).status_code == 409
    assert client.get("/v1/tournaments/tn_nothing").status_code == 404
    assert tid in [t["id"] for t in client.get("/v1/tournaments").get_json()["tournaments"]]


def test_an_arena_pairs_whoever_is_free_until_its_end_then_finishes_with_its_last_games(
    client: FlaskClient, platform: Platform
) -> None:
    _, key = register(client, "ann")
    arena = {"kind": "tiny", "format": "arena", "minutes": 5, "seats": 4, "fill": "random"}
    tid = client.post("/v1/tournaments", json=arena, headers=key).get_json()["id"]
    assert client.post(f"/v1/tournaments/{tid}/entries", headers=key).status_code == 200
    started = client.post(f"/v1/tournaments/{tid}/start", headers=key).get_json()
    assert started["format"] == "arena" and started["rounds"] == 0
    ends = started["ends_at"]
    assert step(platform, tid, reschedule=False, now_ms=ends - 60_000) == "wave 1 paired"

    def ann_game() -> str:
        shown = client.get(f"/v1/tournaments/{tid}").get_json()
        return [t["game"] for r in shown["pairings"] for t in r["tables"] if "ann" in t["entrants"]][-1]

    first = ann_game()
    # The bots' game ended at once: those two are paired again while ann still plays.
    assert step(platform, tid, reschedule=False, now_ms=ends - 50_000) == "wave 2 paired"
    shown = client.get(f"/v1/tournaments/{tid}").get_json()
    assert all("ann" not in t["entrants"] for t in shown["pairings"][1]["tables"])
    play_mine(client, first, key)
    opponent = next(t for t in shown["pairings"][0]["tables"] if "ann" in t["entrants"])["entrants"]
    assert step(platform, tid, reschedule=False, now_ms=ends - 40_000) == "wave 3 paired"
    second = client.get(f"/v1/tournaments/{tid}").get_json()["pairings"][2]
    ann_table = next(t for t in second["tables"] if "ann" in t["entrants"])["entrants"]
    assert set(ann_table) != set(opponent), "not the opponent she just met, when another is free"
    # Time is up: no new pairing; the tournament ends once ann's last game does.
    assert step(platform, tid, reschedule=False, now_ms=ends) == "waiting"
    play_mine(client, ann_game(), key)
    assert step(platform, tid, reschedule=False, now_ms=ends + 1) == "finished"
    final = client.get(f"/v1/tournaments/{tid}").get_json()
    assert final["status"] == "finished" and len(final["pairings"]) == 3
    assert sum(row["points"] for row in final["standings"]) == sum(len(r["tables"]) for r in final["pairings"])
