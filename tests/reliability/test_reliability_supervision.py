"""`tablestream serve` keeps its worker and projector running (service.supervisor). A
worker killed with `kill -9` is back, registered with RQ, within 5 s, and the bot game
that waited on it goes on; a turn timer scheduled before the kill plays on time after it
(the dead worker's scheduler lock is freed, not left to lapse for a minute); a killed
projector comes back and the game lists catch up. `/healthz` says `degraded` (and stays
200) while no worker is alive. The supervising loop itself: its backoff, its log lines
with the exit status or signal, and what a dead program left in its session killed."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from rq import Queue, Worker
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler

from core.config import Config
from projections.lifecycle import ms
from service.supervisor import FIRST_DELAY, Program, Supervision
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, free_port, service_env, wait_for
from workers.scheduling import queue_names

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

PREFIX = "supervised"
BACK_WITHIN_SECONDS = 5.0  # the bound for a killed worker
TURN_SECONDS = 8  # the deadline falls after the restarted worker is up
LATE_BOUND_MS = 4_000  # RQ's whole seconds and one-second look (test_reliability_timers), and a loaded machine


class Served(Service):
    """``tablestream serve`` on ``own_redis``, with or without its worker and projector."""

    def __init__(self, env: dict[str, str], log: Path, worker: bool) -> None:
        self.port = free_port()
        flag = "--with-worker" if worker else "--no-worker"
        super().__init__(["serve", flag, "--workers", "1"], {**env, "PORT": str(self.port)}, log)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def health(self) -> dict[str, Any]:
        response = requests.get(f"{self.base}/healthz", timeout=5)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def up(self) -> Served:
        self.start()

        def answers() -> bool:
            assert self.alive(), self.log()
            try:
                return requests.get(f"{self.base}/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        wait_for(answers, 60, 0.1, "serve answering /healthz")
        return self

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.post(f"{self.base}{path}", json=body, headers=headers, timeout=10)
        assert response.status_code in (200, 201), response.text
        return dict(response.json())

    def get(self, path: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.get(f"{self.base}{path}", headers=headers, timeout=10)
        assert response.status_code == 200, response.text
        return dict(response.json())


def descendants(pid: int) -> dict[int, str]:
    """The processes under ``pid`` (children, theirs, ...), with their command lines."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        commands[int(entry)] = command
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found[child] = commands[child]
                frontier.append(child)
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def session_gone(leader: int) -> bool:
    """Nothing of the session (and process group) ``leader`` led runs any more."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == leader and fields[0] != "Z":
                return False
    return True


def worker_pids(platform: Platform) -> set[int]:
    """The pids of the RQ workers registered on the deployment's bot queue."""
    bots = Queue(queue_names(platform)[0], connection=platform.queue_redis)
    return {w.pid for w in Worker.all(connection=platform.queue_redis, queue=bots) if w.pid is not None}


def program_pids(serve: Served, command: str) -> list[int]:
    """The pids of ``service.cli <command>`` run by the supervisor (not forks of them,
    such as the worker's scheduler)."""
    assert serve.process is not None
    tree = descendants(serve.process.pid)
    ours = [pid for pid, line in tree.items() if line.endswith(f"service.cli {command}")]
    return [pid for pid in ours if not any(pid in descendants(other) for other in ours)]


def scheduling_session(platform: Platform) -> int | None:
    """The session (its leader: the worker) of the scheduler process holding the bot
    queue's scheduler lock, when it runs on this host."""
    holder = platform.queue_redis.get(RQScheduler.get_locking_key(queue_names(platform)[0]))
    if holder is None:
        return None
    pid = platform.queue_redis.hget(SCHEDULER_KEY_TEMPLATE % holder.decode(), "pid")
    if pid is None or not running(int(pid)):
        return None
    return int(Path(f"/proc/{int(pid)}/stat").read_text().rsplit(")", 1)[1].split()[3])


