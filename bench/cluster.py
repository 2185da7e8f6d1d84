"""Redis Cluster against a single Redis on the same machine.

  python -m bench.cluster [--quick]        (also part of ``python -m bench --only scaling``)

Starts its own servers, all with the same persistence (``appendonly yes``,
``appendfsync always``), and stops them after: one ``redis-server`` (the baseline), and
a local Redis Cluster of 3 masters (``tests.localcluster``), first without replicas, then
with one replica each, then two. Measured in one run:

* store appends/s, 8 threads over 1,000 games, on the cluster through ``RedisCluster``
  and 48 partitions, against the single Redis through ``redis.Redis``: the cost of the
  cluster client and the partitioned layout (target >= 0.7). With replicas and ``WAIT 1``
  (cluster mode's default), for scale: the cost of confirming every append on a replica;
  and two replicas each (``WAIT 1``: the first of them to confirm), against one: what the
  second replica, which lets any one node die with no game blocked, costs.
* HTTP actions/s (as row 3: 16 clients, 2 gunicorn workers) on the cluster against the
  single Redis (target >= 0.7); with replicas and ``WAIT 1``, for scale.
* how 10,000 games created on the cluster spread over its 3 masters: the largest
  master's share against an even share (target <= 1.1).
* events/s a master can take: the single Redis's appends/s (one ``redis-server`` is
  what a master is), the figure the capacity plan in ``bench/README.md`` divides by.

Every process shares this machine's cores: the cluster's 3 (6, 9) servers, the
gunicorn workers and the clients. The ratios show what the cluster costs on one
machine, not what it gains on several.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis

from bench import api
from bench.common import HEADER, Row, figure, higher_is_better, lower_is_better
from bench.scaling import appends_and_cpu
from core.commands import new_game_id
from core.config import Config
from events import NewEvent
from events.redis_store import RedisEventStore
from stores.platform import Platform

MASTERS = 3
SPREAD_GAMES = 10_000
SPREAD_THREADS = 8
QUICK_SPREAD_GAMES = 3_000
TARGET_RATIO = 0.7
TARGET_SPREAD = 1.1


@contextmanager
def single_redis(directory: Path) -> Iterator[str]:
    from tests.reliability.procs import RedisServer

    server = RedisServer(directory)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@contextmanager
def local_cluster(directory: Path, replicas: int) -> Iterator[Any]:
    from tests.localcluster import LocalCluster

    cluster = LocalCluster(appendfsync="always")  # as the single Redis it is compared with
    cluster.start(masters=MASTERS, replicas=replicas)
    try:
        yield cluster
    finally:
        cluster.stop()


def platform_on(url: str, queue_url: str, prefix: str, replica_wait: int) -> Platform:
    config = Config(redis_url=url, queue_redis_url=queue_url, prefix=prefix, replica_wait=replica_wait)
    return Platform.from_config(config)


def spread(
    platform: Platform, games: int, progress: Callable[[int], None] | None = None
) -> tuple[float, dict[str, int]]:
    """Create ``games`` games (one append each, with a game id as the service makes them),
    from ``SPREAD_THREADS`` threads (the row counts where games land, not how fast: with
    every write fsynced, one thread would spend most of the run waiting for the disk);
    then count, from each partition's game index, the games each master holds."""
    store = platform.store
    ids = [new_game_id() for _ in range(games)]
    event = [NewEvent("GameCreated", {"kind": "bench"}, None, "system")]

    def create(game: str) -> None:
        store.append(game, event, 0, f"{game}-create")

    with ThreadPoolExecutor(SPREAD_THREADS) as pool:
        for done, _ in enumerate(pool.map(create, ids), start=1):
            if progress and done % 1000 == 0:
                progress(done)
    held: Counter[str] = Counter()
    for key in store.games_keys():
        held[store.redis.get_node_from_key(key).name] += store.redis.zcard(key)
    assert sum(held.values()) == games, f"{sum(held.values())} games indexed, {games} created"
    return max(held.values()) / (games / MASTERS), dict(held)


