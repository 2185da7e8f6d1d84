"""Our event store against a peer: the ``eventsourcing`` library (PyPI) on its
PostgreSQL and SQLite recorders.

  python -m bench.peer [--quick]

The same work on each store: for each of 200 aggregates, append 100 events one
command at a time, each with optimistic concurrency (the write refuses a version that
is not the next one), then reconstruct every aggregate from its events. The event
payload is the same dict everywhere. eventsourcing keeps each aggregate in memory
between commands and saves its one pending event (an INSERT that a unique
(id, version) constraint guards); ours calls ``RedisEventStore.append`` with the
expected version, a command id and the known head hash, as the command handler does.
Reconstructing is ``repository.get`` for the peer and ``store.read`` (XRANGE, JSON
decode, envelope) plus the same fold for ours.

Needs the ``bench`` extra (``pip install -e '.[bench]'``) and a PostgreSQL server on
127.0.0.1:5432 with trust auth and a database ``test`` (POSTGRES_* variables
override); a missing server or library makes the PostgreSQL rows say so.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

from bench.common import HEADER, Row, bench_redis, figure, higher_is_better
from events import NewEvent
from events.redis_store import RedisEventStore

PAYLOAD = {"card": "QH", "end": "left", "hand": ["2C", "7D", "KS", "10H", "AC"], "seat": 1}
AGGREGATES = 200
EVENTS = 100


@cache
def _peer_classes() -> tuple[Any, Any]:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class BenchTable(Aggregate):
        @event("Opened")
        def __init__(self) -> None:
            self.played = 0

        @event("CardPlaced")
        def place(self, card: str, end: str, hand: list[str], seat: int) -> None:
            self.played += 1

    return Application, BenchTable


def run_peer(env: dict[str, str], aggregates: int, events: int) -> tuple[float, float]:
    """(appends/s, events reconstructed/s) of eventsourcing with ``env``."""
    application, aggregate = _peer_classes()
    name = f"BenchPeer{uuid.uuid4().hex[:8]}"
    app_class = type(name, (application,), {"env": {"IS_SNAPSHOTTING_ENABLED": "n"}})
    app = app_class(env=env)
    try:
        tables = [aggregate() for _ in range(aggregates)]
        for table in tables:
            app.save(table)  # the Opened event, not timed

        def append() -> None:
            for table in tables:
                for _ in range(events):
                    table.place(**PAYLOAD)
                    app.save(table)

        def reconstruct() -> None:
            for table in tables:
                assert app.repository.get(table.id).played == events

        append_rate = _rate(aggregates * events, append)
        rebuild_rate = _rate(aggregates * (events + 1), reconstruct)
        return append_rate, rebuild_rate
    finally:
        _drop(app, name)
        app.close()


def _drop(app: Any, name: str) -> None:
    recorder = app.recorder
    datastore = getattr(recorder, "datastore", None)
    if datastore is None or not hasattr(datastore, "transaction"):
        return
    table = getattr(recorder, "events_table_name", f"{name.lower()}_events")
    try:
        with datastore.transaction(commit=True) as curs:
            curs.execute(f"DROP TABLE IF EXISTS {table}")
    except Exception:
        pass


def run_ours(client: Any, prefix: str, aggregates: int, events: int) -> tuple[float, float]:
    store = RedisEventStore(client, prefix=f"{prefix}:peer")
    games = [f"t{i}" for i in range(aggregates)]
    heads = {}
    for game in games:
        opened = store.append(game, [NewEvent("Opened", {}, None, "system")], 0, None)
        heads[game] = opened.envelopes[-1].hash
    event = [NewEvent("CardPlaced", PAYLOAD, 1, "human")]

    def append() -> None:
        for game in games:
            head = heads[game]
            for version in range(1, events + 1):
                result = store.append(game, event, version, f"{game}-{version}", prev_hash=head)
                head = result.envelopes[-1].hash

    def reconstruct() -> None:
        for game in games:
            played = 0
            for envelope in store.read(game):
                if envelope.type == "CardPlaced":
                    played += 1
            assert played == events

    return _rate(aggregates * events, append), _rate(aggregates * (events + 1), reconstruct)


def _rate(count: int, work: Callable[[], None]) -> float:
    started = time.perf_counter()
    work()
    return count / (time.perf_counter() - started)


def postgres_env() -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
        "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
        "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
    }


def run(quick: bool, client: Any = None, prefix: str | None = None) -> list[Row]:
    aggregates = 10 if quick else AGGREGATES
    events = EVENTS
    scope = f"{aggregates} aggregates x {events} events"
    if client is None:
        with bench_redis() as (own_client, own_prefix):
            return run(quick, own_client, own_prefix)
    assert prefix is not None
    ours_append, ours_rebuild = run_ours(client, prefix, aggregates, events)
    rows: list[Row] = []
    try:
        import eventsourcing  # noqa: F401
    except ImportError:
        return [figure(f"(4) peer: eventsourcing not installed ({scope})", ours_append, float("nan"), "events/s")]
    try:
        pg_append, pg_rebuild = run_peer(postgres_env(), aggregates, events)
        rows += [
            higher_is_better(
                f"(4) append 1 event/command, optimistic ({scope})",
                ours_append,
                pg_append,
                "events/s",
                1.0,
                "eventsourcing on PostgreSQL",
            ),
            higher_is_better(
                f"(4) reconstruct every aggregate ({scope})",
                ours_rebuild,
                pg_rebuild,
                "events/s",
                1.0,
                "eventsourcing on PostgreSQL",
            ),
        ]
        # This Redis does not fsync each write (see the report's machine facts); PostgreSQL
        # does by default. The same peer without waiting for the WAL flush, for scale:
        previous = os.environ.get("PGOPTIONS")
        os.environ["PGOPTIONS"] = "-c synchronous_commit=off"
        try:
            nosync_append, _ = run_peer(postgres_env(), min(aggregates, 50), events)
        finally:
            if previous is None:
                os.environ.pop("PGOPTIONS", None)
            else:
                os.environ["PGOPTIONS"] = previous
        rows.append(
            figure(
                "(4) append, same work, vs PostgreSQL without fsync wait",
                ours_append,
                nosync_append,
                "events/s",
                f"eventsourcing on PostgreSQL, synchronous_commit=off ({min(aggregates, 50)} aggregates)",
            ),
        )
    except Exception as error:  # a missing server is a finding, not a crash
        rows.append(
            figure(f"(4) peer on PostgreSQL unavailable: {type(error).__name__}", ours_append, float("nan"), "events/s")
        )
    with tempfile.TemporaryDirectory(prefix="tablestream-peer-") as folder:
        sqlite_env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": os.path.join(folder, "peer.db")}
        lite_append, lite_rebuild = run_peer(sqlite_env, aggregates, events)
    rows += [
        figure(
            "(4) append, same work, vs SQLite", ours_append, lite_append, "events/s", "eventsourcing on SQLite (file)"
        ),
        figure(
            "(4) reconstruct, same work, vs SQLite",
            ours_rebuild,
            lite_rebuild,
            "events/s",
            "eventsourcing on SQLite (file)",
        ),
    ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10 aggregates instead of 200")
    args = parser.parse_args()
    print(HEADER)
    for row in run(args.quick):
        print(row.line(), flush=True)


if __name__ == "__main__":
    main()
