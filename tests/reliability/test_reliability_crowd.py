"""One address's crowd does not take the API from everyone else.

From 127.0.0.1, a crowd holds hundreds of open event streams and dozens of sockets that
send a request line and one header and then wait; from 127.0.0.2, another client keeps
checking ``/healthz`` and playing a seat. Everything the other client asks is answered,
and quickly, throughout; every stream of the crowd is either served (and sees every
move) or refused with ``429`` and ``Retry-After``; every slow socket is dropped."""

from __future__ import annotations

import http.client
import json
import resource
import selectors
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.served import serving

# Its bound is on time (every answer within 2 s), so it runs alone, after the parallel suite.
pytestmark = [pytest.mark.slow, pytest.mark.solo, pytest.mark.timeout(300)]

CROWD = "127.0.0.1"
OTHER = "127.0.0.2"
STREAMS = 520
SLOW_SOCKETS = 64
ANSWERED_WITHIN = 2.0
HEADER_SECONDS = 3


def enough_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


class Crowd:
    """Sockets from one address, read by one thread: what each has received so far."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.received: dict[socket.socket, bytearray] = {}
        self.closed_at: dict[socket.socket, float] = {}
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.running = True
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def open(self, request: bytes) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(CROWD, 0))
        sock.sendall(request)
        sock.setblocking(False)
        with self.lock:
            self.received[sock] = bytearray()
            self.selector.register(sock, selectors.EVENT_READ)
        return sock

    def _read(self) -> None:
        while self.running:
            with self.lock:
                ready = self.selector.select(timeout=0) if self.received else []
            if not ready:
                time.sleep(0.01)
                continue
            for key, _ in ready:
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                with self.lock:
                    if chunk:
                        self.received[sock] += chunk
                    else:
                        self.closed_at[sock] = time.monotonic()
                        self.selector.unregister(sock)

    def status(self, sock: socket.socket) -> int | None:
        with self.lock:
            head = bytes(self.received[sock]).split(b"\r\n", 1)[0]
        return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else None

    def text(self, sock: socket.socket) -> str:
        with self.lock:
            return bytes(self.received[sock]).decode(errors="replace")

    def close(self) -> None:
        self.running = False
        self.reader.join()
        for sock in self.received:
            sock.close()


def call(port: int, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any, float]:
    """One request of the other client, on a connection of its own from 127.0.0.2; status
    0 when it got no answer at all."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWERED_WITHIN * 5, source_address=(OTHER, 0))
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        payload = json.loads(response.read() or b"null")
        return response.status, payload, time.monotonic() - started
    except OSError as error:
        return 0, repr(error), time.monotonic() - started
    finally:
        connection.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    enough_files(4 * (STREAMS + SLOW_SOCKETS) + 256)
    with serving(tmp_path / "data", TABLESTREAM_HEADER_SECONDS=str(HEADER_SECONDS)) as base:
        yield int(base.rsplit(":", 1)[1])


def test_one_address_s_streams_and_slow_sockets_leave_health_and_play_answered(served: int) -> None:
    port = served
    status, game, _ = call(
        port, "POST", "/v1/games", body={"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}]}
    )
    assert status == 201, game
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    slowest: dict[str, float] = {"healthz": 0.0, "view": 0.0, "action": 0.0}
    failures: list[str] = []
    moves = 0
    stop = threading.Event()

    def play() -> None:
        # The other client: its health check and its seat's moves, one after another.
        nonlocal moves
        while not stop.is_set():
            status, _, took = call(port, "GET", "/healthz")
            slowest["healthz"] = max(slowest["healthz"], took)
            if status != 200:
                failures.append(f"healthz: {status}")
            status, view, took = call(port, "GET", f"/v1/games/{game['id']}", tokens[0])
            slowest["view"] = max(slowest["view"], took)
            if status != 200 or not view["to_act"]:
                failures.append(f"view: {status}")
                continue
            seat = view["to_act"][0]
            if seat != 0:
                status, view, took = call(port, "GET", f"/v1/games/{game['id']}", tokens[seat])
                slowest["view"] = max(slowest["view"], took)
                if status != 200:
                    failures.append(f"view: {status}")
                    continue
            action = next(a for a in view["legal_actions"] if a.get("seat", seat) == seat)
            status, done, took = call(
                port,
                "POST",
                f"/v1/games/{game['id']}/actions",
                tokens[seat],
                {"action": action, "expected_version": view["version"]},
            )
            slowest["action"] = max(slowest["action"], took)
            if status != 200:
                failures.append(f"action: {status} {done}")
            else:
                moves += 1
            time.sleep(0.1)

    crowd = Crowd(port)
    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        stream = f"GET /v1/games/{game['id']}/events/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        slow = [crowd.open(b"GET /healthz HTTP/1.1\r\nHost: x\r\n") for _ in range(SLOW_SOCKETS)]
        slow_opened = time.monotonic()
        streams = []
        for _ in range(STREAMS):
            streams.append(crowd.open(stream))
            time.sleep(1 / 80)  # within the address's request rate: the streams are held, not refused by it
        time.sleep(2)
        stop.set()
        player.join(timeout=30)
        time.sleep(2)  # the last moves reach every stream

        statuses = [crowd.status(sock) for sock in streams]
        served_streams = [sock for sock, status in zip(streams, statuses, strict=True) if status == 200]
        for sock, status in zip(streams, statuses, strict=True):
            if status != 200:
                text = crowd.text(sock)
                assert status == 429 and "Retry-After:" in text, f"a stream was answered {status}: {text[:300]}"
                assert '"code": "too_many_' in text or '"code": "rate_limited"' in text, text[-300:]
        _, final, _ = call(port, "GET", f"/v1/games/{game['id']}", tokens[0])
        for sock in served_streams:
            assert f"id: {final['version']}\n" in crowd.text(sock), "a served stream missed a move"
        for sock in slow:
            assert sock in crowd.closed_at, "a socket that never finished its headers is still open"
            assert crowd.closed_at[sock] - slow_opened < HEADER_SECONDS + 10
            assert crowd.text(sock) == "", "a request that never finished its headers was answered"
    finally:
        stop.set()
        crowd.close()
    assert not failures, failures[:5]
    assert moves >= 10, f"only {moves} moves were played"
    assert len(served_streams) >= 500, f"only {len(served_streams)} streams were served at once"
    assert max(slowest.values()) < ANSWERED_WITHIN, slowest
