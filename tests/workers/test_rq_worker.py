"""RQ's workers with less bookkeeping (``workers.rq_worker``): the same guarantees as RQ's
own, a heartbeat that keeps the worker alive, and the bot turns played through them."""

from __future__ import annotations

import time

from rq import Queue, Retry
from rq.job import Job, JobStatus

from stores.platform import Platform
from tests.conftest import burst_worker
from workers.rq_worker import ForkingTurnWorker, TurnWorker
from workers.scheduling import queue_names


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
