"""Bot turns and turn timers through a real Redis and real RQ workers."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from core.config import Config
from games import registry
from projections.lifecycle import ms
from stores.platform import Platform
from tests.conftest import burst_worker
from workers import jobs, wiring
from workers.due import enqueue_due
from workers.jobs import bot_command_id, bot_turn, flag_check, job_id, play_bot, turn_deadline, turn_timeout
from workers.rq_worker import TurnWorker
from workers.scheduling import BOT_TIMEOUT, RQScheduler, queue_names, sweep_stalled


def work(platform: Platform) -> None:
    """The bot queue worked to empty by the worker class ``tablestream worker`` runs."""
    burst_worker(list(queue_names(platform)), platform.queue_redis, TurnWorker)


def test_a_bot_to_act_gets_a_job_with_a_deterministic_id(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"name": "ann"}]).table
    expected = f"bot-{table.game_id}-{table.version}-0"
    assert expected in Queue(queue_names(platform)[0], connection=platform.redis).job_ids
    job = Job.fetch(expected, connection=platform.redis)
    assert job.retries_left == 3 and job.timeout == BOT_TIMEOUT


def test_a_bot_turn_run_twice_acts_once(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"name": "ann"}]).table
    first = bot_turn(table.game_id, 0, table.version)
    second = bot_turn(table.game_id, 0, table.version)
    assert first.startswith("played") and second == "moved on"
    taken = [e for e in platform.store.read(table.game_id) if e.type == "ActionTaken"]
    assert len(taken) == 1 and taken[0].actor == "bot"


def test_a_bot_answers_a_human_through_the_worker(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"name": "ann"}, {"bot": "greedy"}]).table
    acted = platform.handler.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version)
    work(platform)
    after = platform.handler.load(table.game_id)
    assert after.version > acted.version and 0 in after.to_act()


def test_a_lost_bot_turn_is_played_when_a_worker_starts(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"bot": "random"}]).table
    Queue(queue_names(platform)[0], connection=platform.redis).empty()  # the job died with its worker
    assert sweep_stalled(platform) == 1
    work(platform)
    assert platform.handler.load(table.game_id).status == "finished"


def bot_moves(platform: Platform, game_id: str) -> list[Any]:
    return [e for e in platform.store.read(game_id) if e.type == "ActionTaken"]


def test_one_bot_job_plays_the_bot_turns_that_follow_each_as_its_own_command(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's job goes on with the bot turns after its own: each is appended as its own
    command, with the id of its own turn, and no job is left queued for a turn it played."""
    monkeypatch.setattr(jobs, "CHAIN_SECONDS", 60.0)  # the turn count, not a loaded machine, ends it
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"bot": "random"}]).table
    queue = Queue(queue_names(platform)[0], connection=platform.redis)
    first = job_id("bot", table.game_id, table.version, 0)
    assert queue.job_ids == [first]
    assert bot_turn(table.game_id, 0, table.version).startswith("played")
    after = platform.handler.load(table.game_id)
    moves = bot_moves(platform, table.game_id)
    seed = platform.vault.seed(table.game_id)
    assert after.status == "finished" and len(moves) > 1
    assert [m.command_id for m in moves] == [bot_command_id(seed, m.version - 1, m.seat) for m in moves]
    assert queue.job_ids == [first], "a job was queued for a turn the chain played"


def test_a_bot_job_hands_the_turns_after_its_limit_to_one_new_job(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "CHAIN_TURNS", 3)
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"bot": "random"}]).table
    queue = Queue(queue_names(platform)[0], connection=platform.redis)
    queue.empty()
    assert bot_turn(table.game_id, 0, table.version).endswith("then 2 more turns")
    now = platform.handler.load(table.game_id)
    assert len(bot_moves(platform, table.game_id)) == 3 and now.status == "active"
    (seat,) = now.to_act()
    assert queue.job_ids == [job_id("bot", table.game_id, now.version, seat)]
    work(platform)
    assert platform.handler.load(table.game_id).status == "finished"


