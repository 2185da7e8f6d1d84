"""The peer game server: boardgame.io against tablestream, on one card game.

  npm ci --prefix bench/bgio        # once: boardgame.io 0.50.2, pinned in bench/bgio
  python -m bench.bgio [--quick]

Both servers host the same two-seat draw/play card game: ``bench/bgio/game.js`` as
boardgame.io's game object (its moves run on the server only, ``client: false``, since
the player view hides the other hand and the deck), and ``bench/cardgame.py`` as a kind
of ours that only this benchmark registers, in the server it starts. One Node process
(``bench/bgio/drive.js``) plays 1, then 16, games at a time on either server, each
seat on a connection of its own: boardgame.io's own ``Client`` with its socket.io
transport, and for ours keep-alive HTTP (``POST /v1/games/{id}/actions`` with the seat's
token, the expected version and an Idempotency-Key) with a Server-Sent Events stream per
seat. A seat moves as soon as its own connection says it is its turn, so a game runs
move, opponent notified, opponent moves; a game slot plays one game after another, and
creates its next game while it plays (so creating games is part of the load, one for
every 60 to 100 moves, but no slot waits for one). Per move: the time from sending it to the
opponent's notification of it.

Two comparisons:

* boardgame.io on ``InMemory`` against ours on the Redis under test (target >= 1.0x);
* boardgame.io on ``FlatFile`` (node-persist files in a temporary folder) against ours
  on a ``redis-server`` of this benchmark's own with ``appendonly yes`` and
  ``appendfsync always`` (target >= 2.0x). node-persist writes its files without an
  fsync, so the peer's durability is the weaker of the two.

Both servers of a comparison run at once, and per concurrency the clients run three
times on each (twice with ``--quick``), taking turns (peer, ours, peer, ...), each run a warm-up (1 s, 0.25 s with
``--quick``) and a measured window (2 s, 0.5 s with ``--quick``), so that whatever else the
machine runs falls on both sides alike. Rows: moves/s over the three windows, p50/p99
from a move to the opponent's notification (the worst of the three), and, for scale,
the CPU the server's processes (ours: the API's, not Redis's) and the clients' Node
process spent per move. Ours runs as ``tablestream serve --no-worker`` does (gunicorn's
evented workers, 2 of them), with the rate limits raised out of the way.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from bench.common import (
    HEADER,
    Row,
    bench_redis_url,
    delete_prefix,
    figure,
    higher_is_better,
    lower_is_better,
    percentile,
)

HERE = Path(__file__).resolve().parent / "bgio"
CONCURRENCIES = (1, 16)
WINDOWS = 3
QUICK_WINDOWS = 2
MOVES = 100
MEMORY_TARGET = 1.0
FLATFILE_TARGET = 2.0
# At 16 games against the InMemory server: the API's CPU per move, and a move's p50 to
# the opponent, as ratios to the peer's.
CPU_TARGET = 1.5
P50_TARGET = 1.0
WORKERS = 2


def missing() -> str | None:
    """Why the Node side cannot run, or None."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (HERE / "node_modules" / "boardgame.io").is_dir():
        return "bench/bgio/node_modules is missing: run `npm ci --prefix bench/bgio`"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[bytes], grace: float = 15) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def tail(log: Any) -> str:
    log.seek(0)
    text = str(log.read().decode(errors="replace")[-2000:])
    log.seek(0, os.SEEK_END)
    return text


# -- the servers ------------------------------------------------------------------------


def serve() -> int:
    """``tablestream serve --no-worker`` with the bench's card game registered."""
    from bench.cardgame import GAME
    from games import registry
    from service.cli import main

    registry.register(GAME)
    return main(["serve", "--no-worker"])


