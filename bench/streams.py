"""Open event streams held by the API while it keeps answering everyone else (row 11).

  python -m bench.streams [--quick] [--games N ...]

Starts the API as row 3 does (``bench.api.Server``: ``tablestream serve --no-worker``,
its evented workers, 2 of them, on the Redis under test, rate limits raised out of the
way). The caps on connections and streams keep the service's defaults: the streams come
from 249 loopback addresses (127.0.0.2 to 127.0.0.250), a few dozen each, as a crowd's
would, not from the one address the caps are there to stop.

With no stream open, row 3's measure: the peak of sixteen closed-loop clients each
playing a seat's ``POST /v1/games/{id}/actions``; then, in five rounds (three with ``--quick``), the same
clients paced to half that peak, and ``GET /healthz`` at the same rate; each p99 is the median
of the rounds' own. Then streams are opened in steps (1,000, 2,500, 5,000, 10,000,
15,000; 1,000 and 2,000 with ``--quick``), each step adding to those already open, over
a number of games: the first two streams of a game are its seats', with their tokens, the
rest spectators'. At each step, with every stream held: the same two p99s at the same
rate against those with none open (target <= 2x each); the memory the API's workers grew
by, per stream; and whether moves reach the streams: a player moves a watched game drawn
at random, each every 5 s on average as people's games do, and the crowd times each move
until its first new version id has arrived on every stream of that game (target within a
second). The steps go on while the step before held. It runs twice, each on a server of
its own: over 100 games, and over 40, whose moves each wake more listeners.

The crowd lives in a process of its own: one thread, one selector, non-blocking sockets.
In the measuring process its reads would hold the GIL while the measuring thread's
answers waited, which would count as the server's latency.
"""

from __future__ import annotations

import argparse
import errno
import multiprocessing
import os
import random
import resource
import selectors
import socket
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

import redis

from bench.api import (
    CLIENTS,
    Game,
    Load,
    SequentialGames,
    Server,
    Source,
    create_games,
    drive,
    make_scripts,
    parse_response,
    warm,
)
from bench.bgio import process_cpu
from bench.common import HEADER, Row, bench_redis_url, delete_prefix, figure, lower_is_better, median, percentile

WORKERS = 2
# The games the streams watch: a crowd's spread, and a narrower one, whose moves each
# wake two and a half times as many listeners.
SPREADS = (100, 40)
SEAT_STREAMS = 2  # of each game: its two seats'
STEPS = (1_000, 2_500, 5_000, 10_000, 15_000)
QUICK_STEPS = (1_000, 2_000)
HELD_TARGET = 5_000
P99_RATIO_TARGET = 2.0
DELIVERY_SECONDS = 1.0
# A watched game moves every 5 s on average, as a game between people does: the next
# move goes to a game drawn at random, so that the gaps vary as people's do.
MOVE_EVERY_SECONDS = 5.0
CROWD_ADDRESSES = tuple(f"127.0.0.{last}" for last in range(2, 251))
MOVER_ADDRESS = "127.0.0.251"
# Streams asked for and not yet answered at once: a burst of thousands of connections
# would overflow the listening sockets' backlog, and each refused SYN is retried a second
# later, which times the kernel's retry and not the server.
OPENING_AT_ONCE = 64
# A move's id that has not reached a stream this long after the move counts as lost.
LOST_AFTER = 5.0
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
UNAVAILABLE = b": store unavailable"


@dataclass(frozen=True)
class Phases:
    warm: float
    peak: float
    half: float
    rounds: int
    settle: float


FULL = Phases(warm=1.0, peak=2.0, half=1.5, rounds=5, settle=1.5)
QUICK = Phases(warm=0.5, peak=1.0, half=0.75, rounds=3, settle=1.2)


# -- the crowd: every stream in one thread of its own process ---------------------------


@dataclass(eq=False)
class Stream:
    game: int  # its index in the watched games
    sock: socket.socket
    request: bytes
    sent: bool = False
    status: int | None = None
    head: bytes = b""
    tail: bytes = b""


