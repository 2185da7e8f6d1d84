"""Every benchmark in one report: ``python -m bench [--quick]`` (or ``tablestream bench``).

Runs every row on this machine, prints one table of figures and ratios (each against a
baseline measured in the same run) and writes it, with the machine's facts, to
``bench/report.md``. ``--quick`` shortens every row to finish in about three minutes on
two cores; the report says which mode it holds.

The rows and how each is measured: ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import redis

from bench.common import HEADER, MARKDOWN_HEADER, Row, bench_redis_url, figure, machine_facts, median
from games import registry

REPORT = Path(__file__).with_name("report.md")


# -- row 6: bot move times -------------------------------------------------------------


def sample_states(kind: str, count: int) -> list[tuple[object, int]]:
    """States from random games of ``kind`` (at its smallest table of two or more) where
    the seat to act has a real choice."""
    from games.play import new_game, step

    game = registry.all_games()[kind]
    players = max(2, game.min_players)
    rng = random.Random(f"bench-moves-{kind}")
    found: list[tuple[object, int]] = []
    while len(found) < count:
        play = new_game(game, players, None, rng)
        for _ in range(rng.randrange(1, 300)):
            if game.outcome(play.state) is not None:
                break
            seat = min(game.to_act(play.state))
            step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
        if game.outcome(play.state) is None:
            seat = min(game.to_act(play.state))
            if len(game.legal_actions(play.state, seat)) > 1:
                found.append((play.state, seat))
    return found


def bot_rows(quick: bool) -> list[Row]:
    """Median CPU ms per move of each bot at its default budget, per kind, against the
    random bot on the same states (the floor: one ``legal_actions`` and a choice)."""
    from games.bots import BOTS

    try:
        from bench.bots import ISMCTS_MOVE_MS_TARGET
    except ImportError:
        ISMCTS_MOVE_MS_TARGET = 400.0  # noqa: N806 (issue 6's target)
    states_per_kind = 5 if quick else 30
    rows = []
    for kind in registry.keys():
        game = registry.all_games()[kind]
        states = sample_states(kind, states_per_kind)
        times: dict[str, list[float]] = {name: [] for name in BOTS}
        for index, (state, seat) in enumerate(states):
            for name, bot in BOTS.items():
                rng = random.Random(index)
                started = time.process_time()
                bot(game, state, seat, rng)
                times[name].append((time.process_time() - started) * 1000)
        floor = median(times["random"])
        for name in BOTS:
            if name == "random":
                continue
            ms = median(times[name])
            label = f"(6) {kind}: {name} bot, median CPU ms/move ({len(states)} states)"
            if name == "ismcts":
                ratio = ms / floor if floor else float("inf")
                rows.append(
                    Row(
                        label,
                        ms,
                        floor,
                        "ms",
                        f"<= {ISMCTS_MOVE_MS_TARGET:.0f} ms",
                        ratio,
                        ms <= ISMCTS_MOVE_MS_TARGET,
                        "random bot, same states",
                    )
                )
            else:
                rows.append(figure(label, ms, floor, "ms", "random bot, same states"))
    return rows


# -- the runner --------------------------------------------------------------------------


Section = Callable[[bool, str, str, redis.Redis], list[Row]]


def _store(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import store

    return store.run(quick, client, f"{prefix}:store")


def _api(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import api

    return api.run(quick, url, f"{prefix}:api")


def _peer(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import peer

    return peer.run(quick, client, prefix)


def _replay(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import replay

    return replay.run(quick, client, prefix)


def _bots(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    return bot_rows(quick)


def _memory(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import memory

    rows = memory.run(quick, client, prefix)
    # The per-event row is the store section's (7) already.
    return [row for row in rows if "per event" not in row.name]


def _scaling(quick: bool, url: str, prefix: str, client: redis.Redis) -> list[Row]:
    from bench import scaling

    return scaling.run(quick, url, f"{prefix}:scaling")


SECTIONS: dict[str, Section] = {
    "store": _store,
    "api": _api,
    "peer": _peer,
    "replay": _replay,
    "bots": _bots,
    "memory": _memory,
    "scaling": _scaling,
}


def row_order(row: Row) -> tuple[int, str]:
    found = re.match(r"\((\d+)([a-z]?)\)", row.name)
    return (int(found.group(1)), found.group(2)) if found else (99, "")


def render(rows: list[Row], facts: dict[str, str], mode: str, seconds: float, notes: list[str]) -> str:
    lines = [
        "# tablestream benchmark report",
        "",
        "Generated by `python -m bench" + (" --quick" if mode == "quick" else "") + "`; do not edit by hand "
        "(how each row is measured: [README.md](README.md)).",
        "",
        f"- date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- mode: {mode} ({seconds:.0f} s)",
        *(f"- {name}: {value}" for name, value in facts.items()),
        "",
        "Ratio is ours / baseline. A target on the ratio (`>= 0.5`) or on the figure (`<= 25 ms`); rows with `-`"
        " are printed for scale.",
        "",
        MARKDOWN_HEADER,
        *(row.markdown() for row in rows),
    ]
    if notes:
        lines += ["", "## Notes", "", *(f"- {note}" for note in notes)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every row shortened (about 3 minutes)")
    parser.add_argument("--only", action="append", choices=sorted(SECTIONS), help="run only these sections")
    parser.add_argument("--report", type=Path, default=REPORT, help="where to write the markdown report")
    parser.add_argument("--no-report", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    started = time.perf_counter()
    rows: list[Row] = []
    notes: list[str] = []
    print(HEADER, flush=True)
    with bench_redis_url() as (url, prefix):
        client = redis.Redis.from_url(url)
        facts = machine_facts(client)
        durability = client.config_get("appendonly").get("appendonly"), client.config_get("appendfsync")
        facts["redis persistence"] = f"appendonly {durability[0]}, appendfsync {durability[1].get('appendfsync')}"
        for name in args.only or SECTIONS:
            section_started = time.perf_counter()
            try:
                found = SECTIONS[name](args.quick, url, prefix, client)
            except Exception as error:  # one broken section never hides the others
                traceback.print_exc()
                notes.append(f"section `{name}` failed: {type(error).__name__}: {error}")
                continue
            for row in found:
                print(row.line(), flush=True)
            rows += found
            print(f"# {name}: {time.perf_counter() - section_started:.0f} s", file=sys.stderr, flush=True)
        facts["load average after"] = machine_facts().get("load average", "?")
    rows.sort(key=row_order)
    seconds = time.perf_counter() - started
    print()
    print(HEADER)
    for row in rows:
        print(row.line())
    misses = [row.name for row in rows if row.meets is False]
    print(f"\n{len(rows)} rows, {len(misses)} missing their target, {seconds:.0f} s ({mode})")
    if not args.no_report:
        args.report.write_text(render(rows, facts, mode, seconds, notes))
        print(f"written to {args.report}")
    return 0