def run(quick: bool) -> list[Row]:
    seconds = 0.6 if quick else 3.0
    http_seconds = 1.0 if quick else 5.0
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    ids = [f"g{g}" for g in range(1000)]
    with tempfile.TemporaryDirectory(prefix="tablestream-bench-cluster-") as tmp, single_redis(Path(tmp) / "s") as url:
        client = redis.Redis.from_url(url)
        single_store = RedisEventStore(client, prefix=f"{prefix}:s")
        single = {threads: appends_and_cpu(single_store, ids, seconds, threads) for threads in (1, 8)}
        scripts = api.make_scripts(client, prefix)
        single_games = api.create_games(client, f"{prefix}:h", scripts, api.CLIENTS)
        single_http = api.peak_actions(url, f"{prefix}:h", 2, api.CLIENTS, http_seconds, prepared=single_games).rate

        on: dict[int, dict[str, Any]] = {}
        for replicas in (0, 1, 2):
            with local_cluster(Path(tmp) / f"cluster{replicas}", replicas) as cluster:
                wait = 1 if replicas else 0
                platform = platform_on(cluster.url, url, f"{prefix}:c", wait)
                found: dict[str, Any] = {
                    threads: appends_and_cpu(platform.store, ids, seconds, threads) for threads in (1, 8)
                }
                if replicas == 0:
                    found["spread"] = spread(
                        platform_on(cluster.url, url, f"{prefix}:spread", 0),
                        QUICK_SPREAD_GAMES if quick else SPREAD_GAMES,
                    )
                games = api.create_games(client, f"{prefix}:c", scripts, api.CLIENTS, platform.handler)
                env = {"QUEUE_REDIS_URL": url, "TABLESTREAM_REPLICA_WAIT": str(wait)}
                found["http"] = api.peak_actions(
                    cluster.url, f"{prefix}:c", 2, api.CLIENTS, http_seconds, prepared=games, env=env
                ).rate
                on[replicas] = found
                platform.redis.close()
        client.close()

    masters = f"{MASTERS}-master cluster"
    replicated = f"{MASTERS} masters + 1 replica each, WAIT 1"
    twice = f"{MASTERS} masters + 2 replicas each, WAIT 1"
    server = "one redis-server"
    share, held = on[0]["spread"]
    spread_games = sum(held.values())
    return [
        higher_is_better(
            f"(8c) store appends/s, 1 thread, {masters}", on[0][1][0], single[1][0], "events/s", TARGET_RATIO, server
        ),
        higher_is_better(
            f"(8c) appends per client CPU second, {masters}",
            1 / on[0][8][1],
            1 / single[8][1],
            "events/s",
            TARGET_RATIO,
            server,
        ),
        figure(
            f"(8c) store appends/s, 8 threads, 1,000 games, {masters}", on[0][8][0], single[8][0], "events/s", server
        ),
        figure(f"(8c) store appends/s, 1 thread, {replicated}", on[1][1][0], single[1][0], "events/s", server),
        figure(f"(8c) store appends/s, 8 threads, {replicated}", on[1][8][0], single[8][0], "events/s", server),
        figure(f"(8c) store appends/s, 1 thread, {twice}", on[2][1][0], on[1][1][0], "events/s", "1 replica each"),
        figure(f"(8c) store appends/s, 8 threads, {twice}", on[2][8][0], on[1][8][0], "events/s", "1 replica each"),
        higher_is_better(
            f"(8c) HTTP actions/s, 2 workers, 16 clients, {masters}",
            on[0]["http"],
            single_http,
            "req/s",
            TARGET_RATIO,
            server,
        ),
        figure(f"(8c) HTTP actions/s, same, {replicated}", on[1]["http"], single_http, "req/s", server),
        figure(f"(8c) HTTP actions/s, same, {twice}", on[2]["http"], on[1]["http"], "req/s", "1 replica each"),
        lower_is_better(
            f"(8c) {spread_games:,} games over {MASTERS} masters: largest share ({max(held.values()):,})",
            share,
            1.0,
            "x even",
            TARGET_SPREAD,
            f"an even share ({spread_games / MASTERS:,.0f})",
        ),
        figure(
            "(8c) events/s one master takes (one redis-server, 8 threads; the capacity plan's unit)",
            single[8][0],
            single[8][0],
            "events/s",
            "itself",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(HEADER)
    started = time.perf_counter()
    for row in run(args.quick):
        print(row.line(), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
