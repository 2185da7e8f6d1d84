"""`kill -9` the RQ worker 50 times while it computes bot turns
(ISMCTS bots, so a turn takes a while). After a new worker starts, every pending bot
turn is played exactly once (each bot ActionTaken carries the command id of the job for
its version and seat, and no command id repeats) and no game stalls."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rq import Queue, Worker

from core.config import Config
from projections.audit import audit_entries
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from workers.jobs import bot_command_id, job_id
from workers.projector import Projector
from workers.scheduling import RQScheduler, queue_names, sweep_stalled

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KILLS = 50
GAMES = [
    ("fortress-royals", ["ismcts", "ismcts"]),
    ("stomping-grounds", ["ismcts", "greedy"]),
    ("dragoborne", ["ismcts", "ismcts"]),
    ("fortress-siege", ["ismcts", "random"]),
    ("dragon-fortress", ["ismcts", "ismcts", "greedy"]),
]


def busy(platform: Platform, pid: int) -> bool:
    for worker in Worker.all(connection=platform.queue_redis):
        if worker.pid == pid:
            return worker.get_state() == "busy"
    return False


def test_kill_9_the_worker_fifty_times_every_bot_turn_played_once(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "bots"
    platform = Platform(Config(redis_url=own_redis.url, prefix=prefix), own_redis.client())
    platform.handler.scheduler = RQScheduler(platform)
    games = [platform.handler.create_game(kind, [{"bot": b} for b in bots]).table.game_id for kind, bots in GAMES]
    env = service_env(own_redis.url, prefix)
    rng = random.Random(4)
    kills, workers_started = 0, 0
    started = time.monotonic()
    # Each worker is killed while it computes a bot turn: one that never got busy, or
    # finished its job before the kill, is stopped too but does not count.
    while kills < KILLS:
        assert workers_started < 2 * KILLS, f"only {kills} of {workers_started} workers were caught computing"
        worker = Service(["worker"], env, tmp_path / f"worker-{workers_started}.log").start()
        workers_started += 1
        assert worker.process is not None
        pid = worker.process.pid
        try:
            wait_for(lambda: busy(platform, pid) or not worker.alive(), 60, 0.02, "a busy worker")  # noqa: B023
            time.sleep(rng.uniform(0.0, 0.25))
            kills += worker.alive() and busy(platform, pid)
        finally:
            worker.kill9()
    versions_before = {g: platform.store.last_version(g) for g in games}

    def moved_on(game: str) -> bool:
        table = platform.tables.load(game)
        return table is not None and (table.status == "finished" or table.version > versions_before[game] + 4)

    final = Service(["worker"], env, tmp_path / "worker-final.log").start()
    try:
        try:
            wait_for(lambda: all(moved_on(g) for g in games), 120, 0.2, "every game moving on")
        except AssertionError:
            pass  # the stalled games are counted and reported below
        stalled = [g for g in games if not moved_on(g)]
    finally:
        final.stop()
    elapsed = time.monotonic() - started

    duplicates, wrong_ids, failed_audits, taken_total = 0, [], [], 0
    for game in games:
        raw = platform.store.read_raw(game)
        envelopes = platform.store.read(game)
        taken = [e for e in envelopes if e.type == "ActionTaken"]
        taken_total += len(taken)
        ids = Counter(e.command_id for e in taken)
        duplicates += sum(n - 1 for n in ids.values())
        wrong_ids += [
            (game, e.version)
            for e in taken
            if e.seat is None or e.command_id != bot_command_id(platform.vault.seed(game), e.version - 1, e.seat)
        ]
        report = audit_entries(game, raw, platform.vault.seed(game), platform.snapshots.get(game))
        if not report.ok:
            failed_audits.append((game, report.reason))
    tables = [platform.tables.load(g) for g in games]
    print(
        f"worker crash: {kills} kill -9 of a worker while it was computing a bot turn ({workers_started} workers "
        f"started) in {elapsed:.1f} s; {taken_total} bot turns played in {len(games)} games "
        f"({sum(t is not None and t.status == 'finished' for t in tables)} finished); duplicate command ids "
        f"{duplicates}, turns without their job's id {len(wrong_ids)}, failed audits {len(failed_audits)}, "
        f"games stalled after a new worker started {len(stalled)}"
    )
    assert duplicates == 0 and not wrong_ids and not failed_audits, (wrong_ids[:5], failed_audits)
    assert not stalled, stalled


def test_a_starting_worker_sweeps_games_the_read_models_have_not_seen(
    real_redis: Any, redis_url: str, prefix: str
) -> None:
    """The projector lags (or is down) when a worker dies and another starts: a game it has
    not applied yet still gets its lost bot turn back."""
    platform = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    platform.handler.scheduler = RQScheduler(platform)
    seen = platform.handler.create_game("fortress-royals", [{"bot": "random"}, {"bot": "random"}]).table
    Projector(platform).rebuild()  # the read models know the first game only
    unseen = platform.handler.create_game("fortress-royals", [{"bot": "random"}, {"bot": "random"}]).table
    Queue(queue_names(platform)[0], connection=real_redis).empty()  # the jobs died with their worker
    swept = sweep_stalled(platform)
    queued = set(Queue(queue_names(platform)[0], connection=real_redis).job_ids)
    print(
        f"worker start: {swept} games swept, the one the read models have not seen among them: "
        f"{job_id('bot', unseen.game_id, unseen.version, min(unseen.to_act())) in queued}"
    )
    assert swept == 2
    assert job_id("bot", seen.game_id, seen.version, min(seen.to_act())) in queued
    assert job_id("bot", unseen.game_id, unseen.version, min(unseen.to_act())) in queued
