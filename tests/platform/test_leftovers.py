"""The suite's leftover check (``tests/leftovers.py``) fails a run that leaves a key or a
set member behind, names it, and passes a run that cleans up. Each run is a real pytest
run in a subprocess, in parallel as CI runs the suite, against a ``redis-server`` of its
own (the shared test database is in use by the rest of the suite meanwhile)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.reliability.procs import RedisServer

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(300)

CONFTEST = "from tests.leftovers import pytest_sessionfinish, pytest_sessionstart  # noqa: F401\n"


def run(tmp_path: Path, url: str, body: str) -> subprocess.CompletedProcess[str]:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_it.py").write_text(textwrap.dedent(body))
    (suite / "pytest.ini").write_text("[pytest]\n")
    env = {**os.environ, "REDIS_URL": url, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:randomly", "-p", "no:cacheprovider", str(suite)],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


LEAKY = """
    import os, redis

    def client():
        return redis.Redis.from_url(os.environ["REDIS_URL"])

    def test_leaves_a_key():
        client().set("leaky:key", 1, ex=600)   # an expiry is no excuse: it is still there after

    def test_names_a_queue():
        client().sadd("known:queues", "leaky-queue")

    def test_cleans_up():
        c = client()
        c.set("tidy:key", 1)
        c.delete("tidy:key")
"""

TIDY = """
    import os, redis

    def test_cleans_up():
        c = redis.Redis.from_url(os.environ["REDIS_URL"])
        c.set("tidy:key", 1)
        c.sadd("known:queues", "tidy-queue")
        c.delete("tidy:key")
        c.srem("known:queues", "tidy-queue")
"""


def test_a_run_that_leaves_keys_behind_fails_and_names_them(own_redis: RedisServer, tmp_path: Path) -> None:
    before = own_redis.client()
    before.set("someone:else", 1)  # there before the run: never judged, never touched
    before.sadd("known:queues", "theirs")
    result = run(tmp_path, own_redis.url, LEAKY)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "3 passed" in output, output  # every test passed: only the check failed the run
    assert "leaky:key" in output and "known:queues (set) leaky-queue" in output, output
    assert "tidy:key" not in output and "someone:else" not in output and "theirs" not in output, output
    assert before.get("someone:else") == b"1"
    before.delete("someone:else", "known:queues", "leaky:key")
    before.close()


def test_a_run_that_cleans_up_passes(own_redis: RedisServer, tmp_path: Path) -> None:
    client = own_redis.client()
    client.sadd("known:queues", "theirs")
    result = run(tmp_path, own_redis.url, TIDY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert client.smembers("known:queues") == {b"theirs"}
    client.delete("known:queues")
    client.close()
