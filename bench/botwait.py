"""How fast bots answer a human through the real service (issue 6).

  python -m bench.botwait [--kind KIND ...] [--level random|greedy|ismcts ...] [--actions 20]

Starts `tablestream serve` on an embedded Redis of its own (a fresh data folder, so the
README's set-up, API, worker and projector included), creates per kind and bot level a
two-seat game of one human and one bot, and plays the human's side with random legal
actions. After each human action it polls the game every 20 ms and records two waits,
from the action's 200 answer: until the bot's first event is in the log ("answers") and
until the human is to act again or the game is over ("back", the bot's whole turn,
which in Fortress v1.1 is three actions). The baseline, measured in the same run, is
the median round trip of a GET of the same game; the target is an answer within 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

TARGET_MS = 1000.0
POLL = 0.02


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_REDIS_URL")}
    env.update(
        PORT=str(port),
        TABLESTREAM_DATA_DIR=str(folder / "data"),
        TABLESTREAM_RATE_PER_TOKEN="1000",
        TABLESTREAM_RATE_PER_ADDRESS="10000",
    )
    command = [str(Path(sys.executable).parent / "tablestream"), "serve"]
    process = subprocess.Popen(
        command, env=env, stdout=(folder / "serve.log").open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                return process, base
        except requests.RequestException:
            pass
        time.sleep(0.2)
    raise SystemExit(f"tablestream serve did not come up; see {folder / 'serve.log'}")


def play(base: str, kind: str, level: str, actions: int, rng: random.Random) -> dict[str, list[float]]:
    session = requests.Session()
    created = session.post(
        f"{base}/v1/games", json={"kind": kind, "players": [{"name": "ann"}, {"bot": level}]}, timeout=30
    ).json()
    game, token = created["id"], created["seats"][0]["token"]
    session.headers["Authorization"] = f"Bearer {token}"
    url = f"{base}/v1/games/{game}"
    waits: dict[str, list[float]] = {"answers": [], "back": [], "get": []}

    def read() -> dict[str, Any]:
        started = time.perf_counter()
        body: dict[str, Any] = session.get(url, timeout=30).json()
        waits["get"].append(time.perf_counter() - started)
        return body

    def ours(body: dict[str, Any]) -> bool:
        return body["status"] != "active" or 0 in body["to_act"]

    body = read()
    deadline = time.monotonic() + 60
    while not ours(body) and time.monotonic() < deadline:  # the bot may open the game
        time.sleep(POLL)
        body = read()
    for _ in range(actions):
        if body["status"] != "active":
            break
        action = rng.choice(body["legal_actions"])
        answer = session.post(
            f"{url}/actions", json={"action": action, "expected_version": body["version"]}, timeout=30
        )
        if answer.status_code != 200:
            body = read()
            continue
        acted_at, version = time.perf_counter(), answer.json()["version"]
        body = read()
        if body["status"] != "active" or body["version"] == version and ours(body):
            continue  # the game is over, or the human acts again (several actions a turn)
        answered = False
        while True:
            now = time.perf_counter()
            if not answered and body["version"] > version:
                waits["answers"].append(now - acted_at)
                answered = True
            if answered and ours(body):
                waits["back"].append(now - acted_at)
                break
            if now - acted_at > 30:
                raise SystemExit(f"{kind}/{level}: the bot did not answer in 30 s (game {game})")
            time.sleep(POLL)
            body = read()
    return waits


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.botwait", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", action="append", help="game kinds (default: every two-seat kind)")
    parser.add_argument("--level", action="append", help="bot levels (default: random, greedy, ismcts)")
    parser.add_argument("--actions", type=int, default=20, help="human actions per game (default 20)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tablestream-botwait-"))
    process, base = start_service(folder)
    try:
        kinds = args.kind or [
            k["key"]
            for k in requests.get(f"{base}/v1/kinds", timeout=10).json()["kinds"]
            if k["min_players"] <= 2 <= k["max_players"]
        ]
        print(
            f"bots answering one human through `tablestream serve` (embedded Redis); {args.actions} human "
            "actions per game; waits in ms from the action's 200; baseline: median GET round trip"
        )
        print(
            f"{'kind':<18} {'bot':<7} {'answers p50':>11} {'p90':>7} {'max':>7} {'back p50':>9} {'p90':>7} "
            f"{'max':>7} {'GET p50':>8} {'ratio':>6}  verdict (answer max <= {TARGET_MS:.0f} ms)"
        )
        for kind in kinds:
            for level in args.level or ("random", "greedy", "ismcts"):
                waits = play(base, kind, level, args.actions, random.Random(f"{kind}:{level}"))
                get = statistics.median(waits["get"]) * 1000
                answer = ms(waits["answers"], 0.5)
                verdict = "meets" if ms(waits["answers"], 1.0) <= TARGET_MS else "MISSES"
                a, b = waits["answers"], waits["back"]
                print(
                    f"{kind:<18} {level:<7} {answer:>11.0f} {ms(a, 0.9):>7.0f} {ms(a, 1.0):>7.0f} "
                    f"{ms(b, 0.5):>9.0f} {ms(b, 0.9):>7.0f} {ms(b, 1.0):>7.0f} {get:>8.1f} {answer / get:>6.1f}  "
                    f"{verdict}",
                    flush=True,
                )
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