@dataclass
class PendingMove:
    """A move sent on a watched game: the id its first event will carry on the streams,
    and the streams it has not reached yet."""

    marker: bytes
    sent_at: float
    waiting: set[Stream]
    first_ms: float | None = None


@dataclass
class Opened:
    """What the crowd says after a step's streams were asked for."""

    held: int
    answers: dict[int, int]  # status (0: no answer) -> streams, other than 200
    example: str
    dropped: int
    seconds: float


@dataclass
class Deliveries:
    """What the moves on the watched games did on their streams since last asked."""

    latencies_ms: list[float] = field(default_factory=list)
    lost: int = 0
    moves: int = 0
    refused_moves: int = 0
    # Per move that reached all its streams: from the first stream to the last, an upper
    # bound on the time the API's workers took to hand the event to every listener.
    spreads_ms: list[float] = field(default_factory=list)
    refusal: str = ""
    # Notices on the streams that their game's reader could not read Redis (it retries a
    # second later): counted per stream.
    unavailable: int = 0

    def within(self, seconds: float) -> float:
        total = len(self.latencies_ms) + self.lost
        return sum(1 for ms in self.latencies_ms if ms <= seconds * 1000) / total if total else float("nan")

    def p99(self) -> float:
        return percentile(self.latencies_ms + [float("inf")] * self.lost, 99)


