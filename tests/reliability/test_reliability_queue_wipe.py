"""A queue Redis that lost its data loses no work: wipe it, and the reconcile (a worker's,
as it starts and every minute) puts back every pending bot turn, turn timer, clock flag,
open game's expiry and long job, from the games and records in the store; worked, the bot
games end and the long job finishes. The queue is a redis-server of the test's own
(``own_redis``), which it may wipe; the games live in the test's prefix on the shared one."""

from __future__ import annotations

import redis
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from core.config import Config
from stores.platform import Platform
from tests.conftest import RedisServer, burst_worker
from workers import wiring
from workers.jobs import job_id, turn_deadline
from workers.long_jobs import status
from workers.rq_worker import TurnWorker
from workers.scheduling import RQScheduler, queue_names, reconcile, reconcile_when_due


def held(platform: Platform) -> set[str]:
    """The ids of every job the queue holds: waiting on a queue, or scheduled."""
    ids: set[str] = set()
    for name in queue_names(platform):
        ids |= set(Queue(name, connection=platform.queue_redis).job_ids)
        ids |= set(ScheduledJobRegistry(name, connection=platform.queue_redis).get_job_ids())
    return ids


def test_a_wiped_queue_gets_every_pending_turn_timer_flag_expiry_and_job_back(
    real_redis: redis.Redis, redis_url: str, prefix: str, own_redis: RedisServer
) -> None:
    config = Config(redis_url=redis_url, queue_redis_url=own_redis.url, prefix=prefix, inline_jobs=False)
    platform = Platform(config, real_redis, own_redis.client())
    platform.handler.scheduler = RQScheduler(platform)
    wiring.use(platform)
    h = platform.handler
    humans = [{"name": "ann"}, {"name": "bob"}]
    bots = [h.create_game("tiny", [{"bot": "random"}, {"bot": "greedy"}]).table for _ in range(3)]
    timed = [h.create_game("tiny", humans, turn_seconds=300).table for _ in range(2)]
    clocked = h.create_game("tiny", humans, lifecycle={"clock": {"initial": 300, "increment": 2}}).table
    waiting = h.create_game("tiny", [{"name": "ann"}, {"open": True}], lifecycle={"open_seconds": 600}).table
    finished = h.create_game("tiny", humans).table
    while (table := h.load(finished.game_id)).status == "active":
        h.act(table.game_id, min(table.to_act()), {"type": "add", "amount": 2}, table.version)
    audit = platform.jobs.enqueue("audit", finished.game_id)

    expected = {job_id("bot", t.game_id, t.version, min(t.to_act())) for t in bots}
    expected |= {job_id("timeout", t.game_id, t.version, min(t.to_act())) for t in timed}
    expected |= {job_id("flag", clocked.game_id, clocked.version, seat) for seat in clocked.clock.running()}
    expected |= {f"open-{waiting.game_id}", audit}
    assert expected <= held(platform), "what the appends enqueued"
    due = {t.game_id: turn_deadline(t) for t in timed}

    platform.queue_redis.flushall()  # the queue's Redis is ours alone
    assert held(platform) == set()

    assert reconcile(platform) == len(expected)
    assert expected <= held(platform), sorted(expected - held(platform))
    for table in timed:  # a timer is put back for its deadline, not for now
        scheduled = ScheduledJobRegistry(queue_names(platform)[0], connection=platform.queue_redis)
        at = scheduled.get_scheduled_time(job_id("timeout", table.game_id, table.version, min(table.to_act())))
        assert at.timestamp() * 1000 >= due[table.game_id]
    assert reconcile(platform) == 0, "a job the queue holds is not enqueued twice"
    assert reconcile_when_due(platform) == 0 and reconcile_when_due(platform) is None, "one turn a minute"

    burst_worker(list(queue_names(platform)), platform.queue_redis, TurnWorker)
    assert all(h.load(t.game_id).status == "finished" for t in bots), "the bot games played on to the end"
    assert status(platform, audit)["status"] == "finished" and Job.exists(audit, connection=platform.queue_redis)
