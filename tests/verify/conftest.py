"""Games of every kind played through the public API (the Flask test client on fakeredis),
each once per session and only when a test asks for it; their records as
``GET /v1/games/{id}/replay`` serves them; and the two verifiers that must judge them:
``service/verifier.py`` in process and ``service/client/verify.js`` under node, many
records to one node process."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from core.config import Config
from games import registry
from service import verifier
from service.app import create_app
from stores.platform import Platform
from workers.scheduling import InlineBots

ROOT = Path(__file__).resolve().parents[2]
NODE_CLI = ROOT / "tests" / "verify" / "verify_cli.mjs"
KINDS = registry.keys()  # the tiny test game included (tests/conftest.py registers it)
IN_PLAY_ACTIONS = 3
# Shorter games where a kind offers it: a few hundred events show every kind of event.
SHORT = {"stomping-grounds": {"turn_limit": 8}, "fortress-royals": {"rounds": 1}}
# Actions ann takes before forking, where the deal leaves nothing hidden from her at first.
FORK_AFTER = {"fortress-royals": 3}


def node() -> str:
    found = shutil.which("node")
    if found is None:
        # CI installs node (.ci/run): there a missing node is a failure, not a skip.
        if os.environ.get("CI"):
            pytest.fail("node is missing (apt-get install nodejs)")
        pytest.skip("node is missing (apt-get install nodejs)")
    return found


@pytest.fixture(scope="session")
def platform() -> Platform:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    p = Platform(config, fakeredis.FakeRedis())
    p.handler.scheduler = InlineBots(p)
    return p


@pytest.fixture(scope="session")
def client(platform: Platform) -> FlaskClient:
    return create_app(platform.config, platform).test_client()


def seats_for(client: FlaskClient, kind: str) -> int:
    kinds = {k["key"]: k for k in client.get("/v1/kinds").get_json()["kinds"]}
    return int(kinds[kind]["min_players"]) if kind in kinds else 2


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def replay_of(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/v1/games/{game_id}/replay", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.get_data(as_text=True)
    return dict(response.get_json())


def finished_game(client: FlaskClient, kind: str) -> dict[str, Any]:
    """A game of bots, played to its end as it is created; its record once over."""
    players = [{"bot": "random"}] * seats_for(client, kind)
    created = client.post("/v1/games", json={"kind": kind, "players": players, "options": SHORT.get(kind, {})})
    assert created.status_code == 201, created.get_data(as_text=True)
    record = replay_of(client, created.get_json()["id"])
    assert record["status"] == "finished", f"{kind}: the bots did not finish the game"
    return record


@dataclass
class InPlay:
    """A game with one human seat, part-played through the API, as its seat and a spectator see it."""

    game_id: str
    token: str
    kept_head: dict[str, Any]  # the head a GET answered with, a few actions back
    seat_record: dict[str, Any]
    spectator_record: dict[str, Any]


def game_in_play(client: FlaskClient, kind: str, rng: random.Random) -> InPlay:
    players = [{"name": "ann"}] + [{"bot": "random"}] * (seats_for(client, kind) - 1)
    created = client.post("/v1/games", json={"kind": kind, "players": players}).get_json()
    game_id = created["id"]
    token = next(s["token"] for s in created["seats"] if s.get("token"))
    kept: dict[str, Any] | None = None
    for step in range(IN_PLAY_ACTIONS):
        game = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()
        if game["status"] != "active":
            break
        if step == 1:
            kept = game["head"]
        if game["legal_actions"]:
            client.post(
                f"/v1/games/{game_id}/actions",
                headers={**bearer(token), "Idempotency-Key": f"{game_id}-{step}"},
                json={"action": rng.choice(game["legal_actions"]), "expected_version": game["version"]},
            )
    if kept is None:
        kept = client.get(f"/v1/games/{game_id}").get_json()["head"]
    return InPlay(game_id, token, kept, replay_of(client, game_id, token), replay_of(client, game_id))


def forked_game(client: FlaskClient, kind: str) -> dict[str, Any]:
    """A fork, taken by the one human seat of a game just dealt, with bots in every seat
    of the fork, played to its end: its record, whose ForkedFrom re-dealt what that seat
    could not see and records the draws."""
    seats = seats_for(client, kind)
    players = [{"name": "ann"}] + [{"bot": "random"}] * (seats - 1)
    created = client.post("/v1/games", json={"kind": kind, "players": players, "options": SHORT.get(kind, {})})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    token = next(s["token"] for s in game["seats"] if s.get("token"))
    rng = random.Random(kind)
    for step in range(max(FORK_AFTER.values()) + 1):
        game = client.get(f"/v1/games/{game['id']}", headers=bearer(token)).get_json()
        if game["status"] != "active" or step >= FORK_AFTER.get(kind, 0) or not game["legal_actions"]:
            break
        client.post(
            f"/v1/games/{game['id']}/actions",
            headers={**bearer(token), "Idempotency-Key": f"{game['id']}-{step}"},
            json={"action": rng.choice(game["legal_actions"]), "expected_version": game["version"]},
        )
    assert game["status"] == "active", f"{kind}: the game ended before it was forked"
    fork = client.post(
        f"/v1/games/{game['id']}/forks",
        headers=bearer(token),
        json={"at_version": game["version"], "players": [{"bot": "random"}] * seats},
    )
    assert fork.status_code == 201, fork.get_data(as_text=True)
    record = replay_of(client, fork.get_json()["id"])
    assert record["status"] == "finished", f"{kind}: the bots did not finish the fork"
    return record


class Games:
    """One finished game, one game in play and one finished fork of each kind, played when
    first asked for."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self._finished: dict[str, dict[str, Any]] = {}
        self._in_play: dict[str, InPlay] = {}
        self._forked: dict[str, dict[str, Any]] = {}

    def forked(self, kind: str) -> dict[str, Any]:
        """The record of a finished fork of a game in play; callers change a copy."""
        if kind not in self._forked:
            self._forked[kind] = forked_game(self.client, kind)
        return self._forked[kind]

    def finished(self, kind: str) -> dict[str, Any]:
        """The record of a finished game; callers that change it change a copy."""
        if kind not in self._finished:
            self._finished[kind] = finished_game(self.client, kind)
        return self._finished[kind]

    def in_play(self, kind: str) -> InPlay:
        if kind not in self._in_play:
            rng = random.Random(16)
            for _ in range(5):  # a human's random moves may end a short game: start another
                game = game_in_play(self.client, kind, rng)
                if game.seat_record["status"] != "finished":
                    self._in_play[kind] = game
                    break
            else:
                raise AssertionError(f"{kind}: every game ended within {IN_PLAY_ACTIONS} actions")
        return self._in_play[kind]


