"""Concurrency, against a real `tablestream serve` on a Redis of the test's own.

1. Conflicts: trials of 32 concurrent clients acting at the same version: exactly one
   accepted each, the rest 409 stale_version (or game_over, when the accepted action ended
   the game); versions gap-free; no command appended twice.
2. Idempotency: the same action with the same key sent 10 times, some at once, some after
   the API process restarts: one event batch, identical answers.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests

from events.envelope import Envelope, verify_chain
from events.redis_store import RedisEventStore
from tests.reliability.procs import Api, RedisServer, service_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

TRIALS = 200
CLIENTS = 32
KIND = "fortress-royals"
SHARED_KEY = f"move-{uuid.uuid4().hex}"


def new_game(base: str) -> dict[str, Any]:
    response = requests.post(
        f"{base}/v1/games", json={"kind": KIND, "players": [{"name": "ann"}, {"name": "bob"}]}, timeout=10
    )
    assert response.status_code == 201, response.text
    return response.json()


def seat_to_act(base: str, game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A token of a seat to act and that seat's view (with its legal actions); when the
    game has ended (the last trial's winning action may end it), no token and the
    spectator view."""
    probe = requests.get(f"{base}/v1/games/{game['id']}", timeout=10).json()
    if probe["status"] != "active" or not probe["to_act"]:
        return "", probe
    seat = probe["to_act"][0]
    token = game["seats"][seat]["token"]
    view = requests.get(f"{base}/v1/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return token, view.json()


def test_32_clients_at_one_version_one_wins_in_every_trial(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "conflicts"
    api = Api(service_env(own_redis.url, prefix), tmp_path / "api.log").start()
    try:
        sessions = [requests.Session() for _ in range(CLIENTS)]
        start, done = threading.Barrier(CLIENTS + 1), threading.Barrier(CLIENTS + 1)
        trial: dict[str, Any] = {}
        answers: list[tuple[int, dict[str, Any]] | None] = [None] * CLIENTS
        stop = threading.Event()

        def client(index: int) -> None:
            while True:
                start.wait()
                if stop.is_set():
                    return
                actions = trial["legal"]
                try:
                    response = sessions[index].post(
                        f"{api.base}/v1/games/{trial['game']}/actions",
                        json={"action": actions[index % len(actions)], "expected_version": trial["version"]},
                        headers={
                            "Authorization": f"Bearer {trial['token']}",
                            "Idempotency-Key": f"t{trial['n']}-c{index}",
                        },
                        timeout=30,
                    )
                    answers[index] = (response.status_code, response.json())
                except requests.RequestException as error:
                    answers[index] = (0, {"error": str(error)})
                done.wait()

        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        games: dict[str, int] = Counter()
        accepted_keys: dict[str, list[str]] = {}
        bad_trials = []
        game = new_game(api.base)
        for n in range(TRIALS):
            token, view = seat_to_act(api.base, game)
            if view["status"] != "active" or not view.get("legal_actions"):
                game = new_game(api.base)
                token, view = seat_to_act(api.base, game)
            trial.update(n=n, game=game["id"], token=token, version=view["version"], legal=view["legal_actions"])
            answers[:] = [None] * CLIENTS
            start.wait()
            done.wait()
            statuses = Counter(a[0] for a in answers if a is not None)
            refusals = {a[1].get("code") for a in answers if a is not None and a[0] != 200}
            if "game_over" in refusals:  # a loser answered after the winner's action ended the game
                ended = requests.get(f"{api.base}/v1/games/{game['id']}", timeout=10).json()["status"] == "finished"
                refusals = refusals - {"game_over"} | {"stale_version"} if ended else refusals
            if statuses != Counter({200: 1, 409: CLIENTS - 1}) or refusals != {"stale_version"}:
                bad_trials.append((n, dict(statuses), refusals))
            winners = [i for i, a in enumerate(answers) if a is not None and a[0] == 200]
            games[game["id"]] += len(winners)
            accepted_keys.setdefault(game["id"], []).extend(f"t{n}-c{i}" for i in winners)
        stop.set()
        start.wait()
        elapsed = time.monotonic() - started
        print(
            f"conflicts: {TRIALS} trials x {CLIENTS} clients in {elapsed:.1f} s over {len(games)} games; "
            f"trials with other than one 200 and {CLIENTS - 1} 409: {len(bad_trials)}"
        )
        assert not bad_trials, bad_trials[:5]

        store = RedisEventStore(own_redis.client(), prefix)
        duplicates = 0
        for game_id, accepted in games.items():
            raw = store.read_raw(game_id)
            assert [v for v, _ in raw] == list(range(1, len(raw) + 1)), "versions are not gap-free"
            assert verify_chain(raw).ok
            commands = [Envelope.decode(t).command_id or "" for _, t in raw if Envelope.decode(t).type == "ActionTaken"]
            duplicates += len(commands) - len(set(commands))
            assert len(commands) == accepted, f"{game_id}: {len(commands)} actions logged, {accepted} accepted"
            assert {c.split(":", 1)[-1] for c in commands} == set(accepted_keys[game_id])
        print(
            f"conflicts: versions gap-free and chains verified in {len(games)} games; duplicate commands: {duplicates}"
        )
        assert duplicates == 0
    finally:
        api.stop()


def play_until_another_seat_acts(base: str, game: dict[str, Any], token: str) -> requests.Response:
    """Play (with fresh keys) until a seat other than ``token``'s is to act, then send its
    action under ``token``'s key: a key is the caller's own, so this is a new action."""
    for _ in range(50):
        other, view = seat_to_act(base, game)
        headers = {"Authorization": f"Bearer {other}"}
        body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
        if other != token:
            return requests.post(
                f"{base}/v1/games/{game['id']}/actions",
                json=body,
                headers={**headers, "Idempotency-Key": SHARED_KEY},
                timeout=10,
            )
        requests.post(f"{base}/v1/games/{game['id']}/actions", json=body, headers=headers, timeout=10)
    raise AssertionError("the other seat never came to act")


def test_the_same_key_ten_times_across_an_api_restart_appends_once(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "idempotency"
    env = service_env(own_redis.url, prefix)
    api = Api(env, tmp_path / "api.log").start()
    try:
        game = new_game(api.base)
        token, view = seat_to_act(api.base, game)
        key = SHARED_KEY
        action = view["legal_actions"][0]
        answers: list[requests.Response] = []
        lock = threading.Lock()

        def send() -> None:
            response = requests.post(
                f"{api.base}/v1/games/{game['id']}/actions",
                json={"action": action, "expected_version": view["version"]},
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
                timeout=30,
            )
            with lock:
                answers.append(response)

        together = [threading.Thread(target=send) for _ in range(4)]
        for thread in together:
            thread.start()
        for thread in together:
            thread.join()
        for _ in range(2):
            send()
        api.stop()
        api = Api(env, tmp_path / "api2.log").start()
        for _ in range(4):
            send()
        other_seat = play_until_another_seat_acts(api.base, game, token)
    finally:
        api.stop()

    other_seat.raise_for_status()
    statuses = [a.status_code for a in answers]
    bodies = [a.json() for a in answers]
    first = [b for b in bodies if b.get("duplicate") is False]
    comparable = [{k: v for k, v in b.items() if k != "duplicate"} for b in bodies]
    distinct = {json.dumps(c, sort_keys=True) for c in comparable}
    store = RedisEventStore(own_redis.client(), prefix)
    with_key = [e for e in store.read(game["id"]) if e.command_id and e.command_id.endswith(key)]
    first_command = with_key[0].command_id
    logged = [e for e in with_key if e.command_id == first_command]
    taken = [e for e in logged if e.type == "ActionTaken"]
    print(
        f"idempotency: {len(answers)} sends (4 at once, 2 more, then 4 after an API restart): statuses "
        f"{dict(Counter(statuses))}, distinct answers {len(distinct)}, "
        f"ActionTaken logged {len(taken)}, events logged {len(logged)}"
    )
    assert len(answers) == 10 and statuses == [200] * 10
    assert len(first) == 1, "exactly one answer is the original, the rest are marked as replays"
    assert len(distinct) == 1, "answers differ"
    assert len(taken) == 1
    print(
        "idempotency: the same key from another seat is that seat's own action: "
        f"{other_seat.json()['duplicate'] is False}"
    )
    assert other_seat.json()["duplicate"] is False
    seats = [e.seat for e in with_key if e.type == "ActionTaken"]
    assert len(seats) == 2 and seats[0] != seats[1], seats
    assert logged[-1].version == comparable[0]["version"]