def test_a_bot_job_run_again_after_its_chain_died_plays_on_from_where_the_game_is(platform: Platform) -> None:
    """A chain killed after appending a turn owes the next; the job, run again by RQ's retry,
    finds its own turn played and goes on from there, and no turn is played twice."""
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"bot": "random"}]).table
    token = jobs.CHAINING.set(table.game_id)  # the dead chain: its turn appended, nothing enqueued
    try:
        assert play_bot(platform, table.game_id, 0, table.version).startswith("played")
    finally:
        jobs.CHAINING.reset(token)
    queue = Queue(queue_names(platform)[0], connection=platform.redis)
    assert queue.job_ids == [job_id("bot", table.game_id, table.version, 0)], "only the dead chain's own job"
    work(platform)
    moves = bot_moves(platform, table.game_id)
    assert platform.handler.load(table.game_id).status == "finished"
    assert len({m.version for m in moves}) == len(moves) and len({m.command_id for m in moves}) == len(moves)


def run_scheduler(platform: Platform) -> None:
    """What the deployment's scheduler does ten times a second: the scheduled jobs now due
    go on their queues."""
    from workers.rq_worker import RecordedScheduler

    scheduler = RecordedScheduler(list(queue_names(platform)), connection=platform.redis)
    scheduler.acquire_locks()
    scheduler.enqueue_scheduled_jobs()
    scheduler.release_locks()
    scheduler.register_death()


def scheduled_at(platform: Platform, job: str) -> float | None:
    """When a scheduled job is due (its score in RQ's registry: the deadline, to the ms), or None."""
    registry = ScheduledJobRegistry(queue_names(platform)[0], connection=platform.redis)
    score = platform.redis.zscore(registry.key, job)
    return None if score is None else float(score)


def test_a_turn_timer_plays_for_a_seat_that_does_not_act(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}], turn_seconds=1).table
    due = scheduled_at(platform, job_id("timeout", table.game_id, table.version, 0))
    assert due is not None
    time.sleep(max(0.0, due - time.time()) + 0.05)
    run_scheduler(platform)
    work(platform)
    after = platform.handler.load(table.game_id)
    timed_out = [e for e in platform.store.read(table.game_id) if e.actor == "timeout"]
    assert after.version > table.version and timed_out and timed_out[0].seat == 0
    assert ms(timed_out[0].at) >= turn_deadline(table), "the timer played before its deadline"


def test_turn_timers_are_scheduled_at_their_deadlines_to_the_millisecond(platform: Platform) -> None:
    """RQ keeps a scheduled job's time in whole seconds, cut down: a timer due at 12.4 s
    scheduled as "in 2 s" at 10.4 s would run at 12 s, and one put at 13 s runs up to 13.99 s.
    Each is due at its deadline exactly, whatever the fraction of the second the turn
    began at, and RQ's own whole-second look would still never take it early."""
    wrong = []
    for index in range(12):
        time.sleep(0.083)  # turns that begin at every part of a second
        table = platform.handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}], turn_seconds=2).table
        due = scheduled_at(platform, job_id("timeout", table.game_id, table.version, 0))
        assert due is not None, "a timer is scheduled for the seat to act"
        if round(due * 1000) != turn_deadline(table):
            wrong.append((index, round(due * 1000) - turn_deadline(table)))
    assert wrong == [], f"timers scheduled off their deadline (ms): {wrong}"


