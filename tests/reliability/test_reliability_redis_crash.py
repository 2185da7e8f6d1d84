"""Under a steady load of actions through the real API, `kill -9`
the Redis process 20 times and restart it. Every action a client saw acknowledged is in
the log afterwards (the client's own record against the stored events and hashes),
every game's hash chain verifies, every game folds and passes its audit."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

from core.config import Config
from events.envelope import verify_chain
from projections.audit import audit_entries
from stores.platform import Platform
from tests.reliability.procs import Api, RedisServer, service_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KILLS = 20
CLIENTS = 4
KINDS = ["fortress-royals", "fortress-siege", "dragoborne", "stomping-grounds"]


class Player:
    """A client that plays one game with both seats' tokens, retrying an unanswered action
    with the same key until it gets an answer, and recording what was acknowledged."""

    def __init__(self, base: str, kind: str, seed: int) -> None:
        self.base, self.kind = base, kind
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.acked: list[tuple[str, int, str, dict[str, Any]]] = []  # game, seat, key, answer
        self.unanswered = 0
        self.retries = 0
        self.game: dict[str, Any] = {}
        self.games: list[str] = []

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response | None:
        try:
            return self.session.request(method, f"{self.base}{path}", timeout=10, **kwargs)
        except requests.RequestException:
            return None

    def new_game(self, stop: threading.Event) -> None:
        while not stop.is_set():
            players = [{"name": "ann"}, {"name": "bob"}]
            response = self.request("POST", "/v1/games", json={"kind": self.kind, "players": players})
            if response is not None and response.status_code == 201:
                self.game = response.json()
                self.games.append(self.game["id"])
                return
            time.sleep(0.05)

    def play(self, stop: threading.Event) -> None:
        self.new_game(stop)
        while not stop.is_set():
            game_id = self.game["id"]
            probe = self.request("GET", f"/v1/games/{game_id}")
            if probe is None or probe.status_code != 200:
                time.sleep(0.05)
                continue
            summary = probe.json()
            if summary["status"] != "active":
                self.new_game(stop)
                continue
            seat = self.rng.choice(summary["to_act"])
            auth = {"Authorization": f"Bearer {self.game['seats'][seat]['token']}"}
            view = self.request("GET", f"/v1/games/{game_id}", headers=auth)
            if view is None or view.status_code != 200 or not view.json()["legal_actions"]:
                continue
            body = {"action": self.rng.choice(view.json()["legal_actions"]), "expected_version": view.json()["version"]}
            key = uuid.uuid4().hex
            for attempt in range(200):
                answer = self.request(
                    "POST", f"/v1/games/{game_id}/actions", json=body, headers={**auth, "Idempotency-Key": key}
                )
                if answer is not None and answer.status_code < 500:
                    break
                self.retries += 1
                time.sleep(0.05)
                if stop.is_set() and attempt > 20:
                    answer = None
                    break
            else:
                answer = None
            if answer is None:
                self.unanswered += 1
            elif answer.status_code == 200:
                self.acked.append((game_id, seat, key, answer.json()))
            else:
                assert answer.status_code == 409, answer.text


def test_kill_9_redis_twenty_times_under_load_loses_no_acknowledged_action(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    server = own_redis
    prefix = "crash"
    api = Api(service_env(server.url, prefix), tmp_path / "api.log").start()
    players = [Player(api.base, KINDS[i % len(KINDS)], i) for i in range(CLIENTS)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            player.play(stop)
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in players]
    rng = random.Random(12)
    started = time.monotonic()
    try:
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        acked_at_kill = []
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.2, 0.6))
            acked_at_kill.append(sum(len(p.acked) for p in players))
            server.kill9()
            time.sleep(rng.uniform(0.0, 0.2))
            server.start()
        time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not errors, errors[0]
    finally:
        stop.set()
        api.stop()

    acked = [a for p in players for a in p.acked]
    elapsed = time.monotonic() - started
    print(
        f"redis crash: {KILLS} kill -9 of Redis in {elapsed:.1f} s; {len(acked)} actions acknowledged "
        f"(acknowledged before each kill: {acked_at_kill}); {sum(p.retries for p in players)} sends retried, "
        f"{sum(p.unanswered for p in players)} abandoned unanswered"
    )
    assert len(acked) > KILLS, "the load was not steady enough to mean anything"
    assert acked_at_kill[-1] > acked_at_kill[0]

    platform = Platform(Config(redis_url=server.url, prefix=prefix), server.client())
    missing = []
    for game_id, seat, key, answer in acked:
        versions = [e["version"] for e in answer["events"]]
        stored = {e.version: e for e in platform.store.read(game_id, after=versions[0] - 1, limit=len(versions))}
        for event in answer["events"]:
            found = stored.get(event["version"])
            if found is None or found.command_id != f"seat-{seat}:{key}" or found.type != event["type"]:
                missing.append((game_id, event["version"], key))
            elif "hash" in event and found.hash != event["hash"]:
                missing.append((game_id, event["version"], "hash differs"))
    games = [g for p in players for g in p.games]
    broken, unfolded = [], []
    for game_id in games:
        raw = platform.store.read_raw(game_id)
        if not verify_chain(raw).ok:
            broken.append(game_id)
        folded = platform.tables.fold(game_id, None, platform.store.read(game_id))
        report = audit_entries(game_id, raw, platform.vault.seed(game_id), platform.snapshots.get(game_id))
        if not report.ok or folded.version != len(raw):
            unfolded.append((game_id, report.reason))
    print(
        f"redis crash: acknowledged actions missing from the log: {len(missing)}; games {len(games)}, "
        f"chains broken {len(broken)}, games that do not fold or audit {len(unfolded)}"
    )
    assert not missing, missing[:5]
    assert not broken and not unfolded, (broken, unfolded)
