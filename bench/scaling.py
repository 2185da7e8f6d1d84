"""Where the cost grows.

  python -m bench.scaling [--quick]

* Store appends/s (one event per command, as row 1) from 1, 2 and 4 processes, each
  appending to its own games; the baseline is 1 process.
* HTTP actions/s (each one append through the whole service, as row 3) with 1, 2 and 4
  gunicorn worker processes; the baseline is 1 worker.
* Store appends/s from 8 threads across 1,000 and 10,000 games against 50 games.
* HTTP actions/s from 16 clients spread over 1,000 and 10,000 games (every request
  goes to the next game of the client's share, so the process cache of 2,048 tables
  per worker stops helping) against 16 games. ``--quick`` leaves out 10,000.
* Redis Cluster against a single Redis (rows (8c), ``bench.cluster``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import threading
import time

import redis

from bench import api
from bench.common import HEADER, Row, bench_redis_url, figure
from events import NewEvent
from events.redis_store import RedisEventStore

PAYLOAD = {"card": "QH", "end": "left", "hand": ["2C", "7D", "KS", "10H", "AC"], "seat": 1}


def _append_worker(url: str, prefix: str, games: list[str], seconds: float, gate: object, out: object) -> None:
    store = RedisEventStore(redis.Redis.from_url(url), prefix=prefix)
    event = [NewEvent("CardPlaced", PAYLOAD, 1, "human")]
    versions = {game: store.last_version(game) for game in games}
    heads = {game: store.head(game)[1] for game in games}
    gate.wait()  # type: ignore[attr-defined]
    deadline = time.time() + seconds
    done = 0
    while time.time() < deadline:
        game = games[done % len(games)]
        result = store.append(game, event, versions[game], f"{game}-{versions[game]}", prev_hash=heads[game])
        versions[game] += 1
        heads[game] = result.envelopes[-1].hash
        done += 1
    out.put(done)  # type: ignore[attr-defined]


def appends_from_processes(url: str, prefix: str, processes: int, seconds: float) -> float:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    gate = context.Barrier(processes)  # every process spawned and connected first
    workers = [
        context.Process(
            target=_append_worker,
            args=(url, f"{prefix}:proc{processes}", [f"p{p}g{g}" for g in range(10)], seconds, gate, out),
        )
        for p in range(processes)
    ]
    for worker in workers:
        worker.start()
    total = sum(out.get(timeout=seconds + 60) for _ in workers)
    for worker in workers:
        worker.join()
    return total / seconds


def appends_across_games(url: str, prefix: str, games: int, seconds: float, threads: int = 8) -> float:
    client = redis.Redis.from_url(url, max_connections=threads * 2)
    store = RedisEventStore(client, prefix=f"{prefix}:games{games}")
    return appends_on(store, [f"g{g}" for g in range(games)], seconds, threads)


def appends_on(store: RedisEventStore, games: list[str], seconds: float, threads: int = 8) -> float:
    """Events/s appended by ``threads`` threads for ``seconds``, each round robin over its
    share of ``games`` (one event a command, with a command id, as the API appends)."""
    return appends_and_cpu(store, games, seconds, threads)[0]


def appends_and_cpu(store: RedisEventStore, games: list[str], seconds: float, threads: int = 8) -> tuple[float, float]:
    """As ``appends_on``, and the CPU seconds this process spent an append (its client's cost)."""
    event = [NewEvent("CardPlaced", PAYLOAD, 1, "human")]
    counts = [0] * threads
    deadline = [0.0]
    gate = threading.Barrier(threads + 1)

    def worker(index: int) -> None:
        mine = games[index::threads]
        versions = {game: store.last_version(game) for game in mine}
        heads = {game: store.head(game)[1] if versions[game] else "0" * 64 for game in mine}
        gate.wait()
        done = 0
        while time.perf_counter() < deadline[0]:
            game = mine[done % len(mine)]
            result = store.append(game, event, versions[game], f"{game}-{versions[game]}", prev_hash=heads[game])
            versions[game] += 1
            heads[game] = result.envelopes[-1].hash
            done += 1
        counts[index] = done

    pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    deadline[0] = time.perf_counter() + seconds
    started, cpu = time.perf_counter(), time.process_time()
    gate.wait()
    for thread in pool:
        thread.join()
    done = sum(counts)
    return done / (time.perf_counter() - started), (time.process_time() - cpu) / max(1, done)


def run(quick: bool, url: str | None = None, prefix: str | None = None) -> list[Row]:
    if url is None or prefix is None:
        with bench_redis_url() as (own_url, own_prefix):
            return run(quick, own_url, own_prefix)
    seconds = 0.6 if quick else 3.0
    http_seconds = 1.0 if quick else 5.0
    rows: list[Row] = []

    by_process = {n: appends_from_processes(url, prefix, n, seconds) for n in (1, 2, 4)}
    for n in (2, 4):
        rows.append(
            figure(f"(8) store appends/s, {n} processes", by_process[n], by_process[1], "events/s", "1 process")
        )

    client = redis.Redis.from_url(url)
    scripts = api.make_scripts(client, prefix)
    by_worker = {}
    for n in (1, 2, 4):
        load = api.peak_actions(url, f"{prefix}:w{n}", n, api.CLIENTS, http_seconds, scripts)
        by_worker[n] = load.rate
    rows.append(
        figure("(8) HTTP actions/s, 1 worker (16 clients, 16 games)", by_worker[1], by_worker[1], "req/s", "1 worker")
    )
    for n in (2, 4):
        rows.append(figure(f"(8) HTTP actions/s, {n} workers", by_worker[n], by_worker[1], "req/s", "1 worker"))

    counts = (1000,) if quick else (1000, 10_000)
    base_appends = appends_across_games(url, prefix, 50, seconds)
    for games in counts:
        rate = appends_across_games(url, prefix, games, seconds)
        rows.append(
            figure(f"(8) store appends/s, 8 threads, {games:,} games", rate, base_appends, "events/s", "50 games")
        )
    base_http = by_worker[2]  # 2 workers on 16 games: the baseline of the rows on more games
    for games in counts:
        started = time.perf_counter()
        pool = api.create_games(client, f"{prefix}:n{games}", scripts, games)
        created = games / (time.perf_counter() - started)
        rate = api.peak_actions(url, f"{prefix}:n{games}", 2, games, http_seconds, scripts, pool).rate
        rows.append(
            figure(
                f"(8) HTTP actions/s, 2 workers, {games:,} games (created at {created:,.0f}/s)",
                rate,
                base_http,
                "req/s",
                "16 games",
            )
        )
    from bench import cluster  # on servers of its own: a single Redis and a local Redis Cluster

    return rows + cluster.run(quick)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