@pytest.fixture(scope="session")
def games(client: FlaskClient) -> Games:
    return Games(client)


Head = tuple[int, str]


@dataclass(frozen=True)
class Case:
    """One input for both verifiers: a record (or an export's text), a head a client kept,
    the log's verifier key, and what the server says now (``verifier.Latest``)."""

    record: dict[str, Any] | str
    head: Head | None = None
    log_key: str | None = None
    latest: verifier.Latest | None = None

    def text(self) -> str:
        return self.record if isinstance(self.record, str) else json.dumps(self.record)

    def latest_json(self) -> dict[str, Any] | None:
        if self.latest is None:
            return None
        return {
            "checkpoint": self.latest.checkpoint,
            "consistency": self.latest.consistency,
            "entry": self.latest.entry,
            "inclusion": self.latest.inclusion,
        }


def latest(client: FlaskClient, record: dict[str, Any]) -> verifier.Latest:
    """What the server says now about the ledger and ``record``'s game, as
    ``tablestream verify URL`` fetches it: its latest checkpoint, the consistency proof from
    the record's, and the game's entry with its inclusion proof once it is on the ledger."""
    checkpoint = client.get("/v1/ledger/checkpoint").get_data(as_text=True)
    size = int(checkpoint.split("\n")[1])
    proof = record.get("ledger_proof")
    consistency = None
    if isinstance(proof, dict) and isinstance(proof.get("tree_size"), int) and proof["tree_size"] <= size:
        path = f"/v1/ledger/proofs/consistency?from={proof['tree_size']}&to={size}"
        consistency = client.get(path).get_json()["hashes"]
    found = client.get(f"/v1/ledger/games/{record['id']}")
    if found.status_code == 404:
        return verifier.Latest(checkpoint, consistency)
    entry = found.get_json()["entry"]
    inclusion = client.get(f"/v1/ledger/proofs/inclusion?index={entry['index']}&size={size}").get_json()
    return verifier.Latest(checkpoint, consistency, entry, inclusion["hashes"])


def log_key(client: FlaskClient) -> str:
    return str(client.get("/v1/ledger/key").get_json()["verifier_key"])


def named(*functions: Callable[..., Any]) -> dict[str, Callable[..., Any]]:
    """Tamper cases by their functions' names (the names the tests are parametrized by)."""
    return {f.__name__: f for f in functions}


def python_verdict(case: Case) -> dict[str, Any]:
    return verifier.verify(verifier.parse_record(case.text()), case.head, case.log_key, case.latest).as_json()


def js_verdicts(cases: list[Case], folder: Path, pure: bool = False) -> list[dict[str, Any]]:
    """The web client's verdicts on ``cases``, from one node process."""
    folder.mkdir(parents=True, exist_ok=True)
    batch = []
    for index, case in enumerate(cases):
        path = folder / f"case-{index}.json"
        path.write_text(case.text(), encoding="utf-8")
        batch.append(
            {
                "file": str(path),
                "head": list(case.head) if case.head else None,
                "pure": pure,
                "log_key": case.log_key,
                "latest": case.latest_json(),
            }
        )
    done = subprocess.run(
        [node(), str(NODE_CLI), "--batch"],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    verdicts = json.loads(done.stdout)
    assert isinstance(verdicts, list) and len(verdicts) == len(cases)
    return verdicts