class Crowd:
    """The streams, opened and read in one thread, and a player moving the watched games;
    driven through a pipe by the measuring process."""

    def __init__(self, port: int, games: Sequence[Game], commands: Pipe) -> None:
        self.port = port
        self.games = list(games)
        self.commands = commands
        self.selector = selectors.DefaultSelector()
        self.selector.register(commands.fileno(), selectors.EVENT_READ, "command")
        self.streams: list[Stream] = []
        self.by_game: dict[int, set[Stream]] = {index: set() for index in range(len(self.games))}
        self.to_open = 0
        self.asking = 0
        self.opening_since = 0.0
        self.answers: Counter[int] = Counter()
        self.example = ""
        self.dropped = 0
        self.mover: socket.socket | None = None
        self.mover_buffer = b""
        self.moving: int | None = None
        self.next_move = time.perf_counter()
        self.chance = random.Random(0)
        self.pending: dict[int, PendingMove] = {}
        self.deliveries = Deliveries()
        self.running = True

    # the loop

    def run(self) -> None:
        while self.running:
            self.start_opening()
            self.move_when_due()
            self.forget_lost_moves()
            wait = 0.005 if self.asking else max(0.0, min(0.05, self.next_move - time.perf_counter()))
            for key, _ in self.selector.select(wait):
                if key.data == "command":
                    self.obey(self.commands.recv())
                elif key.data == "mover":
                    self.read_move_answer()
                else:
                    self.read_stream(key.data)
            if self.to_open == 0 and self.asking == 0 and self.opening_since:
                self.commands.send(self.opened())
                self.opening_since = 0.0
        for stream in self.streams:
            stream.sock.close()
        if self.mover is not None:
            self.mover.close()

    def obey(self, command: tuple[str, int]) -> None:
        name, count = command
        if name == "open":
            self.to_open = max(0, count - len(self.streams))
            self.opening_since = time.perf_counter()
        elif name == "deliveries":
            self.commands.send(self.deliveries)
            self.deliveries = Deliveries()
        elif name == "stop":
            self.running = False

    # streams

    def start_opening(self) -> None:
        while self.to_open and self.asking < OPENING_AT_ONCE:
            self.to_open -= 1
            index = len(self.streams)
            game_index = index % len(self.games)
            game = self.games[game_index]
            seat = index // len(self.games)
            token = game.tokens[seat] if seat < SEAT_STREAMS else None
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.bind((CROWD_ADDRESSES[index % len(CROWD_ADDRESSES)], 0))
            stream = Stream(game_index, sock, stream_request(game, token))
            self.streams.append(stream)
            self.asking += 1
            failed = sock.connect_ex(("127.0.0.1", self.port))
            if failed not in (0, errno.EINPROGRESS):
                self.answer(stream, 0, f"connect: {errno.errorcode.get(failed, failed)}")
                continue
            self.selector.register(sock, selectors.EVENT_WRITE, stream)

    def read_stream(self, stream: Stream) -> None:
        if not stream.sent:  # connected, or refused
            failed = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if failed:
                self.answer(stream, 0, f"connect: {errno.errorcode.get(failed, failed)}")
                return
            stream.sock.send(stream.request)  # small: it fits the empty socket buffer
            stream.sent = True
            self.selector.modify(stream.sock, selectors.EVENT_READ, stream)
            return
        try:
            chunk = stream.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        arrived = time.perf_counter()
        if not chunk:
            if stream.status is None:
                self.answer(stream, 0, "closed before an answer: " + stream.head.decode(errors="replace")[:200])
            else:
                self.dropped += 1
                self.close(stream)
            return
        if stream.status is None:
            stream.head += chunk
            if b"\r\n" not in stream.head:
                return
            status = int(stream.head.split(b" ", 2)[1])
            if status != 200:
                whole = parse_response(stream.head)  # its body says why
                if whole is not None:
                    self.answer(stream, status, f"{status} {whole[1][:300].decode(errors='replace')}")
                return
            self.answer(stream, status, "")
        if UNAVAILABLE in chunk:
            self.deliveries.unavailable += 1
        pending = self.pending.get(stream.game)
        if pending is not None and stream in pending.waiting and pending.marker in stream.tail + chunk:
            took = (arrived - pending.sent_at) * 1000
            self.deliveries.latencies_ms.append(took)
            pending.first_ms = took if pending.first_ms is None else pending.first_ms
            pending.waiting.discard(stream)
            if not pending.waiting:
                self.deliveries.spreads_ms.append(took - pending.first_ms)
        stream.tail = chunk[-24:]

    def answer(self, stream: Stream, status: int, text: str) -> None:
        self.asking -= 1
        stream.status = status
        if status == 200:
            self.by_game[stream.game].add(stream)
            return
        self.answers[status] += 1
        self.example = self.example or text
        self.close(stream)

    def close(self, stream: Stream) -> None:
        self.by_game[stream.game].discard(stream)
        try:
            self.selector.unregister(stream.sock)
        except KeyError:
            pass
        stream.sock.close()

    def opened(self) -> Opened:
        held = sum(len(streams) for streams in self.by_game.values())
        seconds = time.perf_counter() - self.opening_since
        return Opened(held, dict(self.answers), self.example, self.dropped, seconds)

    # the player moving the watched games

    def move_when_due(self) -> None:
        now = time.perf_counter()
        if self.moving is not None or now < self.next_move:
            return
        self.next_move += MOVE_EVERY_SECONDS / len(self.games)
        # A finished game's streams end: its last step is never played.
        playable = [i for i, game in enumerate(self.games) if game.step < len(game.script.steps) - 1]
        if not playable:
            return
        index = self.chance.choice(playable)
        game = self.games[index]
        expected = game.script.steps[game.step][2]
        self.moving = index
        self.pending[index] = PendingMove(f"id: {expected + 1}\n".encode(), now, set(self.by_game[index]))
        self.send_move()
        self.deliveries.moves += 1

    def send_move(self) -> None:
        assert self.moving is not None
        if self.mover is None:
            self.mover = socket.create_connection(("127.0.0.1", self.port), source_address=(MOVER_ADDRESS, 0))
            self.mover.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.mover.setblocking(False)
            self.selector.register(self.mover, selectors.EVENT_READ, "mover")
        self.mover.send(self.games[self.moving].request())

    def read_move_answer(self) -> None:
        assert self.mover is not None
        try:
            chunk = self.mover.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.selector.unregister(self.mover)
            self.mover.close()
            self.mover, self.mover_buffer = None, b""
            if self.moving is not None:
                # The server closed the connection as the move went: it is sent again on a
                # new one (with the same Idempotency-Key, so nothing is appended twice).
                self.send_move()
            return
        self.mover_buffer += chunk
        parsed = parse_response(self.mover_buffer)
        if parsed is None or self.moving is None:
            return
        status, body, self.mover_buffer, close = parsed
        game = self.games[self.moving]
        if status == 200:
            game.step += 1
        else:
            # The game left its script: it is not moved again.
            game.step = len(game.script.steps)
            self.pending.pop(self.moving, None)
            self.deliveries.refused_moves += 1
            self.deliveries.refusal = self.deliveries.refusal or f"{status} {body[:300].decode(errors='replace')}"
        self.moving = None
        if close:
            self.selector.unregister(self.mover)
            self.mover.close()
            self.mover, self.mover_buffer = None, b""

    def forget_lost_moves(self) -> None:
        now = time.perf_counter()
        for index, pending in list(self.pending.items()):
            if not pending.waiting:
                del self.pending[index]
            elif now - pending.sent_at > LOST_AFTER:
                self.deliveries.lost += len(pending.waiting)
                del self.pending[index]