def test_the_scheduler_takes_a_job_at_its_deadline_not_at_the_next_whole_second(platform: Platform) -> None:
    from rq.scheduler import RQScheduler as Plain

    queue = Queue(queue_names(platform)[0], connection=platform.redis)
    while time.time() % 1 > 0.15:  # a deadline in the same whole second as now, 0.6 s on
        time.sleep(0.02)
    deadline = int(time.time() * 1000) + 600
    job = enqueue_due(queue, deadline, time.sleep, 0, job_id=f"due-{platform.config.prefix}")
    run_scheduler(platform)
    looked_by = time.time() * 1000
    if looked_by < deadline:  # (a machine stalled past the deadline: the job was due when looked for)
        assert job.id not in queue.job_ids, "taken before its deadline"
    time.sleep(max(0.0, deadline / 1000 - time.time()) + 0.02)
    plain = Plain([queue.name], connection=platform.redis)  # RQ's own, with its whole seconds
    plain.acquire_locks()
    plain.enqueue_scheduled_jobs()
    plain.release_locks()
    if int(time.time()) == deadline // 1000:  # (a machine stalled past the second: RQ's look would take it)
        assert job.id not in queue.job_ids, "RQ's own look waits for the next whole second"
    run_scheduler(platform)
    assert job.id in queue.job_ids, "the deployment's look takes it at its deadline"


def test_a_turn_timer_run_before_its_deadline_plays_nothing_and_waits_for_it(platform: Platform) -> None:
    """A timer that runs early (a worker whose clock runs ahead of the one that stamped the
    turn) plays nothing and schedules itself again for the deadline."""
    table = platform.handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}], turn_seconds=30).table
    Queue(queue_names(platform)[0], connection=platform.redis).enqueue(
        turn_timeout, table.game_id, 0, table.version, job_id="timeout-early-run"
    )
    work(platform)
    assert platform.handler.load(table.game_id).version == table.version, "an early timer played"
    again = f"{job_id('timeout', table.game_id, table.version, 0)}-{turn_deadline(table)}"
    due = scheduled_at(platform, again)
    assert due is not None and due * 1000 >= turn_deadline(table)


KINDS = [k for k in registry.keys() if k != "tiny"]
# Random dragons may wander for hundreds of rounds (games/stomping_grounds/RULINGS.md):
# these games end by the kind's own round limit (its rule, as the contract test's games do);
# fortress-royals games play one round of the match (its `rounds` option). Each still ends
# by its rules, played through the worker move by move.
OPTIONS = {"stomping-grounds": {"turn_limit": 10}, "fortress-royals": {"rounds": 1}}


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_twenty_all_bot_games_of_every_kind_end_through_the_worker(
    real_redis: redis.Redis, redis_url: str, prefix: str, kind: str
) -> None:
    # Every level plays; the search stops after 20 ms a move so that the ismcts games
    # stay short (the deadline is the worker's, as in production, only tighter).
    platform = Platform(Config(redis_url=redis_url, prefix=prefix, bot_seconds=0.02), real_redis)
    platform.handler.scheduler = RQScheduler(platform)
    wiring.use(platform)
    game = registry.get(kind)
    assert game is not None
    started = time.monotonic()
    ids = []
    for index in range(20):
        count = game.min_players + index % (game.max_players - game.min_players + 1)
        levels = ["ismcts", "random"] if index == 1 else ["random", "greedy"] if index % 4 == 0 else ["random"]
        players = [{"bot": levels[seat % len(levels)]} for seat in range(count)]
        ids.append(platform.handler.create_game(kind, players, OPTIONS.get(kind)).table.game_id)
    work(platform)
    tables = [platform.handler.load(g) for g in ids]
    versions = sum(t.version for t in tables)
    print(f"{kind}: 20 bot games, {versions} events, {time.monotonic() - started:.1f} s")
    assert all(t.status == "finished" for t in tables), [t.version for t in tables if t.status != "finished"]


