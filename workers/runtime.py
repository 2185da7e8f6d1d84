"""The platform a worker process acts through, built once per process from the
environment (jobs are plain functions taking simple arguments, as RQ likes)."""

from __future__ import annotations

from functools import cache

from core.config import Config
from core.platform import Platform


@cache
def platform() -> Platform:
    from workers.wiring import wire

    return wire(Platform.from_config(Config.from_env()))


def use(custom: Platform) -> None:
    """Make jobs in this process act through ``custom`` (tests, the embedded server); a
    platform that jobs run through can start them too."""
    from core.jobs import NoJobs
    from workers.long_jobs import RQLongJobs

    platform.cache_clear()
    if isinstance(custom.jobs, NoJobs):
        custom.jobs = RQLongJobs(custom)
    _override.append(custom)


_override: list[Platform] = []


def current() -> Platform:
    return _override[-1] if _override else platform()
