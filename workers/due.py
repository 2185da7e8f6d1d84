"""When a job scheduled for a deadline may run, to the millisecond.

RQ keeps a scheduled job's time in its registry as a whole second, cut down, and its
scheduler looks for due jobs once a second with the time cut down likewise: a job due
at 12.4 s would run at 12 s, early, and a job put at the next whole second runs up to two
seconds late. Here every deadline (a turn timer, a clock's flag, an open game's expiry, a
webhook's next attempt) is scheduled with RQ for the next whole second at or after it,
and its score in the registry is then set to the deadline itself, in seconds with their
fraction (``enqueue_due``). RQ's own look, with its whole seconds, still never runs it
early; the deployment's scheduler (``workers.rq_worker.RecordedScheduler``) looks ten
times a second with the time to the microsecond (``PreciseScheduledJobRegistry``), so a
job runs within about a tenth of a second of its deadline. A job that finds its deadline
not yet come on the store's clock (another host's clock ahead of it) schedules itself
again rather than act early (``again_at``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rq import Queue, get_current_job
from rq.job import Job
from rq.registry import ScheduledJobRegistry


def at_or_after(epoch_ms: int) -> datetime:
    """The time to schedule a job due at ``epoch_ms`` (ms since the epoch): the next whole
    second, so that RQ's cut never brings it before its deadline."""
    return datetime.fromtimestamp(-(-epoch_ms // 1000), UTC)


def enqueue_due(queue: Queue, epoch_ms: int, function: Callable[..., Any], *args: Any, **options: Any) -> Job:
    """``function(*args)`` on ``queue`` at ``epoch_ms`` (``options``: RQ's, ``job_id``,
    ``job_timeout``, ``retry`` ...): scheduled with RQ at the next whole second, then given
    its exact time in the registry, in one transaction."""
    with queue.connection.pipeline() as pipe:
        job = queue.enqueue_at(at_or_after(epoch_ms), function, *args, pipeline=pipe, **options)
        pipe.zadd(ScheduledJobRegistry(queue=queue).key, {job.id: epoch_ms / 1000})
        pipe.execute()
    return job


class PreciseScheduledJobRegistry(ScheduledJobRegistry):
    """RQ's registry of scheduled jobs, asked for those due with the time to the microsecond
    rather than cut down to the second."""

    def get_jobs_to_schedule(self, timestamp: int | None = None, chunk_size: int = 1000) -> list[str]:
        now = time.time()
        due = self.connection.zrangebyscore(self.key, 0, max(now, timestamp or 0), start=0, num=chunk_size)
        return [member.decode() if isinstance(member, bytes) else str(member) for member in due]


def again_at(deadline_ms: int, function: Callable[..., Any], *args: Any, job_id: str) -> bool:
    """The running job, run too early, scheduled again for ``deadline_ms`` on its own queue
    (its id: ``job_id`` and the deadline); False outside a worker's job (nothing scheduled)."""
    running = get_current_job()
    if running is None:
        return False
    queue = Queue(running.origin, connection=running.connection)
    enqueue_due(queue, deadline_ms, function, *args, job_id=f"{job_id}-{deadline_ms}", job_timeout=running.timeout)
    return True