@contextmanager
def ours_server(url: str, prefix: str) -> Iterator[tuple[int, int]]:
    """Our API under gunicorn in a child process, as ``bench.api.Server`` starts it, with
    the card game registered; yields its port and process id."""
    from bench.api import Connection

    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": url,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "TABLESTREAM_PREFIX": prefix,
        "TABLESTREAM_API_WORKERS": str(WORKERS),
        "TABLESTREAM_RATE_PER_TOKEN": str(10**9),
        "TABLESTREAM_RATE_PER_ADDRESS": str(10**9),
        # A run of the clients ends with its games in play: their SSE streams notice the
        # closed connection at the next heartbeat and end then.
        "TABLESTREAM_HEARTBEAT_SECONDS": "1",
    }
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([sys.executable, "-m", "bench.bgio", "--serve"], env=env, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the API did not start:\n" + tail(log))
                try:
                    conn = Connection(port)
                    status, _ = conn.request(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
                    conn.close()
                    if status == 200:
                        time.sleep(0.5)  # the other worker too
                        break
                except OSError:
                    pass
                time.sleep(0.2)
            warm_up(port)
            yield port, process.pid
        finally:
            stop(process)


def warm_up(port: int) -> None:
    """A few requests with a query string, one connection each, so that every worker has
    read the OpenAPI document that checks query strings (``service/query.py``) before
    the clients come: a worker reads it on its first such request, and sixteen SSE
    streams opened at once would each read it (0.3 s of CPU apiece) in the timing."""
    from bench.api import Connection

    for _ in range(3 * WORKERS):
        conn = Connection(port)
        conn.request(b"GET /v1/games?limit=1 HTTP/1.1\r\nHost: bench\r\n\r\n")
        conn.close()


@contextmanager
def bgio_server(storage: str) -> Iterator[tuple[int, int, int]]:
    """boardgame.io's server (``bench/bgio/server.js``) on ``memory`` or ``flatfile`` in a
    temporary folder; yields its socket.io port, its lobby API's port and its process id."""
    port, api_port = free_port(), free_port()
    folder = tempfile.mkdtemp(prefix="bench-bgio-")
    env = {**os.environ, "NODE_ENV": "production"}  # as deployed: no development logging
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            ["node", str(HERE / "server.js"), str(port), str(api_port), storage, folder],
            cwd=HERE,
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 30
            while b"ready" not in tail(log).encode():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("boardgame.io did not start:\n" + tail(log))
                time.sleep(0.05)
            yield port, api_port, process.pid
        finally:
            stop(process, grace=5)
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def fsync_redis() -> Iterator[str]:
    """A ``redis-server`` of our own with ``appendonly yes`` and ``appendfsync always`` in a
    temporary folder; yields its URL and stops it after."""
    if shutil.which("redis-server") is None:
        raise RuntimeError("redis-server is not on PATH")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bench-bgio-redis-")
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", folder, "--save", ""]
    command += ["--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        stop(process, grace=10)
        shutil.rmtree(folder, ignore_errors=True)


# -- the clients ------------------------------------------------------------------------


@dataclass
class Cell:
    """What the clients measured on one server at one concurrency."""

    concurrency: int
    windows: list[list[float]]  # per window, the move-to-opponent latencies (ms)
    window_seconds: float
    failures: int
    failure_examples: list[str]
    cpu_ms_per_move: float  # the server's processes (not Redis), over the whole session
    client_cpu_ms_per_move: float  # the Node process of the clients, likewise

    @property
    def rate(self) -> float:
        return sum(len(w) for w in self.windows) / (self.window_seconds * len(self.windows))

    def worst(self, q: float) -> float:
        """The worst window's percentile; a window without a move counts as infinitely slow."""
        return max(percentile(w, q) if w else float("inf") for w in self.windows)


def process_cpu(root: int) -> float:
    """CPU seconds (user and system) of ``root`` and every process under it, now."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    spent: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(spent.get(pid, 0.0) for pid in tree)


@dataclass(frozen=True)
class Target:
    """A running server for the clients: which side, where, and its process."""

    side: str
    server: str
    api: str
    pid: int


@dataclass
class Window:
    """One run of the clients: a warm-up, then one measured window."""

    latencies_ms: list[float]
    moves_all: int
    server_cpu: float
    client_cpu: float
    failures: list[str]
    failure_count: int


def drive(target: Target, concurrency: int, warm: float, window: float) -> Window:
    """One run of ``drive.js`` at ``concurrency`` games, with the CPU the server and the
    clients spent on it."""
    settings = {
        "side": target.side,
        "server": target.server,
        "api": target.api,
        "concurrencies": [concurrency],
        "warm": warm,
        "window": window,
        "windows": 1,
        "moves": MOVES,
    }
    cpu_before = process_cpu(target.pid)
    clients_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        ["node", str(HERE / "drive.js"), json.dumps(settings)], cwd=HERE, capture_output=True, timeout=120
    )
    server_cpu = process_cpu(target.pid) - cpu_before
    clients_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = sum(getattr(clients_after, f) - getattr(clients_before, f) for f in ("ru_utime", "ru_stime"))
    if done.returncode != 0:
        raise RuntimeError(f"the {target.side} clients failed:\n{done.stderr.decode(errors='replace')[-2000:]}")
    (result,) = json.loads(done.stdout.decode().strip().splitlines()[-1])["results"]
    if os.environ.get("BENCH_BGIO_DEBUG"):
        shown = {k: v for k, v in result.items() if k != "records"}
        print(
            f"bench.bgio: {target.side} {shown} server {server_cpu:.2f} s, clients {client_cpu:.2f} s", file=sys.stderr
        )
    return Window(
        [ms for _, ms in result["records"]],
        result["moves_all"],
        server_cpu,
        client_cpu,
        result["failures"],
        result["failure_count"],
    )


def cell(concurrency: int, window: float, runs: Sequence[Window]) -> Cell:
    moves = max(1, sum(run.moves_all for run in runs))
    return Cell(
        concurrency,
        [run.latencies_ms for run in runs],
        window,
        sum(run.failure_count for run in runs),
        [failure for run in runs for failure in run.failures],
        sum(run.server_cpu for run in runs) * 1000 / moves,
        sum(run.client_cpu for run in runs) * 1000 / moves,
    )


def alternate(ours: Target, peer: Target, quick: bool) -> tuple[dict[int, Cell], dict[int, Cell]]:
    """Per concurrency, three runs of each side, taking turns (peer, ours, peer, ...), so
    that a change in what else the machine runs falls on both sides alike."""
    window = 0.5 if quick else 2.0
    warm = 0.25 if quick else 1.0
    cells: tuple[dict[int, Cell], dict[int, Cell]] = ({}, {})
    for concurrency in CONCURRENCIES:
        runs: tuple[list[Window], list[Window]] = ([], [])
        for _ in range(QUICK_WINDOWS if quick else WINDOWS):
            runs[1].append(drive(peer, concurrency, warm, window))
            runs[0].append(drive(ours, concurrency, warm, window))
        for side in (0, 1):
            cells[side][concurrency] = cell(concurrency, window, runs[side])
    return cells


def compare(storage: str, url: str, prefix: str, quick: bool) -> tuple[dict[int, Cell], dict[int, Cell]]:
    """Ours on ``url`` against boardgame.io on ``storage``, both servers up at once."""
    try:
        with bgio_server(storage) as (port, api_port, peer_pid), ours_server(url, prefix) as (our_port, our_pid):
            peer = Target("bgio", f"http://127.0.0.1:{port}", f"http://127.0.0.1:{api_port}", peer_pid)
            ours = Target("ours", f"http://127.0.0.1:{our_port}", "", our_pid)
            return alternate(ours, peer, quick)
    finally:
        delete_prefix(redis.Redis.from_url(url), prefix)


# -- the rows -----------------------------------------------------------------------------


def notes(cell: Cell) -> str:
    said = []
    if cell.failures:
        said.append(f"{cell.failures} games failed: {cell.failure_examples[0][:80]}")
    return f"; {'; '.join(said)}" if said else ""


def rows_for(storage: str, redis_says: str, target: float, ours: dict[int, Cell], peer: dict[int, Cell]) -> list[Row]:
    rows = []
    against = f"boardgame.io 0.50.2, {storage}"
    for c in CONCURRENCIES:
        mine, theirs = ours[c], peer[c]
        games = f"{c} game{'s' if c > 1 else ''}"
        extra = notes(mine) + notes(theirs)
        rows.append(
            higher_is_better(
                f"(9) moves/s, {games}, ours on {redis_says} vs {storage}{extra}",
                mine.rate,
                theirs.rate,
                "moves/s",
                target,
                against,
            )
        )
        cpu = f"(9) server CPU ms per move, {games}, ours (API, not Redis) vs {storage}"
        rows.append(
            lower_is_better(
                cpu, mine.cpu_ms_per_move, theirs.cpu_ms_per_move, "ms", CPU_TARGET, f"{against}, its one process"
            )
            if c == max(CONCURRENCIES) and storage == "InMemory"
            else figure(cpu, mine.cpu_ms_per_move, theirs.cpu_ms_per_move, "ms", f"{against}, its one process")
        )
        rows.append(
            figure(
                f"(9) clients' CPU ms per move, {games}, ours vs {storage}",
                mine.client_cpu_ms_per_move,
                theirs.client_cpu_ms_per_move,
                "ms",
                "boardgame.io's socket.io clients, same process",
            )
        )
        for q in (50, 99):
            name = f"(9) move to opponent p{q}, {games}, {redis_says} vs {storage} (worst of {len(mine.windows)})"
            targeted = q == 50 and c == max(CONCURRENCIES) and storage == "InMemory"
            rows.append(
                lower_is_better(name, mine.worst(q), theirs.worst(q), "ms", P50_TARGET, f"{against}, same clients")
                if targeted
                else figure(name, mine.worst(q), theirs.worst(q), "ms", f"{against}, same clients")
            )
    return rows


def not_run(reason: str) -> list[Row]:
    nan = float("nan")
    return [
        Row(f"(9) boardgame.io peer, {storage}: not run ({reason})", nan, nan, "moves/s", f">= {target}", nan, None)
        for storage, target in (("InMemory", MEMORY_TARGET), ("FlatFile", FLATFILE_TARGET))
    ]


def persistence(url: str) -> str:
    config = redis.Redis.from_url(url).config_get("append*")
    if config.get("appendonly") == "yes":
        return f"Redis (appendfsync {config.get('appendfsync')})"
    return "Redis (no AOF)"


def measure(quick: bool, url: str, prefix: str) -> list[Row]:
    reason = missing()
    if reason is not None:
        print(f"bench.bgio: {reason}; the boardgame.io rows are not run", file=sys.stderr)
        return not_run(reason)
    rows = []
    ours, peer = compare("memory", url, f"{prefix}:mem", quick)
    rows += rows_for("InMemory", persistence(url), MEMORY_TARGET, ours, peer)
    with fsync_redis() as durable:
        ours, peer = compare("flatfile", durable, f"{prefix}:aof", quick)
    rows += rows_for("FlatFile", "Redis (appendfsync always)", FLATFILE_TARGET, ours, peer)
    return rows


def run(quick: bool, url: str | None = None, prefix: str | None = None) -> list[Row]:
    if url is None or prefix is None:
        with bench_redis_url() as (own_url, own_prefix):
            return measure(quick, own_url, own_prefix)
    return measure(quick, url, prefix)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 s windows instead of 3 s")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        sys.exit(serve())
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
