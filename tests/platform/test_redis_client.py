"""The platform's Redis client, as the entry points build it (``Platform.from_config``),
holds what the service asks of it whatever redis-py's defaults: a blocking read waits
its whole time (a stream waits a heartbeat at a time), and a process may hold more
connections at once than a fixed pool of a hundred (an evented API process serves
thousands of requests, and each game it streams holds one for its reader)."""

from __future__ import annotations

import threading
import time

import pytest

from core.config import Config
from stores.platform import Platform

pytestmark = pytest.mark.redis


def test_a_blocking_read_waits_its_whole_time(redis_url: str, prefix: str) -> None:
    platform = Platform.from_config(Config(redis_url=redis_url, prefix=prefix))
    started = time.monotonic()
    assert platform.store.wait_for("quiet-game", 0, 6.5) == []
    assert time.monotonic() - started >= 6.4


def test_a_process_holds_more_than_a_hundred_connections_at_once(redis_url: str, prefix: str) -> None:
    platform = Platform.from_config(Config(redis_url=redis_url, prefix=prefix))
    failures: list[BaseException] = []

    def wait() -> None:
        try:
            platform.store.wait_for("quiet-game", 0, 1.0)
        except BaseException as error:  # each failure is the finding
            failures.append(error)

    waiting = [threading.Thread(target=wait) for _ in range(150)]
    for thread in waiting:
        thread.start()
    for thread in waiting:
        thread.join(timeout=30)
    assert not failures, failures[:3]
    platform.redis.close()
