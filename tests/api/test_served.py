"""Against a running `tablestream serve` (real HTTP, gunicorn, a real Redis): two clients
play whole games using nothing but the responses; 32 clients race for one version."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
import requests

from tests.conftest import delete_prefixed
from tests.platform.test_serve import free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(redis_url: str) -> Iterator[str]:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "TABLESTREAM_PREFIX": prefix,
        "PORT": str(port),
        "TABLESTREAM_RATE_PER_TOKEN": "100000",
        "TABLESTREAM_RATE_PER_ADDRESS": "100000",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--no-worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            time.sleep(0.1)
    else:
        process.kill()
        raise AssertionError("the server did not start")
    yield base
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)
    delete_prefixed(redis.Redis.from_url(redis_url), prefix)


class Client:
    """A third-party client: it knows its token and reads everything else from answers."""

    def __init__(self, base: str, game_id: str, token: str, seed: int) -> None:
        self.base, self.game_id = base, game_id
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.rng = random.Random(seed)
        self.actions = 0

    def game(self) -> dict:
        response = self.session.get(f"{self.base}/v1/games/{self.game_id}", timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def play(self, stop: threading.Event) -> None:
        while not stop.is_set():
            game = self.game()
            if game["status"] == "finished":
                return
            if not game["legal_actions"]:
                time.sleep(0.005)
                continue
            action = self.rng.choice(game["legal_actions"])
            response = self.session.post(
                f"{self.base}/v1/games/{self.game_id}/actions",
                json={"action": action, "expected_version": game["version"]},
                headers={"Idempotency-Key": uuid.uuid4().hex},
                timeout=10,
            )
            if response.status_code == 409 and response.json()["code"] == "stale_version":
                continue  # the other player (or a simultaneous choice) moved first
            assert response.status_code == 200, response.text
            self.actions += 1


@pytest.mark.parametrize("kind", ["fortress-royals", "fortress-siege"])
def test_two_http_clients_play_a_whole_game(served: str, kind: str) -> None:
    created = requests.post(
        f"{served}/v1/games", json={"kind": kind, "players": [{"name": "ann"}, {"name": "bob"}]}, timeout=10
    )
    assert created.status_code == 201, created.text
    game = created.json()
    clients = [Client(served, game["id"], seat["token"], i) for i, seat in enumerate(game["seats"])]
    stop = threading.Event()
    errors: list[BaseException] = []

    def run(client: Client) -> None:
        try:
            client.play(stop)
        except BaseException as error:  # surfaced below
            errors.append(error)
            stop.set()

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    stop.set()
    assert not errors, errors[0]
    final = clients[0].game()
    print(f"{kind}: {sum(c.actions for c in clients)} actions over HTTP in {time.monotonic() - started:.1f} s")
    assert final["status"] == "finished" and final["outcome"]["winners"]
    assert final["seed"] is not None


def test_thirty_two_clients_at_one_version_one_wins(served: str) -> None:
    created = requests.post(
        f"{served}/v1/games",
        json={"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}]},
        timeout=10,
    )
    game = created.json()
    seat = game["to_act"][0]
    token = game["seats"][seat]["token"]
    view = requests.get(f"{served}/v1/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).json()
    action = view["legal_actions"][0]
    barrier = threading.Barrier(32)
    statuses: list[int] = []

    def send(index: int) -> None:
        session = requests.Session()
        barrier.wait()
        response = session.post(
            f"{served}/v1/games/{game['id']}/actions",
            json={"action": action, "expected_version": view["version"]},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": f"k{index}"},
            timeout=20,
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"32 clients at version {view['version']}: {statuses.count(200)} accepted, {statuses.count(409)} refused")
    assert sorted(statuses) == [200] + [409] * 31
    events = requests.get(
        f"{served}/v1/games/{game['id']}/events?after={view['version']}", headers={"Authorization": f"Bearer {token}"}
    ).json()["events"]
    assert [e["type"] for e in events].count("ActionTaken") == 1
