"""Turn timers on time, through the real `tablestream worker` and its scheduler, already
running when the games begin: over 200 timers of games whose turns begin at every fraction
of a second, none plays before its deadline (the turn's start in the log, plus the per-turn
limit), and the 99th percentile of how late they play is at most a second on this machine.
Each timer is due at its deadline to the millisecond and the deployment's scheduler looks
ten times a second (``workers.due``); with RQ's whole seconds they played up to two seconds
late. A timing check, so it runs alone (``solo``), after the parallel suite: no other
test's load is measured.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from rq.scheduler import RQScheduler as SchedulerProcess

from core.config import Config
from projections.lifecycle import ms
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from workers.scheduling import RQScheduler, queue_names

pytestmark = [pytest.mark.slow, pytest.mark.solo, pytest.mark.timeout(240)]

GAMES = 40
TIMERS = 200
LATE_BOUND_MS = 1_000  # the scheduler's look (0.1 s), the worker's queue of timers due at once


def test_two_hundred_turn_timers_none_early(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "timers"
    platform = Platform(Config(redis_url=own_redis.url, prefix=prefix), own_redis.client())
    platform.handler.scheduler = RQScheduler(platform)
    # The worker first, its scheduler looking for due jobs before any timer is due: what is
    # measured is how late a running deployment plays a timer, not how long a worker takes
    # to start (on a slow machine the first timers, due while it started, were a second and
    # more late, and the next ones, all played at that one moment, fell due together).
    worker = Service(["worker"], service_env(own_redis.url, prefix), tmp_path / "worker.log").start()
    ids: list[str] = []

    def timer_moves() -> list[tuple[int, int]]:
        """(how late, ms) of each timer move: its time against the turn's start (the event
        before its batch) plus 1 s."""
        found = []
        for game_id in ids:
            events = platform.store.read(game_id)
            for before, event in zip(events, events[1:], strict=False):
                if event.type == "ActionTaken" and event.actor == "timeout":  # first of its batch
                    found.append((ms(event.at) - ms(before.at) - 1000, event.version))
        return found

    try:
        lock = SchedulerProcess.get_locking_key(queue_names(platform)[0])
        wait_for(lambda: platform.queue_redis.get(lock) is not None, 60, 0.05, "the worker's scheduler")
        players = [{"name": "ann"}, {"name": "bob"}]
        for _ in range(GAMES):
            time.sleep(0.023)  # turns that begin at every part of a second
            table = platform.handler.create_game(
                "fortress-royals", players, turn_seconds=1, lifecycle={"abandon_after": 100}
            ).table
            ids.append(table.game_id)
        wait_for(lambda: len(timer_moves()) >= TIMERS, 120, 0.5, f"{TIMERS} timer moves")
    finally:
        worker.stop()
    late = sorted(delay for delay, _ in timer_moves())
    early = [delay for delay in late if delay < 0]
    p50, p99 = late[len(late) // 2], late[min(len(late) - 1, int(0.99 * len(late)))]
    print(f"\n{len(late)} turn timers: {len(early)} early; late by p50 {p50} ms, p99 {p99} ms, most {late[-1]} ms")
    assert early == [], f"{len(early)} timers played before their deadline, by up to {-min(early)} ms"
    assert p99 <= LATE_BOUND_MS, f"p99 {p99} ms late"
