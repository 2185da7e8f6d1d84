"""`tablestream serve` spreads its clients over its API workers, and owns its port.

Each worker listens on a socket of its own (``SO_REUSEPORT``), so the kernel hands new
connections to the workers evenly; on one shared socket the worker that woke first took
whole bursts of them (bench row 3 saw sixteen clients split 0:16). These tests look at
the server from outside, through Linux's own tables of sockets (``/proc/net/tcp`` and
the processes' descriptors), not through anything the server says about itself.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.served import DROPPED, ROOT, free_port, serving

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc socket tables"),
]

LISTENING, ESTABLISHED = "0A", "01"
CLIENTS = 32
# Under an even spread, the chance that one of two workers gets 5 or fewer of 32 is 1 in 9,000.
FEWEST = 6


def sockets_on(port: int, state: str) -> set[int]:
    """The inodes of the TCP sockets whose local port is ``port``, in ``state``."""
    inodes = set()
    for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")):
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                inodes.add(int(fields[9]))
    return inodes


def holders(inodes: set[int]) -> Counter[int]:
    """How many of the sockets ``inodes`` each process holds a descriptor of."""
    held: Counter[int] = Counter()
    for folder in Path("/proc").glob("[0-9]*/fd"):
        try:
            links = list(folder.iterdir())
        except OSError:  # a process that ended, or not ours to read
            continue
        for link in links:
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.startswith("socket:[") and int(target[8:-1]) in inodes:
                held[int(folder.parent.name)] += 1
    return held


def healthz(connection: socket.socket) -> bytes:
    """One keep-alive ``GET /healthz`` on ``connection``: the status line."""
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = connection.recv(65536)
        assert chunk, "the server closed the connection"
        answer += chunk
    return answer.split(b"\r\n", 1)[0]


def serve_once(data: Path, port: int) -> subprocess.CompletedProcess[str]:
    """``tablestream serve`` on ``port``, with an embedded Redis in ``data``, to its end."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(TABLESTREAM_DATA_DIR=str(data), HOST="127.0.0.1")
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_each_worker_listens_on_its_own_socket_and_new_connections_spread_over_them(tmp_path: Path) -> None:
    port = free_port()
    with serving(tmp_path / "data", port, TABLESTREAM_API_WORKERS="2"):
        listening = sockets_on(port, LISTENING)
        assert len(listening) == 2, f"{len(listening)} listening socket(s) on the port, one a worker expected"
        assert sorted(holders(listening).values()) == [1, 1], "each listening socket is one worker's"

        # All at once, as a pool of keep-alive clients opens its connections.
        connections = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(CLIENTS)]
        try:
            for connection in connections:
                assert healthz(connection).endswith(b"200 OK")
            split = holders(sockets_on(port, ESTABLISHED))
        finally:
            for connection in connections:
                connection.close()
    print(f"{CLIENTS} connections over the workers: {sorted(split.values())}")
    assert sum(split.values()) == CLIENTS
    assert len(split) == 2 and min(split.values()) >= FEWEST, f"uneven spread: {dict(split)}"


def test_a_second_server_on_a_taken_port_stops_at_once_and_the_first_keeps_every_client(tmp_path: Path) -> None:
    port = free_port()
    with serving(tmp_path / "first", port, TABLESTREAM_API_WORKERS="2"):
        started = time.monotonic()
        second = serve_once(tmp_path / "second", port)
        took = time.monotonic() - started
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"error (unavailable): cannot listen on 127.0.0.1:{port}" in second.stderr
        assert "another tablestream serve" in second.stderr
        assert took < 10, f"refused only after {took:.1f} s"
        assert not (tmp_path / "second").exists(), "nothing was started for the refused server"

        # Every listening socket on the port is still the first server's.
        listening = sockets_on(port, LISTENING)
        assert len(listening) == 2
        connections = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(8)]
        try:
            for connection in connections:
                assert healthz(connection).endswith(b"200 OK")
        finally:
            for connection in connections:
                connection.close()


def test_something_else_on_the_port_is_named_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        refused = serve_once(tmp_path / "data", port)
    assert refused.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in refused.stderr
    assert not (tmp_path / "data").exists()
