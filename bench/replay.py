"""Replay throughput.

  python -m bench.replay [--quick]

* Rebuilding every read model from zero (``Projector.rebuild``, what ``tablestream
  projections rebuild`` runs) over 200 finished games (``--quick``: 25): events
  folded per second, against a raw XRANGE plus JSON decode of the same logs.
* A whole audit (``core.tooling.audit_game``: hash chain, seed, deal, every action
  re-decided, snapshot) of the longest of those games, in events per second, against
  the same raw read of that game.

The finished games are random games of every registered kind played through the
command handler on an in-memory store, then imported (``import_raw``, as ``tablestream
import`` does) under fresh ids until there are enough of them.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import time
from dataclasses import dataclass

import redis

from bench.common import HEADER, Row, bench_redis, figure
from games import registry

MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class Log:
    kind: str
    seed: str
    entries: tuple[tuple[int, str], ...]


def play_random(handler: object, kind: str, rng: random.Random, seed: str, command_ids: bool = False) -> object:
    """A random game of ``kind`` played to its end through ``handler``; the final table."""
    game = registry.get(kind)
    assert game is not None
    players = [{"name": f"p{i}"} for i in range(max(2, game.min_players))]
    table = handler.create_game(kind, players, seed=seed).table  # type: ignore[attr-defined]
    for step in range(MAX_ACTIONS):
        if table.status != "active":
            break
        seat = min(table.to_act())
        action = rng.choice(game.legal_actions(table.state, seat))
        command = f"{table.game_id}-{step}" if command_ids else None
        table = handler.act(table.game_id, seat, action, table.version, command).table  # type: ignore[attr-defined]
    return table


def finished_logs(client: redis.Redis, prefix: str, per_kind: int) -> list[Log]:
    """``per_kind`` finished random games of every kind, played in memory."""
    from core.handler import Handler
    from events.memory import MemoryEventStore
    from projections.snapshots import MemorySnapshots
    from projections.tables import Tables
    from stores.vault import RedisVault

    logs = []
    for kind in registry.keys():
        for index in range(per_kind):
            store = MemoryEventStore()
            handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(client, prefix=f"{prefix}:mem"))
            seed = f"bench-replay-{kind}-{index}"
            table = play_random(handler, kind, random.Random(seed), seed)
            if table.status == "finished":  # type: ignore[attr-defined]
                logs.append(Log(kind, seed, tuple(store.read_raw(table.game_id))))  # type: ignore[attr-defined]
    return logs


def import_games(client: redis.Redis, prefix: str, logs: list[Log], count: int) -> list[tuple[str, Log]]:
    from events.redis_store import RedisEventStore
    from stores.vault import RedisVault

    store = RedisEventStore(client, prefix=prefix)
    vault = RedisVault(client, prefix=prefix)
    imported = []
    for index in range(count):
        log = logs[index % len(logs)]
        game_id = f"r{index}-{secrets.token_hex(3)}"
        store.import_raw(game_id, log.entries)
        vault.set_seed(game_id, log.seed)
        imported.append((game_id, log))
    return imported


def run(quick: bool, client: redis.Redis | None = None, prefix: str | None = None) -> list[Row]:
    if client is None or prefix is None:
        with bench_redis() as (own_client, own_prefix):
            return run(quick, own_client, own_prefix)
    from core.config import Config
    from core.tooling import audit_game
    from stores.platform import Platform
    from workers.projector import Projector

    games = 25 if quick else 200
    scope = f"{prefix}:replay"
    logs = finished_logs(client, prefix, 1 if quick else 3)
    imported = import_games(client, scope, logs, games)
    events = sum(len(log.entries) for _, log in imported)
    platform = Platform(Config(prefix=scope), client)
    store = platform.store

    started = time.perf_counter()
    rebuilt = Projector(platform).rebuild()
    rebuild_rate = events / (time.perf_counter() - started)
    assert rebuilt == games

    def raw_read(game_ids: list[str]) -> float:
        started = time.perf_counter()
        count = 0
        for game_id in game_ids:
            for _, fields in client.xrange(store.key(game_id, "events")):
                json.loads(fields[b"e"])
                count += 1
        return count / (time.perf_counter() - started)

    raw_rate = raw_read([game_id for game_id, _ in imported])

    longest_id, longest = max(imported[: len(logs)], key=lambda item: len(item[1].entries))
    platform.tables.forget()
    started = time.perf_counter()
    report = audit_game(platform, longest_id)
    audit_rate = len(longest.entries) / (time.perf_counter() - started)
    assert report.ok, report.as_json()
    raw_one = raw_read([longest_id])
    return [
        figure(
            f"(5) rebuild every read model, {games} finished games ({events:,} events)",
            rebuild_rate,
            raw_rate,
            "events/s",
            "XRANGE + JSON decode of the same logs",
        ),
        figure(
            f"(5) audit one {longest.kind} game ({len(longest.entries):,} events)",
            audit_rate,
            raw_one,
            "events/s",
            "XRANGE + JSON decode of that game",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="25 games instead of 200")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
