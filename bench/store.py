"""Event store benchmark: ours against raw redis-py on the same Redis, same run.

  python -m bench.store [--quick]

(1a) sequential appends, one event per command, vs a raw XADD loop of the same payload;
(1b) appends across 50 games from 8 threads vs raw XADD from 8 threads;
(1c) where ``redis-benchmark`` is installed, its XADD throughput with 1 and 8 clients, for
     scale (C clients without Python, so not a target);
(1d) the cost of commitments: appending an event that hides a card (its sealed form
     computed on every append, as the command handler does: a redaction compared, an
     HMAC salt and a SHA-256 commitment) vs appending the same event unsealed;
(2) loading a 1,000-event game from its snapshot plus the tail, and folding it from zero,
    vs raw XRANGE plus JSON decode;
(7) Redis bytes per event (MEMORY USAGE) vs the canonical JSON size.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import threading
import time

import redis

from bench.common import HEADER, Row, bench_redis, figure, higher_is_better, lower_is_better, rate
from events import NewEvent
from events.commitments import seal
from events.envelope import canonical_json
from events.redis_store import RedisEventStore
from projections.snapshots import RedisSnapshots
from projections.tables import Tables

HAND = ["2C", "7D", "KS", "10H", "AC"]
PAYLOAD = {"card": "QH", "end": "left", "hand": HAND, "seat": 1}


def sequential(client: redis.Redis, prefix: str, n: int, chunks: int = 5) -> list[Row]:
    """Ours and the raw loop take turns in ``chunks`` runs each, so that a drift of the
    machine (another process, the CPU's clock) weighs on both alike."""
    store = RedisEventStore(client, prefix=f"{prefix}:seq")
    event = [NewEvent("CardPlaced", PAYLOAD, 1, "human")]
    store.append("warm", event, 0, "c0")
    sample = store.read("warm", limit=1)[0].encode()
    raw_key = f"{prefix}:raw:seq"
    size = n // chunks
    spent = {"ours": 0.0, "raw": 0.0}
    head, version = "0" * 64, 0
    for _ in range(chunks):
        started = time.perf_counter()
        for _ in range(size):
            result = store.append("g", event, version, f"c{version}", prev_hash=head)
            head, version = result.envelopes[-1].hash, version + 1
        spent["ours"] += time.perf_counter() - started
        started = time.perf_counter()
        for index in range(version - size + 1, version + 1):
            client.xadd(raw_key, {"e": sample}, id=f"{index}-0")
        spent["raw"] += time.perf_counter() - started
    return [
        higher_is_better(
            "(1a) append sequential, 1 event/command",
            version / spent["ours"],
            version / spent["raw"],
            "events/s",
            0.7,
            f"raw redis-py XADD loop, same payload (turns of {size})",
        )
    ]


def sealing(client: redis.Redis, prefix: str, n: int) -> list[Row]:
    store = RedisEventStore(client, prefix=f"{prefix}:seal")
    seed = "bench-seed"

    def appends(game: str, sealed: bool) -> None:
        head = "0" * 64
        for version in range(n):
            data = {**PAYLOAD, "card": HAND[version % len(HAND)]}
            public = {k: v for k, v in data.items() if k not in ("card", "hand")}
            seal_of = seal(data, public, seed, version + 1) if sealed else None
            result = store.append(
                game, [NewEvent("CardDrawn", data, 1, "human", seal_of)], version, f"c{version}", prev_hash=head
            )
            head = result.envelopes[-1].hash

    plain = rate(n, lambda: appends("plain", False))
    ours = rate(n, lambda: appends("sealed", True))
    return [
        figure(
            "(1d) append a hidden-card event, sealed (commitments)", ours, plain, "events/s", "the same append unsealed"
        )
    ]


def threaded(client: redis.Redis, prefix: str, n: int, threads: int = 8, games: int = 50) -> list[Row]:
    store = RedisEventStore(client, prefix=f"{prefix}:thr")
    event = [NewEvent("CardPlaced", PAYLOAD, 1, "human")]
    sample = canonical_json(
        {"version": 1, "type": "CardPlaced", "data": PAYLOAD, "hash": "0" * 64, "prev_hash": "0" * 64}
    )
    per_thread = n // threads

    def run(worker) -> float:  # type: ignore[no-untyped-def]
        pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]

        def go() -> None:
            for thread in pool:
                thread.start()
            for thread in pool:
                thread.join()

        return rate(per_thread * threads, go)

    def ours_worker(index: int) -> None:
        mine = [f"g{g}" for g in range(games) if g % threads == index]
        versions = dict.fromkeys(mine, 0)
        heads = dict.fromkeys(mine, "0" * 64)
        for i in range(per_thread):
            game = mine[i % len(mine)]
            result = store.append(game, event, versions[game], f"c{index}-{i}", prev_hash=heads[game])
            versions[game] += 1
            heads[game] = result.envelopes[-1].hash

    def raw_worker(index: int) -> None:
        mine = [f"{prefix}:raw:thr:g{g}" for g in range(games) if g % threads == index]
        for i in range(per_thread):
            client.xadd(mine[i % len(mine)], {"e": sample})

    ours_rate = run(ours_worker)
    raw_rate = run(raw_worker)
    return [
        higher_is_better(
            f"(1b) append from {threads} threads across {games} games",
            ours_rate,
            raw_rate,
            "events/s",
            0.5,
            f"raw XADD from {threads} threads",
        )
    ]


