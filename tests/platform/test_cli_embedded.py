"""The CLI where the service runs: with `tablestream serve` running on its
embedded Redis, every subcommand works from the same directory with no variable set; with
no server, each says in one line what to do; a failure is one line with a code, and
`--debug` shows the traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.platform.test_serve import STARTED_WITHIN, free_port, start, stop, wait_healthy

pytestmark = pytest.mark.slow

COMMAND = str(Path(sys.executable).parent / "tablestream")


def run(cwd: Path, *args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL", "TABLESTREAM_DATA_DIR")}
    return subprocess.run(
        [COMMAND, *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=timeout
    )


def one_line_error(result: subprocess.CompletedProcess[str], code: str) -> None:
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if "error (" in line]
    assert len(errors) == 1 and f"error ({code}):" in errors[0], result.stderr


def test_every_subcommand_finds_the_embedded_redis_of_tablestream_serve(tmp_path: Path) -> None:
    home = tmp_path / "here"
    home.mkdir()
    # No server yet: each command says what to do, in one line.
    for args in (["audit", "g"], ["export", "g"], ["projections", "rebuild"], ["worker", "--burst"]):
        refused = run(home, *args)
        one_line_error(refused, "unavailable")
        assert "tablestream serve" in refused.stderr and "REDIS_URL" in refused.stderr
    port = free_port()
    server = start(home / ".tablestream", port)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, server, STARTED_WITHIN)
        created = requests.post(
            f"{base}/v1/games",
            json={
                "kind": "fortress-royals",
                "players": [{"bot": "random"}, {"bot": "random"}],
                "options": {"rounds": 1},
            },
            timeout=10,
        ).json()
        game = created["id"]
        for _ in range(600):  # the server's own worker plays the bots
            if requests.get(f"{base}/v1/games/{game}", timeout=10).json()["status"] == "finished":
                break
            time.sleep(0.1)
        audited = run(home, "audit", game)
        assert audited.returncode == 0 and "audit passed" in audited.stdout, audited.stderr
        exported = run(home, "export", game)
        assert exported.returncode == 0 and exported.stdout.count("\n") > 3
        imported = run(home, "import", "-", stdin=exported.stdout)
        assert imported.returncode == 0 and "imported" in imported.stdout, imported.stderr
        seed = run(home, "verify-seed", game)
        assert seed.returncode == 0 and "re-derived" in seed.stdout, seed.stderr
        replay = run(home, "replay", game, "--at", "3", "--plain")
        assert replay.returncode == 0 and replay.stdout.startswith("v3"), replay.stderr
        rebuilt = run(home, "projections", "rebuild")
        assert rebuilt.returncode == 0 and "rebuilt" in rebuilt.stdout, rebuilt.stderr
        worker = run(home, "worker", "--burst")
        assert worker.returncode == 0 and "tablestream worker: Redis unix://" in worker.stdout, worker.stderr
        projector = subprocess.Popen(
            [COMMAND, "projector"],
            cwd=home,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLESTREAM_DATA_DIR")},
        )
        assert projector.stdout is not None
        assert "tablestream projector: Redis unix://" in projector.stdout.readline()
        projector.terminate()
        projector.wait(timeout=30)
        # Failures: one line with a code; --debug (anywhere) shows the traceback.
        one_line_error(run(home, "audit", "no-such-game"), "not_found")
        # A file that is not there is refused with the arguments, before anything is read.
        missing = run(home, "import", str(home / "missing.ndjson"))
        assert missing.returncode == 2 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
        one_line_error(run(home, "import", "-", stdin="not json\n"), "invalid_request")
        garbled = home / "garbled.ndjson"
        garbled.write_bytes(b"\xff\xfe\xfa not text\n")
        undebugged = run(home, "import", str(garbled))
        assert undebugged.returncode != 0 and "Traceback" not in undebugged.stderr, undebugged.stderr
        debug = run(home, "import", str(garbled), "--debug")
        assert debug.returncode != 0 and "Traceback" in debug.stderr and "UnicodeDecodeError" in debug.stderr
    finally:
        stop(server)
    # Stopped: the commands say so again rather than reaching a dead socket.
    one_line_error(run(home, "audit", "g"), "unavailable")


def test_bench_runs_from_a_checkout_and_says_so_elsewhere(tmp_path: Path) -> None:
    checkout = Path(__file__).resolve().parents[2]
    helped = run(checkout / "bench", "bench", "--", "--help")
    assert helped.returncode == 0 and "--quick" in helped.stdout and "issue" not in helped.stdout, helped.stderr
    one_line_error(run(tmp_path, "bench", "--", "--quick"), "not_found")
