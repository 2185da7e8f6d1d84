"""The platform a worker process acts through, built once per process from the
environment (jobs are plain functions taking simple arguments, as RQ likes)."""

from __future__ import annotations

from functools import cache

from service.config import Config
from service.platform import Platform


@cache
def platform() -> Platform:
    return Platform.from_config(Config.from_env())


def use(custom: Platform) -> None:
    """Make jobs in this process act through ``custom`` (tests, the embedded server)."""
    platform.cache_clear()
    _override.append(custom)


_override: list[Platform] = []


def current() -> Platform:
    return _override[-1] if _override else platform()
