"""The two smallest clients of ``docs/clients.md`` (``docs/clients/client.py`` and ``client.mjs``), run
as a newcomer runs them against ``tablestream serve`` on its embedded Redis: each plays
games to the end, every kind by both, acting with a version and an Idempotency-Key per
action, and both still finish under a tiny per-token limit by waiting out Retry-After."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from core import chat
from core.config import Config
from service.routes import games
from tests.served import free_port, serving

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "docs" / "clients"
# Short options per kind (GET /v1/kinds), so that a game against random bots takes seconds.
KINDS = {
    "dragoborne": {},
    "dragon-fortress": {},
    "fortress-royals": {"rounds": 1},
    "fortress-siege": {},
    "stomping-grounds": {"turn_limit": 3},
}
FINISHED = re.compile(r"^game (\S+) finished after (\d+) moves of ours: (.+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("clients") / "data") as base:
        yield base


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        # CI installs node (.ci/run), so there a missing node is a failure, not a skip.
        if os.environ.get("CI"):
            pytest.fail("node is missing (apt-get install nodejs)")
        pytest.skip("node is missing (apt-get install nodejs)")
    return node


def _start(client: str, base: str, kind: str) -> subprocess.Popen[str]:
    if client == "python":
        program = [sys.executable, str(CLIENTS / "client.py")]
    else:
        program = [_node(), str(CLIENTS / "client.mjs")]
    arguments = ["--base", base, "--kind", kind, "--options", json.dumps(KINDS[kind])]
    return subprocess.Popen(program + arguments, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen[str], started: float) -> tuple[str, str, float]:
    """The client's output and its seconds since ``started``, once it exited 0."""
    try:
        out, err = process.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"{process.args!r} did not finish in 300 s:\n{out}\n{err}") from None
    assert process.returncode == 0, f"{process.args!r} exited {process.returncode}:\n{out}\n{err}"
    return out, err, time.monotonic() - started


def _log(base: str, game_id: str) -> list[dict]:
    """The game's whole log as anyone reads it once the game is over, page by page."""
    events: list[dict] = []
    while True:
        query = {"after": len(events), "limit": 1000}
        page = requests.get(f"{base}/v1/games/{game_id}/events", params=query, timeout=10)
        assert page.status_code == 200, page.text
        events += page.json()["events"]
        if page.json()["next_after"] >= page.json()["last_version"]:
            return events


def _check_played(base: str, out: str) -> None:
    """The client printed a finished game's outcome, that is the server's, and every move
    it counted is in the log as seat 0's own action, each sent with a key of its own."""
    found = FINISHED.search(out)
    assert found, f"no finished outcome printed:\n{out}"
    game_id, moves, printed = found.group(1), int(found.group(2)), json.loads(found.group(3))
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert game["status"] == "finished" and game["outcome"] == printed
    assert printed["ending"] == "rules" and printed["winners"], printed
    ours = [e for e in _log(base, game_id) if e["type"] == "ActionTaken" and e["seat"] == 0]
    assert moves > 0 and len(ours) == moves, (moves, len(ours))
    assert all(e["actor"] == "human" and e["command_id"].startswith("seat-0:") for e in ours)
    assert len({e["command_id"] for e in ours}) == moves, "one Idempotency-Key per action"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_both_clients_play_a_game_of_the_kind_to_the_end(server: str, kind: str) -> None:
    started = time.monotonic()
    clients = {client: _start(client, server, kind) for client in ("python", "javascript")}
    for client, process in clients.items():
        out, err, seconds = _finish(process, started)
        print(f"{client} client, {kind}: {seconds:.1f} s")
        _check_played(server, out)
        assert "429" not in err, f"paced at the default rate, the {client} client was refused:\n{err}"


def test_both_clients_finish_under_a_tiny_per_token_limit_by_waiting_out_retry_after(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "data", TABLESTREAM_RATE_PER_TOKEN="3") as base:
        started = time.monotonic()
        clients = {client: _start(client, base, "fortress-royals") for client in ("python", "javascript")}
        for client, process in clients.items():
            out, err, seconds = _finish(process, started)
            _check_played(base, out)
            waits = err.count("429 rate_limited: waiting")
            print(f"{client} client at 3 requests/s: {seconds:.1f} s, {waits} waits")
            assert waits > 0, f"the {client} client was never refused, so nothing was tested:\n{err}"
            # Each 429 was followed by a wait of its Retry-After (at least 1 s), one at a time.
            assert waits <= seconds, f"{waits} refusals in {seconds:.1f} s: Retry-After was not waited out"


def test_both_clients_ride_out_a_server_restart_mid_game(tmp_path: Path) -> None:
    """Every connection drops and for seconds none is accepted: each client sends its
    unanswered request again with the same Idempotency-Key (no move twice: the log holds
    exactly the moves it counted) and resumes the stream from the last version it saw."""
    data, port = tmp_path / "data", free_port()
    with serving(data, port) as base:
        started = time.monotonic()
        clients = {client: _start(client, base, "fortress-siege") for client in ("python", "javascript")}
        time.sleep(4)
        assert all(process.poll() is None for process in clients.values()), "a game ended before the restart"
    with serving(data, port) as base:
        for client, process in clients.items():
            out, err, seconds = _finish(process, started)
            print(f"{client} client across a restart: {seconds:.1f} s")
            _check_played(base, out)


def test_the_client_guide_states_the_limits_the_service_keeps() -> None:
    """The section "Write a client" of docs/clients.md names the defaults of core.config and
    the routes' page sizes, and links both clients: a change to either shows here."""
    section = (ROOT / "docs" / "clients.md").read_text().split("## Write a client\n", 1)[1].split("\n## ", 1)[0]
    config = Config()
    interval_ms = round(1000 * config.rate_window_seconds / config.rate_per_token)
    for stated in (
        f"{config.rate_per_token} a second: at most {config.rate_per_token} at once from rest",
        f"then one every {interval_ms} ms",
        f"{config.rate_per_address} a second",
        f"{config.max_body_bytes:,} bytes",
        f"every {config.heartbeat_seconds} s",
        f"`limit` 100 by default, at most {games.MAX_PAGE:,}",
        f"`limit` {chat.PAGE} by default, at most {chat.MAX_PAGE}",
        "(clients/client.py)",
        "(clients/client.mjs)",
    ):
        assert stated in section, f"docs/clients.md's Write a client section does not say {stated!r}"