def load_and_fold(client: redis.Redis, prefix: str, repeats: int) -> list[Row]:
    from games import registry

    store = RedisEventStore(client, prefix=f"{prefix}:load")
    tables = Tables(store, RedisSnapshots(client, prefix=f"{prefix}:load"))
    game_id, kind = build_long_game(client, prefix, store, tables)
    raw_key = store.key(game_id, "events")
    count = store.last_version(game_id)

    def ours() -> None:
        for _ in range(repeats):
            Tables(store, tables.snapshots, snapshot_every=10**9).fold(game_id, None, store.read(game_id))

    def ours_snapshot() -> None:
        for _ in range(repeats):
            Tables(store, tables.snapshots).load(game_id)

    def raw() -> None:
        for _ in range(repeats):
            [json.loads(fields[b"e"]) for _, fields in client.xrange(raw_key)]

    tail = count - tables.snapshots.version(game_id)
    ours_rate = rate(repeats * count, ours)
    snapshot_rate = rate(repeats * count, ours_snapshot)
    raw_rate = rate(repeats * count, raw)
    assert registry.get(kind) is not None
    return [
        higher_is_better(
            f"(2) load snapshot + {tail}-event tail, {count}-event {kind} game",
            snapshot_rate,
            raw_rate,
            "events/s",
            0.5,
            "XRANGE + JSON decode of the game",
        ),
        higher_is_better(
            "(2) load + fold the same game from zero",
            ours_rate,
            raw_rate,
            "events/s",
            0.5,
            "XRANGE + JSON decode of the game",
        ),
    ]


def build_long_game(client: redis.Redis, prefix: str, store: RedisEventStore, tables: Tables) -> tuple[str, str]:
    """Play random games of a registered kind through the handler until one has 1,000+ events."""
    from core.handler import Handler
    from games import registry
    from stores.vault import RedisVault

    handler = Handler(store, tables, RedisVault(client, prefix=f"{prefix}:load"))
    rng = random.Random(1)
    kinds = [k for k in ("fortress-siege", "stomping-grounds", "fortress-royals") if registry.get(k)] or registry.keys()
    for _ in range(50):
        for kind in kinds:
            game = registry.get(kind)
            assert game is not None
            players = [{"name": f"p{i}"} for i in range(max(2, game.min_players))]
            table = handler.create_game(kind, players).table
            while table.status == "active" and table.version < 1000:
                seat = min(table.to_act())
                action = rng.choice(game.legal_actions(table.state, seat))
                table = handler.act(table.game_id, seat, action, table.version).table
            if table.version >= 1000:
                return table.game_id, kind
    raise RuntimeError("no random game reached 1,000 events")


def memory(client: redis.Redis, prefix: str, n: int) -> list[Row]:
    """Bytes per event of a stream of hidden-card events, each stored with its sealed
    form (the commitments the chain hashes), against the canonical JSON of what is stored."""
    store = RedisEventStore(client, prefix=f"{prefix}:mem")
    for version in range(n):
        data = {**PAYLOAD, "card": HAND[version % len(HAND)]}
        public = {k: v for k, v in data.items() if k not in ("card", "hand")}
        sealed = seal(data, public, "bench-seed", version + 1)
        store.append("g", [NewEvent("CardDrawn", data, 1, "human", sealed)], version, f"c{version}")
    used = client.memory_usage(store.key("g", "events"), samples=0) or 0
    json_bytes = sum(len(text.encode()) for _, text in store.read_raw("g"))
    return [
        lower_is_better(
            "(7) Redis bytes per event (stream of hidden-card events, commitments in)",
            used / n,
            json_bytes / n,
            "bytes",
            1.3,
            "canonical JSON of the stored event",
        )
    ]


def redis_benchmark(client: redis.Redis, prefix: str, n: int, clients: int) -> float | None:
    """``redis-benchmark``'s XADD requests/s on our own key, or None when it is not installed."""
    binary = shutil.which("redis-benchmark")
    if binary is None:
        return None
    kwargs = client.connection_pool.connection_kwargs
    where = ["-s", kwargs["path"]] if kwargs.get("path") else ["-h", kwargs["host"], "-p", str(kwargs["port"])]
    if kwargs.get("password"):
        where += ["-a", kwargs["password"]]
    command = [binary, *where, "--dbnum", str(kwargs.get("db", 0)), "-n", str(n), "-c", str(clients), "-q", "--csv"]
    sample = canonical_json({"version": 1, "type": "CardPlaced", "data": PAYLOAD, "hash": "0" * 64})
    command += ["XADD", f"{prefix}:redis-benchmark", "*", "e", sample]
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
        return float(out.strip().splitlines()[-1].rsplit(",", 7)[1].strip('"'))  # the name may hold commas
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None


def run(quick: bool, client: redis.Redis | None = None, prefix: str | None = None) -> list[Row]:
    if client is None or prefix is None:
        with bench_redis() as (own_client, own_prefix):
            return run(quick, own_client, own_prefix)
    n = 2000 if quick else 10_000
    rows = sequential(client, prefix, n) + threaded(client, prefix, n)
    for clients, ours in ((1, rows[0].ours), (8, rows[1].ours)):
        raw = redis_benchmark(client, prefix, n * 2, clients)
        if raw is not None:
            rows.append(
                figure(
                    f"(1c) append ({'sequential' if clients == 1 else '8 threads'}) vs redis-benchmark",
                    ours,
                    raw,
                    "events/s",
                    f"redis-benchmark XADD, {clients} client(s)",
                )
            )
    rows += sealing(client, prefix, n)
    return rows + load_and_fold(client, prefix, 5 if quick else 20) + memory(client, prefix, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