def stream_request(game: Game, token: str | None) -> bytes:
    # From the version the game is at, as a client that has just read the game would.
    version = game.script.steps[min(game.step, len(game.script.steps) - 1)][2]
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (
        f"GET /v1/games/{game.game_id}/events/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
        f"Last-Event-ID: {version}\r\n{auth}\r\n"
    ).encode()


def crowd_main(port: int, games: Sequence[Game], commands: Pipe) -> None:
    Crowd(port, games, commands).run()


class CrowdProcess:
    """The measuring process's handle on the crowd."""

    def __init__(self, pipe: Pipe, process: multiprocessing.process.BaseProcess) -> None:
        self.pipe = pipe
        self.process = process

    def open(self, count: int) -> Opened:
        self.pipe.send(("open", count))
        answer: Opened = self.answer()
        return answer

    def deliveries(self) -> Deliveries:
        self.pipe.send(("deliveries", 0))
        answer: Deliveries = self.answer()
        return answer

    def answer(self) -> Any:
        while not self.pipe.poll(1.0):
            if not self.process.is_alive():
                raise RuntimeError(f"the crowd's process ended (exit code {self.process.exitcode})")
        return self.pipe.recv()


@contextmanager
def crowd(port: int, games: Sequence[Game]) -> Iterator[CrowdProcess]:
    ours, theirs = multiprocessing.Pipe()
    # Forked: the games go across as they are, and nothing of the measuring process runs
    # in a thread that the fork would leave behind.
    process = multiprocessing.get_context("fork").Process(target=crowd_main, args=(port, games, theirs), daemon=True)
    process.start()
    try:
        yield CrowdProcess(ours, process)
    finally:
        try:
            ours.send(("stop", 0))
        except OSError:
            pass
        process.join(timeout=30)
        if process.is_alive():
            process.kill()
            process.join()


# -- measuring ------------------------------------------------------------------------------


def more_open_files() -> int:
    """The soft limit of open files raised to the hard one (inherited by the crowd and the
    server); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def workers(master: int) -> list[int]:
    """The gunicorn master's worker processes: its children, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == master:
                found.append(int(entry.name))
    return found


def workers_rss_kib(master: int) -> int:
    """VmRSS of the gunicorn master's workers, summed."""
    total = 0
    for pid in workers(master):
        status = Path(f"/proc/{pid}/status").read_text()
        total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return total


def workers_files(master: int) -> list[int]:
    """Open files of each worker: the streams it holds, and a few dozen of its own."""
    return [len(os.listdir(f"/proc/{pid}/fd")) for pid in workers(master)]


def healthz_sources(clients: int) -> list[Source]:
    return [lambda: HEALTHZ for _ in range(clients)]


