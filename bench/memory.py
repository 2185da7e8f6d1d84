"""Redis memory per event and per finished game, per kind.

  python -m bench.memory [--quick]

Per event: the store's (d) row (``bench.store.memory``). Per finished game: one random
game of every kind played to its end through the command handler on Redis, with a
command id on every action as the API sends them, then ``MEMORY USAGE`` (exact,
``SAMPLES 0``) of its keys, against the canonical JSON of its log (the stored texts):

* the event stream alone (target <= 2x the JSON);
* every key the game owns: the stream, its head, the snapshot, the seed, the command
  ids kept for deduplication (7 days) and its seat tokens (printed for scale).
"""

from __future__ import annotations

import argparse
import random

import redis

from bench.common import HEADER, Row, bench_redis, figure, lower_is_better
from bench.replay import play_random
from games import registry

TARGET = 1.3


def game_keys(client: redis.Redis, prefix: str, game_id: str) -> list[bytes]:
    keys = list(client.scan_iter(match=f"{prefix}:{{{game_id}}}:*", count=1000))
    tokens = client.hkeys(f"{prefix}:{{{game_id}}}:tokens")
    keys += [f"{prefix}:token:{digest.decode()}".encode() for digest in tokens]
    return keys


def usage(client: redis.Redis, keys: list[bytes]) -> int:
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.memory_usage(key, samples=0)
    return sum(size or 0 for size in pipe.execute())


def run(quick: bool, client: redis.Redis | None = None, prefix: str | None = None) -> list[Row]:
    if client is None or prefix is None:
        with bench_redis() as (own_client, own_prefix):
            return run(quick, own_client, own_prefix)
    from bench.store import memory as per_event
    from core.handler import Handler
    from events.redis_store import RedisEventStore
    from projections.snapshots import RedisSnapshots
    from projections.tables import Tables
    from stores.vault import RedisVault

    rows = per_event(client, prefix, 2000 if quick else 10_000)
    scope = f"{prefix}:memory"
    store = RedisEventStore(client, prefix=scope)
    handler = Handler(store, Tables(store, RedisSnapshots(client, prefix=scope)), RedisVault(client, prefix=scope))
    for kind in registry.keys():
        seed = f"bench-memory-{kind}"
        table = play_random(handler, kind, random.Random(seed), seed, command_ids=True)
        game_id = table.game_id  # type: ignore[attr-defined]
        entries = store.read_raw(game_id)
        json_bytes = sum(len(text.encode()) for _, text in entries)
        stream = usage(client, [store.key(game_id, "events").encode()])
        everything = usage(client, game_keys(client, scope, game_id))
        status = "" if table.status == "finished" else ", unfinished"  # type: ignore[attr-defined]
        rows.append(
            lower_is_better(
                f"(7) {kind}: event stream ({len(entries):,} events{status})",
                stream,
                json_bytes,
                "bytes",
                TARGET,
                "canonical JSON of its log",
            )
        )
        rows.append(
            figure(
                f"(7) {kind}: all its keys (+snapshot, command ids, tokens)",
                everything,
                json_bytes,
                "bytes",
                "canonical JSON of its log",
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
