"""The platform a worker process's jobs act through (jobs are plain functions taking
simple arguments, as RQ likes, so they find it here). The entry points put it here
(``workers.wiring.process_platform``, ``workers.wiring.use``); this module knows
nothing of how it is built."""

from __future__ import annotations

from collections.abc import Callable

from stores.platform import Platform

_override: list[Platform] = []
_build: list[Callable[[], Platform]] = []


def install(build: Callable[[], Platform]) -> None:
    """How this process builds its platform the first time a job asks for it."""
    _build[:] = [build]


def use(custom: Platform) -> None:
    """Make jobs in this process act through ``custom`` (tests, the embedded server)."""
    _override.append(custom)


def current() -> Platform:
    if not _override:
        if not _build:
            raise RuntimeError("no platform for jobs in this process: start workers with `tablestream worker`")
        _override.append(_build[0]())
    return _override[-1]
