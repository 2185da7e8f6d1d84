"""RQ's workers with less bookkeeping (``workers.rq_worker``): the same guarantees as RQ's
own, a heartbeat that keeps the worker alive, and the bot turns played through them."""

from __future__ import annotations

import multiprocessing
import time

from rq import Queue, Retry
from rq.job import Job, JobStatus
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler

from stores.platform import Platform
from tests.conftest import burst_worker
from workers.rq_worker import ForkingTurnWorker, RecordedScheduler, TurnWorker
from workers.scheduling import queue_names, release_dead_schedulers


def fails() -> None:
    raise RuntimeError("this job always fails")


def sleeps(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def test_a_bot_answers_a_human_through_the_turn_worker(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"name": "ann"}, {"bot": "greedy"}]).table
    acted = platform.handler.act(table.game_id, 0, {"type": "add", "amount": 1}, table.version)
    burst_worker(list(queue_names(platform)), platform.queue_redis, TurnWorker)
    after = platform.handler.load(table.game_id)
    assert after.version > acted.version and 0 in after.to_act()
    job = Job.fetch(f"bot-{table.game_id}-{acted.version}-1", connection=platform.queue_redis)
    assert job.get_status() == JobStatus.FINISHED


def test_a_game_of_two_bots_ends_through_the_forking_turn_worker(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", [{"bot": "random"}, {"bot": "random"}]).table
    burst_worker(list(queue_names(platform)), platform.queue_redis, ForkingTurnWorker)
    assert platform.handler.load(table.game_id).status == "finished"


def test_a_failing_job_is_retried_then_failed_as_rq_does(platform: Platform) -> None:
    queue = Queue(queue_names(platform)[0], connection=platform.queue_redis)
    job = queue.enqueue_call(fails, job_id=f"fails-{platform.config.prefix}", retry=Retry(max=1))
    burst_worker([queue.name], platform.queue_redis, TurnWorker)  # fails, and is queued again at once
    burst_worker([queue.name], platform.queue_redis, TurnWorker)  # fails for good
    job.refresh()
    assert job.get_status() == JobStatus.FAILED and job.retries_left == 0
    assert job.id in queue.failed_job_registry


def test_a_job_past_its_timeout_is_stopped_and_failed(platform: Platform) -> None:
    queue = Queue(queue_names(platform)[0], connection=platform.queue_redis)
    job = queue.enqueue_call(sleeps, args=(5,), job_id=f"sleeps-{platform.config.prefix}", timeout=1)
    burst_worker([queue.name], platform.queue_redis, TurnWorker)
    job.refresh()
    assert job.get_status() == JobStatus.FAILED
    assert "JobTimeoutException" in (job.latest_result().exc_string or "")  # type: ignore[union-attr]


def test_the_heartbeat_keeps_the_worker_alive_for_rqs_lifetime(platform: Platform) -> None:
    connection = platform.queue_redis
    worker = TurnWorker(list(queue_names(platform)), connection=connection)
    worker.register_birth()
    try:
        idle_lifetime = worker.worker_ttl + 60
        worker.heartbeat()
        assert idle_lifetime - 5 <= connection.ttl(worker.key) <= idle_lifetime
        assert connection.hget(worker.key, "last_heartbeat")
        # A job's heartbeat (inside RQ's pipeline) gives the job's lifetime; the heartbeat
        # that follows the job, moments later, must give back the idle one, not be skipped.
        with connection.pipeline() as pipe:
            worker.heartbeat(30, pipeline=pipe)
            pipe.execute()
        assert connection.ttl(worker.key) <= 30
        worker.heartbeat()
        assert idle_lifetime - 5 <= connection.ttl(worker.key) <= idle_lifetime
        # A repeat long enough after the last one is sent again.
        connection.expire(worker.key, 100)
        worker._beat = (time.monotonic() - 60, idle_lifetime)
        worker.heartbeat()
        assert connection.ttl(worker.key) > 100
    finally:
        worker.register_death()


def test_the_worker_says_what_it_does(platform: Platform) -> None:
    connection = platform.queue_redis
    worker = TurnWorker(list(queue_names(platform)), connection=connection)
    worker.register_birth()
    try:
        worker.set_state("busy")
        assert connection.hget(worker.key, "state") == b"busy"
        worker.set_state("idle")
        worker.set_state("idle")
        assert connection.hget(worker.key, "state") == b"idle"
    finally:
        worker.register_death()


def _crash_as_the_scheduler_forks(url: str, queues: list[str]) -> None:
    """A worker killed after it took the scheduler's lock, before its scheduler process
    began: ``start`` (the fork) exits at once, leaving everything in Redis as it is."""
    import os

    import redis

    RecordedScheduler.start = lambda self: os._exit(0)  # type: ignore[method-assign]
    TurnWorker(queues, connection=redis.Redis.from_url(url))._start_scheduler()
    os._exit(1)  # not reached when the lock was taken


def test_a_worker_killed_as_its_scheduler_starts_leaves_a_lock_the_next_worker_frees(
    platform: Platform, redis_url: str
) -> None:
    queues = list(queue_names(platform))
    crashed = multiprocessing.get_context("fork").Process(
        target=_crash_as_the_scheduler_forks, args=(redis_url, queues)
    )
    crashed.start()
    crashed.join(30)
    assert crashed.exitcode == 0, "the worker took the scheduler's lock"
    connection = platform.queue_redis
    lock = RQScheduler.get_locking_key(queues[0])
    owner = connection.get(lock)
    try:
        assert owner is not None and connection.ttl(lock) > 30, "the dead worker's lock would hold for a minute"
        # The worker starting next frees it at once, for its own scheduler to run the turn
        # timers and clock flags now rather than a minute or two later.
        assert release_dead_schedulers(platform) == len(queues)
        assert connection.get(lock) is None
    finally:
        connection.delete(SCHEDULER_KEY_TEMPLATE % owner.decode() if owner else "none")
