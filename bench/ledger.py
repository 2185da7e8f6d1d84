"""The ledger as a transparency log (row 12).

  python -m bench.ledger [--quick]

A ledger of 20,000 finished games (``--quick``: 2,000) is written on the bench's Redis,
then, each against a baseline measured in the same run:

* what a client reads to check that one game is on the ledger: its inclusion proof and
  the signed checkpoint, in bytes, against the whole ledger's pages (what checking a
  linear hash chain takes);
* a checkpoint's cost cold (a new process, no node of the tree kept: every leaf read and
  hashed once) and warm (the nodes of subtrees of 64 kept in Redis, one new entry), in
  ms, against one ``Ledger.record`` (the write each finished game costs already);
* an inclusion proof and a consistency proof, warm, in ms, against the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import redis

from bench.common import HEADER, Row, bench_redis, figure, lower_is_better
from events.ledger import Ledger

PROOF_TARGET = 0.01  # bytes to check one game: at most 1% of reading the whole ledger


def fill(ledger: Ledger, count: int) -> None:
    for n in range(1, count + 1):
        ledger.record(f"g{n:07d}", "tiny", 10 + n % 90, hashlib.sha256(str(n).encode()).hexdigest(), "t")


def median_ms(action: object, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)[len(times) // 2]


def run(quick: bool, client: redis.Redis, prefix: str) -> list[Row]:
    count = 2_000 if quick else 20_000
    ledger = Ledger(client, prefix=f"{prefix}:ledger-bench", origin="bench.invalid/ledger")
    fill(ledger, count)
    middle = ledger.at(count // 2) or {}

    def record_one() -> None:
        ledger.record(f"x{time.perf_counter_ns()}", "tiny", 5, "c" * 64, "t")

    baseline_ms = median_ms(record_one)
    cold = Ledger(client, prefix=f"{prefix}:ledger-bench", origin="bench.invalid/ledger")
    client.delete(cold.tree_key)
    started = time.perf_counter()
    cold.checkpoint()
    cold_ms = (time.perf_counter() - started) * 1000

    def warm_checkpoint() -> None:
        record_one()
        Ledger(client, prefix=f"{prefix}:ledger-bench", origin="bench.invalid/ledger").checkpoint()

    warm_ms = median_ms(warm_checkpoint) - baseline_ms
    fresh = Ledger(client, prefix=f"{prefix}:ledger-bench", origin="bench.invalid/ledger")
    size = fresh.size()
    inclusion_ms = median_ms(lambda: Ledger(client, prefix=f"{prefix}:ledger-bench").inclusion(count // 2, size))
    consistency_ms = median_ms(lambda: Ledger(client, prefix=f"{prefix}:ledger-bench").consistency(count // 3, size))
    proof = fresh.proof_of(middle)
    proof_bytes = len(json.dumps(proof))
    whole = sum(len(json.dumps(entry)) for entry in fresh.page(0, size + 1))
    hashes = len(proof["hashes"])
    return [
        lower_is_better(
            f"(12) bytes to check one game is on a ledger of {size:,} ({hashes}-hash inclusion proof + checkpoint)",
            proof_bytes,
            whole,
            "B",
            PROOF_TARGET,
            "every entry of the ledger (checking a linear chain)",
        ),
        figure(f"(12) a checkpoint, cold, {size:,} entries", cold_ms, baseline_ms, "ms", "one Ledger.record"),
        figure("(12) a checkpoint, warm, after one new entry", warm_ms, baseline_ms, "ms", "one Ledger.record"),
        figure("(12) an inclusion proof, warm", inclusion_ms, baseline_ms, "ms", "one Ledger.record"),
        figure("(12) a consistency proof, warm", consistency_ms, baseline_ms, "ms", "one Ledger.record"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with bench_redis() as (client, prefix):
        print(HEADER)
        for row in run(args.quick, client, prefix):
            print(row.line())


if __name__ == "__main__":
    main()