@dataclass
class HalfPeak:
    """Rounds of row 3's half-peak measure; each p99 is the median of the rounds' own, so
    that one round's hiccup (this machine's speed wanders) decides nothing."""

    rounds: list[tuple[Load, Load]]  # the actions, then /healthz
    answers: Counter[int]  # statuses other than 200, of both
    server_cpu: float  # the API's processes, CPU seconds a second
    # The cores busy outside this bench's processes (its server and crowd included):
    # Redis, and whatever else shares the machine.
    elsewhere: float

    @property
    def actions_p99(self) -> float:
        return median([p99(actions) for actions, _ in self.rounds])

    @property
    def healthz_p99(self) -> float:
        return median([p99(healthz) for _, healthz in self.rounds])

    def spread(self) -> str:
        """The rounds' p99s, lowest to highest: how far this machine wanders."""
        actions = sorted(p99(actions) for actions, _ in self.rounds)
        healthz = sorted(p99(healthz) for _, healthz in self.rounds)
        return (
            f"rounds' p99 actions {actions[0]:.1f}-{actions[-1]:.1f} ms, /healthz {healthz[0]:.1f}-{healthz[-1]:.1f} ms"
        )

    @property
    def rate(self) -> float:
        return sum(actions.rate for actions, _ in self.rounds) / len(self.rounds)


def p99(load: Load) -> float:
    """A round's p99; a round with no answer of 200 counts as slower than any."""
    return load.p(99) if load.latencies_ms else float("inf")


def half_peak(port: int, master: int, players: SequentialGames, per_client: float, phases: Phases) -> HalfPeak:
    """The seats' actions paced to ``per_client`` a second each, then ``/healthz`` at the
    same rate, in ``phases.rounds`` rounds."""
    answers: Counter[int] = Counter()

    def action_answered(client: int, status: int) -> bool:
        answers.update([status] if status != 200 else [])
        return players.accept(client, status)

    def health_answered(_: int, status: int) -> bool:
        answers.update([status] if status != 200 else [])
        return status == 200

    spent, ours, machine, began = process_cpu(master), process_cpu(os.getpid()), busy_cores(), time.perf_counter()
    rounds = []
    for _ in range(phases.rounds):
        actions = drive(port, players.sources(), phases.half, per_client_rate=per_client, accept=action_answered)
        healthz = drive(port, healthz_sources(CLIENTS), phases.half, per_client_rate=per_client, accept=health_answered)
        rounds.append((actions, healthz))
    seconds = time.perf_counter() - began
    cpu = (process_cpu(master) - spent) / seconds
    elsewhere = (busy_cores() - machine - process_cpu(os.getpid()) + ours) / seconds
    return HalfPeak(rounds, answers, cpu, elsewhere)


