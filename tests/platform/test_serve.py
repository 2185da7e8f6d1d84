"""`tablestream serve` (the installed command, run outside the checkout) with no
REDIS_URL: an embedded Redis in a fresh data directory, /healthz answering 200, and the
data still there after a restart. How long it takes to start is printed, not bounded: a
timed assertion measures the machine (CI's two cores, loaded by the rest of the suite,
have taken over 15 s), and speed is the benchmarks' to measure."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from core.config import Config
from service.cli import gunicorn_settings

pytestmark = pytest.mark.slow

GRACEFUL_SECONDS = gunicorn_settings(Config())["graceful_timeout"]
STARTED_WITHIN = 90  # seconds: a server that has not started by then has hung


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL")}
    env.update(TABLESTREAM_DATA_DIR=str(data_dir), PORT=str(port))
    # The installed command, from a directory outside the checkout, as the README runs it:
    # every package it imports must be installed (not found by chance in the working directory).
    command = Path(sys.executable).parent / "tablestream"
    return subprocess.Popen(
        [str(command), "serve"], env=env, cwd=data_dir.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )


def wait_healthy(base: str, process: subprocess.Popen[bytes], seconds: float) -> tuple[dict, float]:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
        try:
            response = requests.get(f"{base}/healthz", timeout=2)
            if response.status_code == 200:
                return response.json(), time.monotonic() - started
        except (requests.ConnectionError, requests.Timeout):
            pass
        time.sleep(0.1)
    raise AssertionError(f"/healthz did not answer 200 within {seconds} s")


def stop(process: subprocess.Popen[bytes]) -> str:
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    return out.decode()


def test_serve_embedded_answers_health_and_keeps_data_across_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(data_dir, port)
    try:
        health, seconds = wait_healthy(base, server, STARTED_WITHIN)
        print(f"/healthz answered 200 after {seconds:.1f} s on a fresh data directory")
        assert health["redis"]["reachable"] is True
        kind = requests.get(f"{base}/v1/kinds", timeout=5).json()["kinds"][0]
        players = [{"name": f"p{i}"} for i in range(kind["min_players"])]
        created = requests.post(f"{base}/v1/games", json={"kind": kind["key"], "players": players}, timeout=10)
        assert created.status_code == 201, created.text
        game = created.json()
    finally:
        output = stop(server)
    assert server.returncode == 0, output
    assert (data_dir / "appendonly.aof").exists() or (data_dir / "appendonlydir").exists()

    server = start(data_dir, port)
    try:
        health, _ = wait_healthy(base, server, STARTED_WITHIN)
        assert health["redis"]["version"], "healthz names the Redis version"
        assert health["store"]["last_write"]["game"] == game["id"], "and the store's last write, kept on disk"
        again = requests.get(f"{base}/v1/games/{game['id']}", timeout=5)
        assert again.status_code == 200
        assert again.json()["version"] == game["version"]
        assert again.json()["seed_commitment"] == game["seed_commitment"]
    finally:
        stop(server)


def test_ctrl_c_to_the_whole_terminal_group_stops_everything_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL")}
    env.update(TABLESTREAM_DATA_DIR=str(tmp_path / "data"), PORT=str(port))
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server, STARTED_WITHIN)
        time.sleep(1.0)  # the worker and projector are up and connected
    finally:
        os.killpg(server.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
        output, _ = server.communicate(timeout=30)
    text = output.decode()
    assert server.returncode == 0, text
    assert "Traceback" not in text and "could not connect" not in text, text
    assert text.count("tablestream: stopped") == 1, text
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "data")], capture_output=True, text=True).stdout.split()
    assert left == [], f"processes left behind: {left}"


def test_a_graceful_stop_closes_idle_connections_and_ends_open_streams_at_once(tmp_path: Path) -> None:
    """SIGTERM, as a process manager stops the server: a client's connection kept alive
    between requests is closed at once, and an open event stream ends at once with a word
    to reconnect, neither waited for over the graceful time (5 s), so a stop or a restart
    takes no longer for every idle client or follower of a game; gunicorn kills no worker."""
    port = free_port()
    server = start(tmp_path / "data", port)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server, STARTED_WITHIN)
        idle = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        idle.request("GET", "/healthz")
        answer = idle.getresponse()
        answer.read()
        assert answer.status == 200 and (answer.getheader("Connection") or "").lower() != "close"
        assert idle.sock is not None
        players = [{"name": "ann"}, {"name": "bob"}]
        game = requests.post(f"http://127.0.0.1:{port}/v1/games", json={"kind": "fortress-royals", "players": players})
        stream = requests.get(f"http://127.0.0.1:{port}/v1/games/{game.json()['id']}/events/stream", stream=True)
        assert stream.status_code == 200
        lines = stream.iter_lines(decode_unicode=True)
        assert next(line for line in lines if line.startswith("id: ")) == "id: 1"
        stopped = time.monotonic()
        idle.sock.settimeout(GRACEFUL_SECONDS - 1)
        server.send_signal(signal.SIGTERM)
        assert idle.sock.recv(1) == b"", "the server closes the idle connection before its graceful time ends"
        rest = list(lines)  # to the stream's end
        assert time.monotonic() - stopped < GRACEFUL_SECONDS - 1, "the stream was held for the graceful time"
        assert ": this server is stopping; reconnect" in rest, rest[-5:]
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    text = output.decode()
    assert server.returncode == 0 and "tablestream: stopped" in text, text
    assert "graceful timeout" not in text.lower(), text