def bot_moved(platform: Platform, game_id: str, after: int) -> bool:
    return any(e.type == "ActionTaken" and e.seat == 1 for e in platform.store.read(game_id)[after:])


def test_serve_brings_back_a_killed_worker_and_projector(own_redis: RedisServer, tmp_path: Path) -> None:
    platform = Platform(Config(redis_url=own_redis.url, prefix=PREFIX), own_redis.client())
    serve = Served(service_env(own_redis.url, PREFIX), tmp_path / "serve.log", worker=True)
    seen: dict[int, str] = {}
    try:
        serve.up()
        wait_for(lambda: serve.health()["workers"]["alive"] == 1, 30, 0.1, "the worker registered")
        assert serve.process is not None
        [first] = program_pids(serve, "worker")
        assert worker_pids(platform) == {first}
        seen.update(descendants(serve.process.pid))

        # A turn timer, scheduled now, due after the worker has been killed and restarted.
        timed = serve.post(
            "/v1/games",
            {"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}], "turn_seconds": TURN_SECONDS},
        )
        bot_game = serve.post("/v1/games", {"kind": "fortress-royals", "players": [{"name": "ann"}, {"bot": "random"}]})
        ann = bot_game["seats"][0]["token"]

        killed_at = time.monotonic()
        os.kill(first, signal.SIGKILL)
        alive_seen: list[int] = []

        def replaced() -> bool:
            alive_seen.append(serve.health()["workers"]["alive"])
            return bool(worker_pids(platform) - {first})

        wait_for(replaced, BACK_WITHIN_SECONDS, 0.02, "a new worker registered")
        back_after = time.monotonic() - killed_at
        assert worker_pids(platform) - {first}, "the new worker"
        assert first not in worker_pids(platform), "the dead worker's registration is withdrawn"
        wait_for(lambda: session_gone(first), 5, 0.05, "nothing left of the dead worker's session (its scheduler)")
        seen.update(descendants(serve.process.pid))

        # ann moves now; the bot's answer is the new worker's to play.
        moved_from = platform.store.last_version(bot_game["id"])

        def bot_answered() -> bool:
            game = serve.get(f"/v1/games/{bot_game['id']}", ann)
            if 0 in game["to_act"] and not bot_moved(platform, bot_game["id"], moved_from):
                action = game["legal_actions"][0]
                serve.post(
                    f"/v1/games/{bot_game['id']}/actions", {"action": action, "expected_version": game["version"]}, ann
                )
            return bot_moved(platform, bot_game["id"], moved_from)

        wait_for(bot_answered, 30, 0.2, "the bot's turn played by the new worker")

        def timer_move() -> int | None:
            events = platform.store.read(timed["id"])
            for before, event in zip(events, events[1:], strict=False):
                if event.type == "ActionTaken" and event.actor == "timeout":
                    return ms(event.at) - ms(before.at) - TURN_SECONDS * 1000
            return None

        wait_for(lambda: timer_move() is not None, TURN_SECONDS + 30, 0.2, "the turn timer played")
        late = timer_move()
        assert late is not None
        [second] = worker_pids(platform)
        assert scheduling_session(platform) == second, "the new worker's scheduler holds the lock"
        [projector] = program_pids(serve, "projector")
        os.kill(projector, signal.SIGKILL)
        listed = serve.post("/v1/games", {"kind": "fortress-siege", "players": [{"name": "ann"}, {"open": True}]})

        def in_the_list() -> bool:
            return any(g["id"] == listed["id"] for g in serve.get("/v1/games?limit=200")["games"])

        def started_again() -> bool:
            return len(set(program_pids(serve, "projector")) - {projector}) == 1

        wait_for(started_again, 5, 0.05, "the projector started again")
        wait_for(in_the_list, 15, 0.1, "the game listed by the new projector")
        seen.update(descendants(serve.process.pid))
        health = serve.health()
        log = serve.log()
        print(
            f"\nworker kill -9: a new worker registered after {back_after:.2f} s; /healthz said workers alive "
            f"{sorted(set(alive_seen))} meanwhile; the turn timer played {late} ms after its deadline; "
            f"the projector came back; /healthz now: degraded {health['degraded']}, workers {health['workers']}, "
            f"projector {health['projector']}"
        )
        assert back_after <= BACK_WITHIN_SECONDS
        assert 0 <= late <= LATE_BOUND_MS, f"the timer played {late} ms after its deadline"
        assert f"worker (pid {first}) was killed by SIGKILL" in log, log
        assert f"projector (pid {projector}) was killed by SIGKILL" in log, log
        assert "withdrew 1 worker registration(s)" in log, log
        assert health["degraded"] is False and health["workers"]["alive"] == 1, health
    finally:
        serve.stop()
        left = [pid for pid, line in seen.items() if running(pid) and "service.cli" in line]
        for pid in left:  # never a stranger: the pid still runs one of our commands
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"left running after serve stopped: {left}"


def test_healthz_is_degraded_not_down_without_a_worker(own_redis: RedisServer, tmp_path: Path) -> None:
    serve = Served(service_env(own_redis.url, PREFIX), tmp_path / "serve.log", worker=False)
    try:
        serve.up()
        serve.post("/v1/games", {"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}]})
        health = serve.health()  # a 200: the API still serves moves
    finally:
        serve.stop()
    print(f"\nserve --no-worker: /healthz {health}")
    assert health["status"] == "ok" and health["degraded"] is True, health
    assert health["workers"] == {"alive": 0, "busy": 0}, health
    assert any("No job worker is alive" in problem for problem in health["problems"]), health
    assert health["projector"]["caught_up"] is False, "a game no projector has applied"


PROGRAM_SECONDS = 15


def test_the_supervisor_backs_off_logs_each_death_and_kills_what_was_left(tmp_path: Path) -> None:
    leftover = tmp_path / "leftover.pid"
    # Forks a process into its own session and waits; killed, it leaves that process behind.
    sleeper = (
        "import subprocess, sys, time; "
        f"child = subprocess.Popen(['sleep', '{PROGRAM_SECONDS}']); "
        f"open({str(leftover)!r}, 'w').write(str(child.pid)); time.sleep({PROGRAM_SECONDS})"
    )
    failing = Program("failing", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ))
    sleeping = Program("sleeping", [sys.executable, "-c", sleeper], dict(os.environ))
    lines: list[str] = []
    supervision = Supervision([failing, sleeping], log=lines.append)
    stop = threading.Event()
    loop = threading.Thread(target=supervision.run, args=(stop.is_set,))
    loop.start()
    try:
        wait_for(lambda: leftover.exists() and leftover.read_text(), 10, 0.02, "the sleeping program's child")
        first = supervision.slots[1].process
        assert first is not None
        abandoned = int(leftover.read_text())
        leftover.unlink()
        os.kill(first.pid, signal.SIGKILL)
        wait_for(lambda: leftover.exists() and leftover.read_text(), 10, 0.02, "the sleeping program again")
        assert not running(abandoned), "the killed program's child was killed with it"
        wait_for(lambda: sum("failing" in line and "status 3" in line for line in lines) >= 3, 20, 0.05, "3 deaths")
    finally:
        stop.set()
        loop.join(timeout=30)
    last = supervision.slots[1].process
    second = int(leftover.read_text())
    print("\n" + "\n".join(lines))
    assert not running(second), "stopping the program stopped what it started"
    deaths = [line for line in lines if line.startswith("failing (pid") and "exited with status 3" in line]
    delays = [float(line.rsplit("again in ", 1)[1].split()[0]) for line in deaths]
    assert delays[:3] == [FIRST_DELAY, 2 * FIRST_DELAY, 4 * FIRST_DELAY], lines
    assert any(line.startswith(f"sleeping (pid {first.pid}) was killed by SIGKILL") for line in lines), lines
    assert any(line.startswith("sleeping started again") for line in lines), lines
    assert last is None and not loop.is_alive(), "stopped, and not started again"
