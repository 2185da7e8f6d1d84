"""How long a human waits for a bot's answer through the real service.

  python -m bench.botwait [--quick] [--kind KIND ...] [--level LEVEL ...]

Starts ``tablestream serve`` on an embedded Redis of its own (a fresh data folder: the
README's set-up, with its API, worker and projector), and plays, per game kind with two
seats and per bot level, a game of one human against one bot: the human plays random
legal actions. What is timed is what the human feels: from the moment the human's
``POST .../actions`` is sent to the moment the bot's first event arrives on the human's
``GET .../events/stream`` (Server-Sent Events, with the human seat's token), read by a
thread of the bench as the bytes arrive.

The baseline is the same path with a no-op bot (``noop``: the first legal action, at no
cost), a level that exists only in the service processes this bench starts: they start
with a ``sitecustomize`` of the bench's on their path, which adds it to
``games.bots.BOTS`` and to the levels a game may name, before the CLI runs. The games of
one kind, one per level, take turns action by action, so every level meets the same load.

Rows, one p50 and one p99 per level (random, greedy, ismcts), each against the no-op
bot's figure of the same round: the target is a p50 of at most 50 ms for random and
greedy; the p99 rows and ISMCTS (which thinks for its configured time, ``bot_seconds``)
are printed for scale. Every round is played three times and the worst is reported.
The command also prints where the time goes, from the events' own times (``at``, in
whole milliseconds): POST sent -> human's event written -> bot's event written -> the
event on the human's stream.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.common import Row, absolute, figure, median, percentile

NOOP = "noop"
LEVELS = ("random", "greedy", "ismcts")
TARGET_MS = 50.0
TARGETED = ("random", "greedy")
ROUNDS = 3
# Human actions that hand the turn to the bot, per kind and level, in each round (ISMCTS
# thinks for its whole budget on every move of its turn, so it gets fewer).
SAMPLES = {"full": {"fast": 5, "ismcts": 1}, "quick": {"fast": 3, "ismcts": 1}}
# --quick plays the kind whose human hands the turn over most often (fewest actions a sample).
QUICK_KINDS = ("fortress-royals",)
WARM_UP = 1  # answered actions per kind and fast level before counting (imports, caches, connections)
FIRST_WAIT = TARGET_MS / 1000  # seconds to wait for the bot before asking whether it is to act at all
THINK = 0.02  # seconds the human looks at the board before acting (the service settles meanwhile)
ROOT = Path(__file__).resolve().parent.parent

SITE = """\
# Written by bench.botwait for the service processes it starts: a no-op bot level.
from bench.botwait import register_noop

register_noop()
"""


def noop_bot(game: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """The baseline bot: the first legal action, no thought."""
    return game.legal_actions(state, seat)[0]


def register_noop() -> None:
    """Add the no-op level to this process's bots and to the levels a game may name. Run
    (by the bench's ``sitecustomize``) before the CLI imports the handler and schemas,
    which copy the levels when they are imported."""
    import core.creation
    from games import bots

    bots.BOTS.setdefault(NOOP, noop_bot)
    if NOOP not in core.creation.BOT_LEVELS:
        core.creation.BOT_LEVELS = (*core.creation.BOT_LEVELS, NOOP)  # type: ignore[assignment]


# -- the service -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``tablestream serve`` on an embedded Redis in ``folder``, the no-op bot registered
    in its processes; returns the process and its port once it answers."""
    site = folder / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITE)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL")}
    env.update(
        PORT=str(port),
        TABLESTREAM_DATA_DIR=str(folder / "data"),
        TABLESTREAM_RATE_PER_TOKEN="100000",
        TABLESTREAM_RATE_PER_ADDRESS="100000",
        PYTHONPATH=os.pathsep.join(p for p in (str(site), str(ROOT), env.get("PYTHONPATH", "")) if p),
    )
    command = [str(Path(sys.executable).parent / "tablestream"), "serve"]
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if Client(port).call("GET", "/healthz")[0] == 200:
                return process, port
        except OSError:
            pass
        time.sleep(0.1)
    stop_service(process)
    raise SystemExit(f"tablestream serve did not come up:\n{(folder / 'serve.log').read_text()[-2000:]}")


