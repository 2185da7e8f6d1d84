"""When a job scheduled for a deadline may run.

RQ keeps a scheduled job's time in whole seconds, cut down, so a job scheduled for
12.4 s would run at 12 s: early. Every deadline here (a turn timer, a clock's flag, an
open game's expiry, a webhook's next attempt) is scheduled for the next whole second at
or after it; and a job that finds its deadline not yet come on the store's clock (another
host's clock ahead of it) schedules itself again rather than act early.
"""

from __future__ import annotations

from datetime import UTC, datetime


def at_or_after(epoch_ms: int) -> datetime:
    """The time to schedule a job due at ``epoch_ms`` (ms since the epoch): the next whole
    second, so that RQ's cut never brings it before its deadline."""
    return datetime.fromtimestamp(-(-epoch_ms // 1000), UTC)
