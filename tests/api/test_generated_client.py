"""A client generated from openapi.yaml by openapi-python-client imports and plays a game of
every kind to the end against ``tablestream serve``, with the generated models only (the
typed actions of its kind, sent back as the game offered them) and honouring Retry-After."""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.registry import all_games
from tests.served import serving

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
PACE = 0.05  # the pace for one token in docs/clients.md: one request every 50 ms
# Random play in stomping-grounds may go on for hundreds of rounds without its round limit
# (RULINGS.md): ten rounds still end the game by its rules, at the client's pace.
SHORT = {"stomping-grounds": {"turn_limit": 10}}
KINDS = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client generated from openapi.yaml, once for the run: the parallel workers share
    the directory of this run's temporary files, and the first to come generates it."""
    digest = hashlib.sha256(SPEC.read_bytes()).hexdigest()[:16]
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / f"generated-client-{digest}"
    with (shared / f"generated-client-{digest}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "tablestream_client" / "__init__.py").exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            generator = Path(sys.executable).parent / "openapi-python-client"
            run = subprocess.run(
                [str(generator), "generate", "--path", str(SPEC), "--meta", "none", "--output-path", "building"],
                cwd=out,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert run.returncode == 0, run.stdout + run.stderr
            (out / "building").rename(out / "tablestream_client")  # whole, or not there
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("tablestream_client")
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("generated") / "data", TABLESTREAM_BOT_SECONDS="0") as base:
        yield base


def patiently(call: Callable[..., Any], **arguments: Any) -> Any:
    """The answer to ``call``, waiting as long as a 429's Retry-After says each time."""
    while True:
        response = call(**arguments)
        if response.status_code != 429:
            return response
        time.sleep(max(float(response.headers["Retry-After"]), PACE))


@pytest.mark.parametrize("kind", KINDS)
def test_the_generated_client_plays_a_game_to_the_end(generated: ModuleType, server: str, kind: str) -> None:
    client_module = importlib.import_module("tablestream_client.client")
    models = importlib.import_module("tablestream_client.models")
    create_game = importlib.import_module("tablestream_client.api.games.create_game")
    get_game = importlib.import_module("tablestream_client.api.games.get_game")
    act = importlib.import_module("tablestream_client.api.actions.act")
    kinds = importlib.import_module("tablestream_client.api.kinds.list_kinds")
    listed = patiently(kinds.sync_detailed, client=client_module.Client(base_url=server))
    assert listed.status_code == 200 and kind in [k.key for k in listed.parsed.kinds]
    players = next(k for k in listed.parsed.kinds if k.key == kind).min_players

    seats = [{"name": "ann"}, *({"bot": "greedy"} for _ in range(players - 1))]
    body = models.CreateGame.from_dict({"kind": kind, "players": seats, "options": SHORT.get(kind, {})})
    created = patiently(create_game.sync_detailed, client=client_module.Client(base_url=server), body=body)
    assert created.status_code == 201, created.content
    game_id = created.parsed.id
    seat = client_module.AuthenticatedClient(base_url=server, token=created.parsed.seats[0].token)

    rng = random.Random(kind)
    deadline = time.monotonic() + 600
    moves = 0
    while time.monotonic() < deadline:
        time.sleep(PACE)
        read = patiently(get_game.sync_detailed, game_id=game_id, client=seat)
        assert read.status_code == 200, read.content
        game = read.parsed
        if game.outcome is not None:
            break
        if 0 not in game.to_act or not game.legal_actions:
            continue
        action = rng.choice(game.legal_actions)
        time.sleep(PACE)
        body = models.ActionIn(action=action, expected_version=game.version)
        answer = patiently(act.sync_detailed, game_id=game_id, client=seat, body=body)
        if answer.status_code == 409:  # a bot moved first, or the game ended: read again
            continue
        assert answer.status_code == 200, answer.content
        moves += 1
    else:
        pytest.fail(f"{kind}: no end after {moves} moves")
    assert game.outcome.winners is not None and moves > 0
