"""Rate-limit states are soft: they never reach the append-only file (nor, by the same
rule, a replica), so a Redis that fsyncs every write waits for no disk on a request's
rate check. Checked on a ``redis-server`` of the test's own with ``appendfsync always``,
by reading its append-only file."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.ratelimit import RateCounter
from tests.reliability.procs import RedisServer


@pytest.fixture
def durable_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def written(server: RedisServer) -> bytes:
    """Everything in the server's append-only file(s) so far."""
    return b"".join(path.read_bytes() for path in sorted(server.directory.rglob("*.aof")))


def test_a_rate_check_writes_nothing_to_the_append_only_file(durable_redis: RedisServer) -> None:
    client = durable_redis.client()
    counter = RateCounter(client)
    for _ in range(3):
        hit = counter.hit("rate:addr:203.0.113.9", 100, 1.0, ("rate:tok:abc", "token-owner:abc"), 20)
        assert hit.refused_by is None
    assert client.exists("rate:addr:203.0.113.9", "rate:tok:abc") == 2  # counted, in memory
    client.set("control-key", "kept")  # an ordinary write does reach the file
    deadline = time.monotonic() + 5
    while b"control-key" not in written(durable_redis) and time.monotonic() < deadline:
        time.sleep(0.02)
    log = written(durable_redis)
    assert b"control-key" in log
    assert b"rate:addr" not in log and b"rate:tok" not in log


def test_the_limit_still_holds_with_its_state_kept_out_of_the_file(durable_redis: RedisServer) -> None:
    counter = RateCounter(durable_redis.client())
    verdicts = [counter.hit("rate:addr:198.51.100.7", 5, 10.0).refused_by for _ in range(8)]
    assert verdicts[:5] == [None] * 5 and all(v is not None for v in verdicts[5:])