def test_an_ismcts_bot_stops_searching_at_the_configured_deadline_and_still_plays_legally(
    real_redis: redis.Redis, redis_url: str, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import games.ismcts

    p = Platform(Config(redis_url=redis_url, prefix=prefix, bot_seconds=0.0), real_redis)
    wiring.use(p)
    iterations: list[int] = []
    real_iterate = games.ismcts._iterate

    def counted(*args: Any, **kwargs: Any) -> Any:
        iterations.append(1)
        return real_iterate(*args, **kwargs)

    monkeypatch.setattr(games.ismcts, "_iterate", counted)
    table = p.handler.create_game("fortress-royals", [{"bot": "ismcts"}, {"bot": "ismcts"}]).table
    seat = sorted(table.to_act())[0]
    assert len(table.game.legal_actions(table.state, seat)) > 1, "a choice to search"
    assert play_bot(p, table.game_id, seat, table.version).startswith("played")
    assert iterations == [], "a deadline already past: no iteration"
    taken = [e for e in p.store.read(table.game_id) if e.type == "ActionTaken"]
    assert len(taken) == 1 and taken[0].actor == "bot"


def test_a_bot_that_the_game_leaves_behind_mid_search_stops_and_appends_nothing(
    real_redis: redis.Redis, redis_url: str, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import games.ismcts

    p = Platform(Config(redis_url=redis_url, prefix=prefix, bot_seconds=60.0), real_redis)
    wiring.use(p)
    table = p.handler.create_game("fortress-royals", [{"bot": "ismcts"}, {"bot": "ismcts"}]).table
    seat = sorted(table.to_act())[0]
    iterations = []
    real_iterate = games.ismcts._iterate

    def iterate(*args, **kwargs):  # type: ignore[no-untyped-def]
        iterations.append(1)
        if len(iterations) == 5:  # meanwhile another seat's action lands: the log moves on
            monkeypatch.setattr(p.store, "last_version", lambda game_id: table.version + 1)
        return real_iterate(*args, **kwargs)

    monkeypatch.setattr(games.ismcts, "_iterate", iterate)
    assert play_bot(p, table.game_id, seat, table.version) == "moved on"
    assert len(iterations) < games.ismcts.ITERATIONS["fortress-royals"], "the search stopped early"
    assert not [e for e in p.store.read(table.game_id) if e.type == "ActionTaken"]


def test_a_flag_check_run_before_the_deadline_lets_the_clock_run_and_checks_again_at_it(platform: Platform) -> None:
    """A flag check that runs early (a worker whose clock runs ahead of the one that stamped
    the moves) finds time left: no flag falls, and it checks again at the deadline rather
    than never."""
    clock = {"initial": 30, "increment": 0}
    players = [{"name": "ann"}, {"name": "bob"}]
    table = platform.handler.create_game("fortress-royals", players, lifecycle={"clock": clock}).table
    assert table.clock is not None
    seat = sorted(table.clock.running())[0]
    deadline = table.clock.deadline(seat)
    assert deadline is not None
    Queue(queue_names(platform)[0], connection=platform.redis).enqueue(
        flag_check, table.game_id, seat, job_id="flag-early-run"
    )
    work(platform)
    assert not [e for e in platform.store.read(table.game_id) if e.type == "FlagFell"], "a flag fell with time left"
    due = scheduled_at(platform, f"{job_id('flag', table.game_id, table.version, seat)}-{deadline}")
    assert due is not None and due * 1000 >= deadline, "the check is not scheduled again for the deadline"


def test_a_tournament_of_bots_runs_to_its_end_through_the_worker(platform: Platform) -> None:
    """The tournament's step is a job: at the start, and every few seconds while a round is
    played, a worker pairs the next round once the last is over, and finishes it."""
    from core.tournaments import created, fold, starting
    from workers.tournaments import RQTournaments

    tid = f"tn_{platform.config.prefix}"
    creator = {"id": "pl_x", "name": "ann"}
    platform.tournaments.append(tid, 0, [created("tiny", 2, 4, creator, None, "random")])
    t = fold(tid, platform.tournaments.read(tid))
    assert t is not None
    platform.tournaments.append(tid, t.length, [starting(t, 2)])
    RQTournaments(platform).schedule(tid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run_scheduler(platform)
        work(platform)
        t = fold(tid, platform.tournaments.read(tid))
        if t is not None and t.status == "finished":
            break
        time.sleep(0.2)
    assert t is not None and t.status == "finished", t
    assert len(t.paired) == 2 and all(len(r["tables"]) == 2 for r in t.paired)
    for paired in t.paired:
        for table in paired["tables"]:
            assert platform.handler.load(table["game"]).status == "finished"