def busy_cores() -> float:
    """CPU seconds every core of the machine has spent busy, from /proc/stat."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


@dataclass
class Step:
    count: int
    opened: Opened
    measured: HalfPeak
    deliveries: Deliveries
    rss_kib: int
    files: list[int]

    def holds(self, baseline: HalfPeak) -> bool:
        return (
            self.opened.held == self.count
            and not self.opened.dropped
            and not self.measured.answers
            and self.measured.actions_p99 <= P99_RATIO_TARGET * baseline.actions_p99
            and self.measured.healthz_p99 <= P99_RATIO_TARGET * baseline.healthz_p99
        )


@dataclass
class Measured:
    games: int
    peak: Load
    baseline: HalfPeak
    rss_none_kib: int
    steps: list[Step]


def measure(url: str, prefix: str, quick: bool, spread: int) -> Measured:
    """Row 11 on a server of its own, with the streams over ``spread`` games."""
    phases = QUICK if quick else FULL
    steps_wanted = QUICK_STEPS if quick else STEPS
    # Room for the crowd's sockets and the measuring clients' in this process and the
    # crowd's; the server's workers share each step between them.
    files = more_open_files()
    steps_wanted = tuple(count for count in steps_wanted if count <= files - 1_000)
    client = redis.Redis.from_url(url)
    scripts = make_scripts(client, prefix)
    shortest = min(len(s.steps) for s in scripts)
    # Enough games for the seats' clients at up to 2,500 actions/s (more than this machine
    # gives) through every phase, so that none runs out.
    seconds_of_play = 2 * phases.warm + phases.peak + (1 + len(steps_wanted)) * phases.half * phases.rounds
    per_client = max(2, int(2500 * seconds_of_play / CLIENTS / shortest) + 1)
    players = SequentialGames(create_games(client, prefix, scripts, CLIENTS * per_client), CLIENTS)
    watched = create_games(client, prefix, scripts, spread)
    with Server(url, prefix, WORKERS) as server, crowd(server.port, watched) as streams:
        master = server.process.pid if server.process is not None else 0
        warm(server.port, healthz_sources(CLIENTS), None, phases.warm)
        warm(server.port, players.sources(), players.accept, phases.warm)
        peak = drive(server.port, players.sources(), phases.peak, accept=players.accept)
        per_client = peak.rate / 2 / CLIENTS
        baseline = half_peak(server.port, master, players, per_client, phases)
        rss_none = workers_rss_kib(master)
        say(
            f"{spread} games, none open: peak {peak.rate:,.0f} actions/s; at half peak p99 actions "
            f"{baseline.actions_p99:.1f} ms, /healthz {baseline.healthz_p99:.1f} ms ({baseline.spread()}); "
            f"API CPU {baseline.server_cpu:.2f} s/s, elsewhere {baseline.elsewhere:.2f}; "
            f"workers' RSS {rss_none / 1024:,.0f} MiB"
        )
        steps: list[Step] = []
        for count in steps_wanted:
            opened = streams.open(count)
            time.sleep(phases.settle)
            rss = workers_rss_kib(master)
            while_opening = streams.deliveries()  # not this step's measure
            measured = half_peak(server.port, master, players, per_client, phases)
            step = Step(count, opened, measured, streams.deliveries(), rss, workers_files(master))
            if while_opening.unavailable:
                say(f"while they opened, 'store unavailable' on {while_opening.unavailable} streams")
            steps.append(step)
            say(describe(step, baseline, rss_none))
            if not step.holds(baseline):
                break
    return Measured(spread, peak, baseline, rss_none, steps)


def describe(step: Step, baseline: HalfPeak, rss_none: int) -> str:
    opened, measured, delivered = step.opened, step.measured, step.deliveries
    refused = f", other answers {opened.answers} (first: {opened.example!r})" if opened.answers else ""
    failed = f"; answered other than 200: {dict(measured.answers)}" if measured.answers else ""
    return (
        f"{step.count:,} asked: {opened.held:,} held (opened in {opened.seconds:.1f} s{refused}), "
        f"{opened.dropped} dropped; p99 actions {measured.actions_p99:.1f} ms "
        f"({measured.actions_p99 / baseline.actions_p99:.2f}x), /healthz {measured.healthz_p99:.1f} ms "
        f"({measured.healthz_p99 / baseline.healthz_p99:.2f}x; {measured.spread()}){failed}; "
        f"API CPU {measured.server_cpu:.2f} s/s, elsewhere {measured.elsewhere:.2f}; "
        f"{memory_per_stream(step, rss_none):.1f} KiB a stream (RSS {step.rss_kib / 1024:,.0f} MiB; "
        f"files per worker {step.files}); {delivered.moves} moves, {len(delivered.latencies_ms)} deliveries, "
        f"p99 {delivered.p99():.0f} ms, {delivered.within(DELIVERY_SECONDS):.1%} within 1 s, {delivered.lost} lost, "
        f"first to last stream of a move p50 {median(delivered.spreads_ms):.1f} ms"
        + (f", {delivered.refused_moves} moves refused ({delivered.refusal})" if delivered.refused_moves else "")
        + (f"; 'store unavailable' on {delivered.unavailable} streams" if delivered.unavailable else "")
    )


def memory_per_stream(step: Step, rss_none: int) -> float:
    return (step.rss_kib - rss_none) / step.opened.held if step.opened.held else float("nan")


def say(line: str) -> None:
    print(f"# streams: {line}", file=sys.stderr, flush=True)


# -- the rows ---------------------------------------------------------------------------------


def rows_of(found: Measured) -> list[Row]:
    baseline, rate, games = found.baseline, found.baseline.rate, found.games
    rows: list[Row] = []
    for step in found.steps:
        notes = [f"{sum(step.opened.answers.values())} not answered 200"] if step.opened.answers else []
        notes += [f"{step.opened.dropped} dropped"] if step.opened.dropped else []
        answers = ", ".join(f"{count} {status}" for status, count in sorted(step.measured.answers.items()))
        notes += [f"answered {answers}"] if answers else []
        measured = [
            lower_is_better(
                f"(11) {games} games, {step.opened.held:,} of {step.count:,} streams held: GET /healthz p99 at "
                f"half peak ({rate:,.0f}/s)" + "".join(f"; {note}" for note in notes),
                step.measured.healthz_p99,
                baseline.healthz_p99,
                "ms",
                P99_RATIO_TARGET,
                "none open, same rate",
            ),
            lower_is_better(
                f"(11) {games} games, {step.opened.held:,} streams held: POST /actions p99 at half peak",
                step.measured.actions_p99,
                baseline.actions_p99,
                "ms",
                P99_RATIO_TARGET,
                "none open, same rate",
            ),
        ]
        for row in measured:
            # A p99 of the answers that came is no pass when some were refused.
            row.meets = bool(row.meets) and not step.measured.answers
        rows += measured
    held = [step for step in found.steps if step.holds(baseline)]
    shown = held[-1] if held else found.steps[-1]
    tried = found.steps[-1].count
    most = held[-1].count if held else 0
    delivered = shown.deliveries
    return rows + [
        Row(
            f"(11) open streams held over {games} games, /healthz and action p99 at half peak within "
            f"{P99_RATIO_TARGET:g}x of none open",
            most,
            tried,
            "streams",
            f">= {HELD_TARGET:,}",
            most / tried,
            most >= HELD_TARGET,
            "the largest step tried",
        ),
        figure(
            f"(11) {games} games: memory per stream, {shown.opened.held:,} open: "
            f"{memory_per_stream(shown, found.rss_none_kib):.1f} KiB (the API workers' RSS)",
            shown.rss_kib / 1024,
            found.rss_none_kib / 1024,
            "MiB",
            "the workers' RSS with none open",
        ),
        Row(
            f"(11) {games} games: a move reaching its game's streams, {shown.opened.held:,} open: p99 "
            f"({len(delivered.latencies_ms):,} deliveries of {delivered.moves} moves, "
            f"{delivered.within(DELIVERY_SECONDS):.1%} within 1 s"
            + (f"; {delivered.refused_moves} moves refused" if delivered.refused_moves else "")
            + ")",
            delivered.p99(),
            shown.measured.actions_p99,
            "ms",
            f"<= {DELIVERY_SECONDS * 1000:g} ms",
            delivered.p99() / shown.measured.actions_p99 if shown.measured.actions_p99 else float("inf"),
            delivered.p99() <= DELIVERY_SECONDS * 1000 and not delivered.refused_moves,
            "the move's own POST p99, same step",
        ),
    ]


def run(quick: bool, url: str | None = None, prefix: str | None = None, spreads: Sequence[int] = SPREADS) -> list[Row]:
    if url is None or prefix is None:
        with bench_redis_url() as (own_url, own_prefix):
            return run(quick, own_url, f"{own_prefix}:streams", spreads)
    rows: list[Row] = []
    try:
        for spread in spreads:
            rows += rows_of(measure(url, prefix, quick, spread))
    finally:
        delete_prefix(redis.Redis.from_url(url), prefix)
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="steps of 1,000 and 2,000 streams, shorter phases")
    parser.add_argument(
        "--games", type=int, action="append", help=f"the games the streams watch (repeatable; default {SPREADS})"
    )
    args = parser.parse_args(argv)
    print(HEADER)
    for row in run(args.quick, spreads=args.games or SPREADS):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