def stop_service(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class Client:
    """A keep-alive HTTP/1.1 connection sending JSON (little client CPU in the timings)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port, self.token = port, token
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
            if method == "POST" and path.endswith("/actions"):
                headers["Idempotency-Key"] = uuid.uuid4().hex
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        except (http.client.HTTPException, OSError):
            self.connection.close()  # a dropped keep-alive: once more on a new connection
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
        raw = response.read()
        return response.status, (json.loads(raw) if raw else None)

    def close(self) -> None:
        self.connection.close()


@dataclass
class Arrival:
    at: float  # perf_counter when the event's last line arrived
    version: int
    event: dict[str, Any]


class Stream(threading.Thread):
    """A seat's SSE stream, read by a thread that timestamps each event as it arrives."""

    def __init__(self, port: int, game: str, token: str, after: int) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.connection.request(
            "GET",
            f"/v1/games/{game}/events/stream?after={after}",
            headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"},
        )
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            raise SystemExit(f"the event stream of {game} answered {self.response.status}")
        self.arrivals: queue.Queue[Arrival | None] = queue.Queue()
        self.start()

    def run(self) -> None:
        data: list[str] = []
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("data:"):
                    data.append(text[5:].strip())
                elif not text and data:
                    arrived = time.perf_counter()
                    event = json.loads("\n".join(data))
                    data = []
                    if "version" in event:  # not a chat message
                        self.arrivals.put(Arrival(arrived, int(event["version"]), event))
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed under the reader (AttributeError: http.client's own race on close)
        finally:
            self.arrivals.put(None)
            self.connection.close()

    def bot_answer(self, after: int, timeout: float) -> Arrival | None:
        """The first event by the bot after ``after``, waiting ``timeout`` seconds at most."""
        until = time.perf_counter() + timeout
        while True:
            left = until - time.perf_counter()
            if left <= 0:
                return None
            try:
                arrival = self.arrivals.get(timeout=left)
            except queue.Empty:
                return None
            if arrival is None:
                self.arrivals.put(None)  # the stream ended (a finished game): keep saying so
                return None
            if arrival.version > after and arrival.event.get("actor") == "bot":
                return arrival

    def close(self) -> None:
        try:
            if self.connection.sock is not None:
                self.connection.sock.shutdown(socket.SHUT_RDWR)  # the reader sees the end and closes
        except OSError:
            pass
        self.join(timeout=5)


# -- one human against one bot -----------------------------------------------------------


@dataclass
class Sample:
    wait: float  # seconds, POST sent -> bot's first event on the stream
    parts: tuple[float, float, float] | None  # ms: POST -> human's event, -> bot's event, -> arrival


def epoch(at: str) -> float:
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


@dataclass
class Match:
    """Games of one kind against one bot level, a new one whenever the last is over."""

    port: int
    kind: str
    level: str
    rng: random.Random
    client: Client | None = None
    stream: Stream | None = None
    game: str = ""
    body: dict[str, Any] = field(default_factory=dict)
    played: int = 0

    def open(self) -> None:
        self.close()
        creator = Client(self.port)
        status, created = creator.call(
            "POST", "/v1/games", {"kind": self.kind, "players": [{"name": "ann"}, {"bot": self.level}]}
        )
        creator.close()
        if status != 201 and status != 200:
            raise SystemExit(f"creating a {self.kind} game against {self.level} answered {status}: {created}")
        self.game, token = created["id"], created["seats"][0]["token"]
        self.client = Client(self.port, token)
        self.body = self.read()
        self.stream = Stream(self.port, self.game, token, self.body["version"])
        self.until_ours()

    def read(self) -> dict[str, Any]:
        assert self.client is not None
        status, body = self.client.call("GET", f"/v1/games/{self.game}")
        if status != 200:
            raise SystemExit(f"GET {self.game} answered {status}: {body}")
        return dict(body)

    def ours(self) -> bool:
        return self.body["status"] != "active" or 0 in self.body["to_act"]

    def until_ours(self) -> None:
        """Wait (untimed) until the human is to act or the game is over."""
        deadline = time.monotonic() + 60
        while not self.ours():
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.kind}/{self.level}: the bot did not finish its turn (game {self.game})")
            time.sleep(0.005)
            self.body = self.read()

    def step(self) -> Sample | None:
        """One human action; the wait for the bot's answer when it was the bot's turn next."""
        if self.stream is None or self.body["status"] != "active":
            self.open()
            if self.body["status"] != "active":
                return None
        assert self.client is not None and self.stream is not None
        time.sleep(THINK)
        bot_acting = 1 in self.body["to_act"]  # a phase where both act: the bot is not answering us
        action = self.rng.choice(self.body["legal_actions"])
        path = f"/v1/games/{self.game}/actions"
        sent, sent_wall = time.perf_counter(), time.time()
        status, acted = self.client.call("POST", path, {"action": action, "expected_version": self.body["version"]})
        if status != 200:  # the bot acted meanwhile (both to act): read again
            self.body = self.read()
            self.until_ours()
            return None
        version = int(acted["version"])
        answer = self.stream.bot_answer(version, FIRST_WAIT)
        if answer is None:
            self.body = self.read()
            if self.body["version"] == version and 1 not in self.body["to_act"]:
                return None  # the human acts again, or the game is over
            answer = self.stream.bot_answer(version, 60)
            if answer is None:
                raise SystemExit(f"{self.kind}/{self.level}: no answer from the bot in 60 s (game {self.game})")
        self.body = self.read()
        self.until_ours()
        if bot_acting:
            return None
        self.played += 1
        parts = None
        if acted.get("events"):
            human, bot = epoch(acted["events"][-1]["at"]), epoch(answer.event["at"])
            arrived = sent_wall + (answer.at - sent)
            parts = ((human - sent_wall) * 1000, (bot - human) * 1000, (arrived - bot) * 1000)
        return Sample(answer.at - sent, parts)

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if self.client is not None:
            self.client.close()
            self.client = None


def play_round(matches: list[Match], wanted: dict[str, int]) -> dict[str, list[Sample]]:
    """Per level, ``wanted[level]`` samples of each kind; the games of a kind (one per
    level, the no-op bot's included) take turns action by action, so that every level
    meets the same load. The games go on from one round to the next."""
    samples: dict[str, list[Sample]] = {level: [] for level in wanted}
    spent: dict[str, float] = {}
    for kind in dict.fromkeys(m.kind for m in matches):
        playing = [m for m in matches if m.kind == kind and wanted.get(m.level, 0) > 0]
        got = {m.level: 0 for m in playing}
        tries = 0
        while any(got[m.level] < wanted[m.level] for m in playing):
            tries += 1
            if tries > 100 * sum(wanted.values()):
                raise SystemExit(f"{kind}: too few actions hand the turn to the bot")
            for match in playing:
                if got[match.level] >= wanted[match.level]:
                    continue
                began = time.perf_counter()
                sample = match.step()
                spent[match.level] = spent.get(match.level, 0.0) + time.perf_counter() - began
                if sample is not None:
                    samples[match.level].append(sample)
                    got[match.level] += 1
    if os.environ.get("BOTWAIT_DEBUG"):
        print("  seconds spent per level:", {k: round(v, 1) for k, v in spent.items()}, flush=True)
    return samples


# -- the rows ----------------------------------------------------------------------------


def two_seat_kinds(port: int) -> list[str]:
    status, body = Client(port).call("GET", "/v1/kinds")
    return [k["key"] for k in body["kinds"] if k["min_players"] <= 2 <= k["max_players"]]


def ms(samples: list[Sample], q: float) -> float:
    return percentile([s.wait for s in samples], q) * 1000


def measure(
    quick: bool, kinds: list[str] | None = None, levels: list[str] | None = None, show: bool = False
) -> tuple[list[dict[str, list[Sample]]], list[str]]:
    """Three rounds (after an uncounted warm-up) on one service; returns them and the kinds."""
    mode = "quick" if quick else "full"
    folder = Path(tempfile.mkdtemp(prefix="tablestream-botwait-"))
    process, port = start_service(folder)
    chosen = [NOOP, *(levels or LEVELS)]
    matches: list[Match] = []
    try:
        if not kinds:
            kinds = two_seat_kinds(port)
            if quick:
                kinds = [k for k in kinds if k in QUICK_KINDS] or kinds
        matches = [Match(port, kind, level, random.Random(f"{kind}:{level}")) for kind in kinds for level in chosen]
        play_round(matches, {level: 0 if level == "ismcts" else WARM_UP for level in chosen})
        per = SAMPLES[mode]
        wanted = {level: per["ismcts" if level == "ismcts" else "fast"] for level in chosen}
        rounds = []
        for number in range(ROUNDS):
            started = time.perf_counter()
            rounds.append(play_round(matches, wanted))
            if show:
                print(f"round {number + 1}: {time.perf_counter() - started:.1f} s", flush=True)
                describe(rounds[-1])
        return rounds, kinds
    finally:
        for match in matches:
            match.close()
        stop_service(process)
        shutil.rmtree(folder, ignore_errors=True)


def describe(samples: dict[str, list[Sample]]) -> None:
    print(
        f"  {'bot':<7} {'n':>4} {'p50':>7} {'p90':>7} {'p99':>7} {'max':>7}   "
        "medians, ms: POST -> human's event -> bot's event -> on the stream"
    )
    for level, found in samples.items():
        parts = [s.parts for s in found if s.parts is not None]
        split = " -> ".join(f"{median([p[i] for p in parts]):.1f}" for i in range(3)) if parts else "-"
        print(
            f"  {level:<7} {len(found):>4} {ms(found, 50):>7.1f} {ms(found, 90):>7.1f} {ms(found, 99):>7.1f} "
            f"{ms(found, 100):>7.1f}   {split}",
            flush=True,
        )


def to_rows(rounds: list[dict[str, list[Sample]]], kinds: list[str]) -> list[Row]:
    rows: list[Row] = []
    scope = f"{len(kinds)} two-seat kinds, worst of {len(rounds)}"
    for level in [level for level in rounds[0] if level != NOOP]:
        for q in (50, 99):
            # The worst round for this figure, against the no-op bot in that same round.
            worst = max(rounds, key=lambda r: ms(r[level], q))
            ours, base = ms(worst[level], q), ms(worst[NOOP], q)
            name = f"(10) bot answer on the human's SSE stream, {level}, p{q} ({scope})"
            against = f"no-op bot p{q}"
            if q == 50 and level in TARGETED:
                rows.append(absolute(name, ours, "ms", TARGET_MS, base, against))
            else:
                rows.append(figure(name, ours, base, "ms", against))
    return rows


def rows(quick: bool) -> list[Row]:
    rounds, kinds = measure(quick)
    return to_rows(rounds, kinds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.botwait", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one kind, fewer actions per round")
    parser.add_argument("--kind", action="append", help="game kinds (default: every kind two can play)")
    parser.add_argument("--level", action="append", choices=LEVELS, help="bot levels (default: all three)")
    args = parser.parse_args(argv)
    from bench.common import HEADER

    started = time.perf_counter()
    rounds, kinds = measure(args.quick, args.kind, args.level, show=True)
    print(HEADER)
    for row in to_rows(rounds, kinds):
        print(row.line())
    print(f"({time.perf_counter() - started:.0f} s; kinds: {', '.join(kinds)})")


if __name__ == "__main__":
    main()
