"""When a job scheduled for a deadline may run.

RQ keeps a scheduled job's time in whole seconds, cut down, so a job scheduled for
12.4 s would run at 12 s: early. Every deadline here (a turn timer, a clock's flag, an
open game's expiry, a webhook's next attempt) is scheduled for the next whole second at
or after it; and a job that finds its deadline not yet come on the store's clock (another
host's clock ahead of it) schedules itself again rather than act early.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from rq import Queue, get_current_job


def at_or_after(epoch_ms: int) -> datetime:
    """The time to schedule a job due at ``epoch_ms`` (ms since the epoch): the next whole
    second, so that RQ's cut never brings it before its deadline."""
    return datetime.fromtimestamp(-(-epoch_ms // 1000), UTC)


def again_at(deadline_ms: int, function: Callable[..., Any], *args: Any, job_id: str) -> bool:
    """The running job, run too early, scheduled again for ``deadline_ms`` on its own queue
    (its id: ``job_id`` and the deadline); False outside a worker's job (nothing scheduled)."""
    running = get_current_job()
    if running is None:
        return False
    Queue(running.origin, connection=running.connection).enqueue_at(
        at_or_after(deadline_ms), function, *args, job_id=f"{job_id}-{deadline_ms}", job_timeout=running.timeout
    )
    return True
