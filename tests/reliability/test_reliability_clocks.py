"""Clocks across restarts: a game's clock is kept by the log's own timestamps
and its flag check is a job scheduled in Redis, so neither an API nor a worker process
holds any of it. Here the real `tablestream worker` is killed (-9) while a flag is due,
and another started: the flag falls at its deadline, never before, once, and the seat
still in wins on time. A seat that moves before its deadline keeps playing, and its
increment moves its deadline on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.config import Config
from projections.lifecycle import ms
from stores.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from workers.scheduling import RQScheduler

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

INITIAL = 4


def test_a_flag_falls_at_its_deadline_across_a_killed_worker(own_redis: RedisServer, tmp_path: Path) -> None:
    prefix = "clocks"
    platform = Platform(Config(redis_url=own_redis.url, prefix=prefix), own_redis.client())
    platform.handler.scheduler = RQScheduler(platform)
    clock = {"initial": INITIAL, "increment": 2}
    players = [{"name": "ann"}, {"name": "bob"}]
    idle = platform.handler.create_game("fortress-royals", players, lifecycle={"clock": clock}).table
    moving = platform.handler.create_game("fortress-royals", players, lifecycle={"clock": clock}).table
    assert idle.clock is not None and idle.clock.running(), "a clock runs from the start"
    env = service_env(own_redis.url, prefix)
    first = Service(["worker"], env, tmp_path / "worker-1.log").start()
    try:
        time.sleep(1.0)
        # In the other game, the seats to act move before their deadline: no flag falls there.
        for _ in range(2):
            table = platform.handler.load(moving.game_id)
            seat = sorted(table.to_act())[0]
            action = table.game.legal_actions(table.state, seat)[0]
            platform.handler.act(moving.game_id, seat, action, table.version)
    finally:
        first.kill9()  # with the flag checks still scheduled
    second = Service(["worker"], env, tmp_path / "worker-2.log").start()
    try:
        try:
            wait_for(lambda: platform.handler.load(idle.game_id).status == "finished", 60, 0.1, "the flag to fall")
        except AssertionError as missing:
            raise AssertionError(f"{missing}\nfirst worker:\n{first.log()}\nsecond worker:\n{second.log()}") from None
    finally:
        second.stop()
    for game in (idle.game_id, moving.game_id):
        for flag in [e for e in platform.store.read(game) if e.type == "FlagFell"]:
            before = platform.tables.at(game, flag.version - 1).clock
            assert before is not None
            due = before.deadline(flag.data["seat"])
            assert due is not None and ms(flag.at) >= due, f"a flag fell {due - ms(flag.at)} ms early"
    flags = [e for e in platform.store.read(idle.game_id) if e.type == "FlagFell"]
    assert len(flags) == 1, "the flag falls once"
    over = platform.handler.load(idle.game_id)
    assert over.outcome is not None and over.outcome["ending"] == "time"
    assert over.outcome["winners"] == [1 - flags[0].data["seat"]]
    # Each move in the other game took its time spent and added the increment.
    moves = [e for e in platform.store.read(moving.game_id) if e.type == "ActionTaken"]
    assert len(moves) >= 2
    for action in moves:
        before = platform.tables.at(moving.game_id, action.version - 1).clock
        after = platform.tables.at(moving.game_id, action.version).clock
        assert before is not None and after is not None and action.seat is not None
        spent = ms(action.at) - (before.since[action.seat] or 0)
        assert spent >= 0 and after.remaining[action.seat] == before.remaining[action.seat] - spent + 2000
